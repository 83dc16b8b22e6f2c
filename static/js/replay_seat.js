// The replay's perspective, as a player expects it (issue 28 item 10): a player's own game
// opens from their seat; a seat's link opened by someone who did not play keeps its seat (the
// table's view, said so); "open hands" turns each seat's cards face up in place on the board;
// a timed-out step reads "Time ran out for Ana, so this was played: ...".

import { h } from "./util.js";
import { t, addStrings } from "./i18n.js";
import { api, me } from "./api.js";

/** The seat the signed-in player held in game `gameId` (its table copy's seats name their
 * players), else null. Never throws: no seat is the answer to any failure. */
export async function mySeatIn(gameId) {
  const who = me();
  if (!who?.id) return null;
  try {
    const doc = await api(`/api/games/${encodeURIComponent(gameId)}`);
    const i = (doc.seats || []).findIndex((s) => s?.player_id === who.id);
    return i >= 0 ? i : null;
  } catch { return null; }
}

/** Whether the URL chose the perspective (`seat=` present, even empty: the spectator). */
export function seatInUrl(hash = location.hash) {
  return new URLSearchParams(hash.split("?")[1] || "").has("seat");
}

/** A seat chosen without the full copy: the table's view from that seat, and a note why. */
export function seatNote(seat, d) {
  if (typeof seat !== "number" || d.copy === "full") return null;
  return h("p", { class: "muted", "data-seat-note": seat },
    t("replay.seat_table_view", { name: d.seats[seat] ?? String(seat + 1) }));
}

/** Mark the chosen seat on the board (`board`: the drawn board element). */
export function markSeat(board, seat) {
  if (typeof seat !== "number") return;
  board.querySelector(`.seat[data-seat="${seat}"]`)?.classList.add("perspective");
}

/**
 * Open hands in place: each seat's cards (GET /api/games/{id}/hands) replace the card backs
 * at that seat on the board; `render(code)` draws one card ("??": a back). Returns the hands
 * that found no seat on the board (drawn below by the caller), [] when all were placed.
 */
export function handsInPlace(board, hands, render) {
  const left = [];
  board.dataset.openHands = hands.copy;
  for (const s of hands.hands) {
    const seatEl = board.querySelector(`.seat[data-seat="${s.seat}"]`);
    if (!seatEl) { left.push(s); continue; }
    const place = seatEl.closest(".ring-seat, .blot-seat") || seatEl;
    place.querySelectorAll(".backs").forEach((b) => b.remove());
    const cards = Object.values(s.cards).filter(Array.isArray).flat();
    place.append(h("div", { class: "cards open-in-place", "data-hand-seat": s.seat },
      cards.map((c) => render(c))));
  }
  return left;
}

/** A step's lines in words; a timed-out step says so once, naturally, on its first line. */
export function timeoutLines(lines, action, who) {
  if (!action?.timeout || !lines.length) return lines;
  return [t("replay.timed_out", { name: who, text: lines[0] }), ...lines.slice(1)];
}

addStrings({
  en: {
    "replay.seat_table_view": "From {name}'s seat, as the table saw it: only the game's players see the hands.",
    "replay.timed_out": "Time ran out for {name}, so this was played: {text}",
  },
  bg: {
    "replay.seat_table_view": "От мястото на {name}, както го видя масата: ръцете виждат само играчите на играта.",
    "replay.timed_out": "Времето на {name} изтече и беше изиграно: {text}",
  },
  hy: {
    "replay.seat_table_view": "{name}-ի տեղից, ինչպես տեսավ սեղանը․ ձեռքերը տեսնում են միայն խաղի մասնակիցները։",
    "replay.timed_out": "{name}-ի ժամանակը սպառվեց, և խաղացվեց․ {text}",
  },
});
