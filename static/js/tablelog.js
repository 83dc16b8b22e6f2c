// The table screen's event log: one line per event, newest last, at most LOG_MAX lines. It lives
// in sessionStorage per table and role, so a reload of this tab restores it; a seat that
// resumes mid-game gets the game's log from the server (`hand_log`, handlog.js), which
// replaces the lines of that game (`rebuild`), so nothing of the time away is missing and no
// line of an earlier deal is mixed in.

import { h } from "./util.js";

const LOG_MAX = 200;

export class TableLog {
  /** `list`: the <ol> the lines go into; `key`: the sessionStorage key of this table and role. */
  constructor(list, key) {
    this.list = list;
    this.key = key;
    this.lines = [];
    this.hand = null;  // the hand whose game_started the log holds
    this.handStart = null;  // the index of that hand's first line (null: not known)
  }

  /** A new hand (game) begins here: its lines start at the next line. */
  startHand(hand) {
    this.hand = hand;
    this.handStart = this.lines.length;
  }

  add(text, cls = "", save = true) {
    if (!text) return;
    this.lines.push({ text, cls });
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
    for (const e of kept) this.add(e.text, e.cls, false);
    this.hand = null;
    this.handStart = null;
    fill();
    this.save();
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
      for (const e of lines) this.add(e.text, e.cls, false);
    } catch { /* a broken entry is ignored */ }
  }
}
