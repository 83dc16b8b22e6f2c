// "Welcome back": after a stand-in played your seat, the table screen says what it did for you,
// from the `hand_log` the server sends when you take the seat back (docs/protocol.md): the
// steps from `stand_in_from` on whose actor is your seat are the stand-in's moves.

import { h } from "./util.js";
import { t, tn } from "./i18n.js";

// Events that tell what came of a move (a trick taken, a pot awarded, the next deal), not the
// move itself.
const RESULT = /won|award|captur|_end$|scored|over|shown|redeal|dealt|^deal$/;

/** The stand-in's moves in words, one line per move (the events of yours that made it), in
 * the current language. */
function standInMoves(msg, ctx, mod) {
  const lines = [];
  for (const step of msg.steps.slice(msg.stand_in_from)) {
    if (step.actor !== ctx.mySeatTable) continue;
    // the move is the events before the first result: what follows (a trick taken, the deal
    // scored, the next deal's "You get") came of it and is no part of it
    const end = step.events.findIndex((ev) => RESULT.test(ev.kind));
    const own = end < 0 ? step.events : step.events.slice(0, end);
    const parts = own.filter((ev) => ev.seat === ctx.mySeat)
      .map((ev) => mod?.describe?.(ev, ctx)).filter((x) => x);
    if (parts.length) lines.push(parts.join("; "));
  }
  return lines;
}

/**
 * For a `hand_log` that ends a stand-in period: `{line, build}`, the log's line and the
 * summary builder (a "Welcome back" box listing the stand-in's moves); else null.
 * `ctx`: the table screen's context plus `mySeatTable` (the table seat).
 */
export function welcomeBack(msg, ctx, mod) {
  if (msg.stand_in_from === null || msg.stand_in_from === undefined) return null;
  const n = standInMoves(msg, ctx, mod).length;
  if (n === 0) return null;  // back before the stand-in moved: nothing to tell
  const line = { key: "back.line", n, params: { n } };  // a log entry (tablelog.js)
  const build = () => {
    const moves = standInMoves(msg, ctx, mod);
    return h("div", { class: "welcome-back", "data-welcome-back": String(moves.length) },
      h("h2", {}, t("back.title")),
      h("p", {}, tn("back.moves", moves.length, { n: moves.length })),
      moves.length ? h("ol", { class: "stand-in-moves" }, moves.map((x) => h("li", {}, x))) : null);
  };
  return { line, build };
}
