// The notice when the clock runs out: "Your time ran out; played for you: Ana plays 7♦" to the
// player, "Time ran out for Boris: ..." to the others, over the table for a few seconds (the log
// keeps its "Timeout: ..." line).

import { h } from "./util.js";
import { t } from "./i18n.js";

export const NOTICE_MS = 6000;

export class TimeoutNotice {
  constructor() {
    this.el = h("div", { class: "timeout-notice", role: "alert", hidden: true });
    this.timer = null;
  }

  /** Show `text` (the timed-out move in words); `mine`: the player's own clock ran out;
   * `name`: whose it was. */
  show(text, mine, name) {
    this.el.textContent = mine ? t("notice.timeout_you", { text }) : t("notice.timeout", { name, text });
    this.el.dataset.timeoutNotice = mine ? "you" : "other";
    this.el.classList.toggle("mine", mine);
    this.el.hidden = false;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => { this.el.hidden = true; }, NOTICE_MS);
  }

  stop() { clearTimeout(this.timer); }
}
