// Bazaar Blot: a finished trick stays on the felt for a moment (about a second, its winner
// marked) before it is gathered, and the "Last trick" strip names who played which card and
// who took it. The held trick comes from the event stream (`played`, then `trick_won` with the
// trick's cards in play order); nothing waits for it: the next lead can be played at once
// (your own card ends the hold), and cards led by others show once the hold is over, or at
// once when it is your turn to answer them.

import { h } from "../util.js";
import { t } from "../i18n.js";
import { frenchCard } from "../cards.js";

export const HOLD_MS = 1200;
let held = null;  // {cards: [{seat, card}], winner, until (performance.now() ms)}
let lastPlayed = null;

/** Watch one event of the live table (table.js calls it for each event, in log order). */
export function onEvent(ev, ctx) {
  if (ev.kind === "played") lastPlayed = ev.seat;
  if (ev.kind !== "trick_won" || lastPlayed === null || !Array.isArray(ev.cards)) return;
  const n = ev.cards.length;  // the last card was the player's just seen: seats go round by one
  const leader = (lastPlayed - (n - 1) + 4 * n) % 4;
  held = { cards: ev.cards.map((card, i) => ({ seat: (leader + i) % 4, card })), winner: ev.seat,
    until: performance.now() + HOLD_MS };
  ctx.redrawIn?.(HOLD_MS + 30);
}

/** The finished trick to draw instead of the current one, or null: not live, over, or the
 * player needs the next trick (played a card to it, or must answer the cards led to it). */
export function heldTrick(ctx, current) {
  if (!held || !ctx.live || performance.now() >= held.until) return null;
  const mine = ctx.mySeat !== null && ctx.mySeat !== undefined;
  if (mine && current.length && (current.some((c) => c.seat === ctx.mySeat) || ctx.toAct?.includes(ctx.mySeat))) {
    held = null;
    return null;
  }
  return held;
}

/** The felt's trick: the held one (winner marked) or the cards of the trick being played. */
export function trickEl(ctx, cards, rel) {
  const hold = heldTrick(ctx, cards);
  if (!hold) {
    return h("div", { class: "trick", role: "group", "aria-label": "trick" }, cards.map((c) =>
      h("div", { class: `slot pos-${rel(c.seat)}`, "data-seat": c.seat }, frenchCard(c.card))));
  }
  const who = ctx.name(hold.winner);
  const el = h("div", { class: "trick held", role: "group", "data-held": "1", "data-winner": hold.winner,
    "aria-label": t("blot.trick_taken", { name: who }) }, hold.cards.map((c) =>
    h("div", { class: `slot pos-${rel(c.seat)}${c.seat === hold.winner ? " winner" : ""}`, "data-seat": c.seat },
      frenchCard(c.card),
      c.seat === hold.winner ? h("span", { class: "tag taker", "data-taker": "1" }, t("blot.takes", { name: who })) : null)));
  // drawn anew on each state: the gathering animation (css/feel.css) goes on from where it was
  el.style.setProperty("--feel-t", `${Math.round(performance.now() - (hold.until - HOLD_MS))}ms`);
  return el;
}

/** The "Last trick" strip: each card under its player's name, the winner marked. */
export function lastTrickEl(v, ctx) {
  const last = v.last_trick;
  if (!last) return null;
  return h("div", { class: "last-trick", "data-last-winner": last.winner },
    h("h3", {}, t("blot.last_trick")),
    h("div", { class: "cards" }, last.cards.map((c) => h("figure", {
      class: `lt-card${c.seat === last.winner ? " winner" : ""}`, "data-seat": c.seat },
    frenchCard(c.card, { small: true }), h("figcaption", {}, ctx.name(c.seat))))),
    h("p", { class: "lt-winner" }, t("blot.trick_taken", { name: ctx.name(last.winner) })));
}
