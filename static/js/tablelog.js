// The table screen's event log: one line per event, newest last, at most LOG_MAX lines. It lives
// in sessionStorage per table and role, so a reload of this tab restores it; a seat that
// resumes mid-game gets the game's log from the server (`hand_log`, handlog.js), which
// replaces the lines of that game (`rebuild`), so nothing of the time away is missing and no
// line of an earlier deal is mixed in.
// A line is kept as what it says, not as text: `{key, params, n?}` (an interface string, `n`
// for a plural) or an event with what its description needs (`{ev, ...}`, drawn by the
// table screen's `describe`), so a language switch draws the whole log again (`rerender`).

import { h } from "./util.js";
import { t, tn } from "./i18n.js";

const LOG_MAX = 200;

export class TableLog {
  /** `list`: the <ol> the lines go into; `key`: the sessionStorage key of this table and role;
   * `describe(entry)`: the text of an event entry (`{ev, ...}`) in the current language. */
  constructor(list, key, describe = () => "") {
    this.list = list;
    this.key = key;
    this.describe = describe;
    this.lines = [];
    this.hand = null;  // the hand whose game_started the log holds
    this.handStart = null;  // the index of that hand's first line (null: not known)
  }

  /** A new hand (game) begins here: its lines start at the next line. */
  startHand(hand) {
    this.hand = hand;
    this.handStart = this.lines.length;
  }

  /** The text of an entry now: `{key, params, n}` translated, `{ev}` described, `{text}` as
   * stored (a line saved by an older page). */
  textOf(e) {
    if (e.key) return e.n === undefined ? t(e.key, e.params) : tn(e.key, e.n, e.params);
    if (e.ev) return this.describe(e);
    return e.text;
  }

  /** Add a line: `entry` is `{key, params, n?}`, `{ev, ...}` or a text; one that says nothing
   * now (an event of no words for this seat) is not added. */
  add(entry, cls = "", save = true) {
    const e = typeof entry === "string" ? { text: entry } : entry;
    const text = this.textOf(e);
    if (!text) return;
    this.lines.push({ ...e, cls });
    if (this.lines.length > LOG_MAX) {
      this.lines.shift();
      if (this.handStart !== null) this.handStart = Math.max(0, this.handStart - 1);
    }
    this.list.append(h("li", { class: cls }, text));
    while (this.list.children.length > LOG_MAX) this.list.firstChild.remove();
    this.list.scrollTop = this.list.scrollHeight;
    if (save) this.save();
  }

  /** Drop the lines of hand `hand` (when the log holds its start; lines of earlier hands stay)
   * or, for a hand whose start it does not hold, nothing of the earlier hands but the lines
   * after them; then `fill()` adds the hand's lines again. */
  rebuild(hand, fill) {
    const keep = this.hand === hand ? (this.handStart ?? 0) : this.lines.length;
    const kept = this.lines.slice(0, keep).filter((e) => e.cls !== "note");
    this.lines = [];
    while (this.list.firstChild) this.list.firstChild.remove();
    for (const e of kept) this.add(e, e.cls, false);
    this.hand = null;
    this.handStart = null;
    fill();
    this.save();
  }

  /** Draw every line again in the current language (the language was switched). */
  rerender() {
    while (this.list.firstChild) this.list.firstChild.remove();
    for (const e of this.lines) this.list.append(h("li", { class: e.cls }, this.textOf(e) || ""));
    this.list.scrollTop = this.list.scrollHeight;
  }

  save() {
    try {
      sessionStorage.setItem(this.key, JSON.stringify({ hand: this.hand, handStart: this.handStart, lines: this.lines }));
    } catch { /* full or off */ }
  }

  load() {
    try {
      const saved = JSON.parse(sessionStorage.getItem(this.key) || "null");
      if (!saved || !Array.isArray(saved.lines)) return;
      this.hand = saved.hand ?? null;
      const lines = saved.lines.slice(-LOG_MAX);
      const cut = saved.lines.length - lines.length;
      this.handStart = saved.handStart === null || saved.handStart === undefined ? null : Math.max(0, saved.handStart - cut);
      for (const e of lines) this.add(e, e.cls, false);
    } catch { /* a broken entry is ignored */ }
  }
}
