// The move timer as the player sees it: the seconds left beside the seat that must act, and a
// bar under the turn banner that empties as the deadline nears. The server's state frame sends
// the milliseconds left (deadline_ms) and the table's turn time (turn_timeout_ms).

import { h } from "./util.js";
import { t } from "./i18n.js";

const WARN_MS = 3000;  // the last seconds: the bar turns red

export class Countdown {
  constructor() {
    this.deadlineAt = null;  // performance.now() of the deadline, or null when none runs
    this.totalMs = null;
  }

  /** A state arrived: `leftMs` (deadline_ms) may be null; `totalMs` is the table's turn time. */
  set(leftMs, totalMs) {
    this.deadlineAt = leftMs === null || leftMs === undefined ? null : performance.now() + leftMs;
    if (totalMs) this.totalMs = totalMs;
    if (leftMs && (!this.totalMs || leftMs > this.totalMs)) this.totalMs = leftMs;  // e.g. a longer grace
  }

  stop() { this.deadlineAt = null; }

  get running() { return this.deadlineAt !== null; }

  leftMs() { return this.deadlineAt === null ? 0 : Math.max(0, this.deadlineAt - performance.now()); }

  text() { return `${Math.ceil(this.leftMs() / 1000)}s`; }

  /** The seconds left, as a span the ticker keeps current. */
  clock(big = false) {
    return h("span", { class: big ? "clock big" : "clock", "data-clock": "1" }, this.text());
  }

  /** The bar: full at the start of the decision, empty at the deadline. */
  bar() {
    const fill = h("span", { class: "countdown-fill" });
    const el = h("div", { class: "countdown", "data-countdown": "1", role: "progressbar",
      "aria-label": t("feel.time_left"), "aria-valuemin": 0, "aria-valuemax": Math.round((this.totalMs || 0) / 1000) }, fill);
    this.paint(el);
    return el;
  }

  paint(bar) {
    const left = this.leftMs();
    const share = this.totalMs ? Math.min(1, left / this.totalMs) : 0;
    bar.firstChild.style.width = `${(share * 100).toFixed(1)}%`;
    bar.classList.toggle("warn", left <= WARN_MS);
    bar.setAttribute("aria-valuenow", String(Math.ceil(left / 1000)));
  }

  /** Keep every clock and bar under `root` current (4 times a second); returns the stopper. */
  tick(root) {
    const id = setInterval(() => {
      if (this.deadlineAt === null) return;
      for (const c of root.querySelectorAll("[data-clock]")) c.textContent = this.text();
      for (const b of root.querySelectorAll("[data-countdown]")) this.paint(b);
    }, 250);
    return () => clearInterval(id);
  }
}
