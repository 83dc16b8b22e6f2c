// One row of a finished-games list (GET /api/games items), with a win/loss/draw marker per seat
// and, in a player's own list, the row's marker for that player. Used by #/games and profiles.

import { h, signed } from "./util.js";
import { t, dateText } from "./i18n.js";

const SYMBOL = { win: "▲", loss: "▼", draw: "=" };

/** A marker for `mark` ("win" | "loss" | "draw" | null: nothing). */
export function markBadge(mark) {
  if (!mark) return null;
  return h("span", { class: `mark mark-${mark}`, "data-mark": mark, title: t(`mark.${mark}`) },
    SYMBOL[mark], " ", t(`mark.${mark}`));
}

/**
 * The <li> of game `g`; `player` (an id or null) puts that player's marker first and bolds
 * its seat. `links(g)` returns the row's buttons (replay, verify).
 */
export function gameRow(g, { player = null, links = () => [] } = {}) {
  const mine = player ? g.seats.find((s) => s.player_id === player) : null;
  return h("li", { class: "game-row", "data-game-id": g.id, "data-result": mine?.mark || null },
    mine ? markBadge(mine.mark) : null, mine ? " " : null,
    h("strong", {}, t(`game.${g.game}`)), " ",
    h("time", { datetime: g.ended_at }, dateText(g.ended_at)), " ",
    h("span", { class: "players" }, g.seats.map((s, i) => [i ? " · " : null,
      h("span", { class: s === mine ? "seat me-seat" : "seat", "data-seat-mark": s.mark || "" },
        s.player_id && !s.bot ? h("a", { href: `#/player/${s.player_id}` }, s.name) : s.name,
        ` ${signed(s.result)} `, markBadge(s.mark))])), " ",
    links(g));
}
