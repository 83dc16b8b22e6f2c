// The table screen's event log: one line per event, newest last, at most LOG_MAX lines. It lives
// in sessionStorage per table and role, so a reload of this tab restores it (the server replays
// no events on a join).

import { h } from "./util.js";

const LOG_MAX = 200;

export class TableLog {
  /** `list`: the <ol> the lines go into; `key`: the sessionStorage key of this table and role. */
  constructor(list, key) {
    this.list = list;
    this.key = key;
    this.lines = [];
    this.hand = null;  // the hand whose game_started the log holds
  }

  add(text, cls = "", save = true) {
    if (!text) return;
    this.lines.push({ text, cls });
    if (this.lines.length > LOG_MAX) this.lines.shift();
    this.list.append(h("li", { class: cls }, text));
    while (this.list.children.length > LOG_MAX) this.list.firstChild.remove();
    this.list.scrollTop = this.list.scrollHeight;
    if (save) this.save();
  }

  save() {
    try { sessionStorage.setItem(this.key, JSON.stringify({ hand: this.hand, lines: this.lines })); } catch { /* full or off */ }
  }

  load() {
    try {
      const saved = JSON.parse(sessionStorage.getItem(this.key) || "null");
      if (!saved || !Array.isArray(saved.lines)) return;
      this.hand = saved.hand ?? null;
      for (const e of saved.lines.slice(-LOG_MAX)) this.add(e.text, e.cls, false);
    } catch { /* a broken entry is ignored */ }
  }
}
