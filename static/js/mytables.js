// "Your tables": every live table where this player holds a seat, private ones included, with
// a link back (GET /api/players/me/tables, docs/rest.md). Shown in the lobby and under My games.

import { h, fill } from "./util.js";
import { t } from "./i18n.js";
import { api, me } from "./api.js";

/** The link back to a table of the list: a private one through its invite link (which keeps
 * the code in this browser, so the table screen can show it to invite others). */
export function backLink(row) {
  return row.private && row.invite_code
    ? `#/invite/${encodeURIComponent(row.id)}/${encodeURIComponent(row.invite_code)}`
    : `#/table/${encodeURIComponent(row.id)}`;
}

function rowEl(row) {
  const mine = new Set(row.my_seats);
  const standIn = row.seats.some((s) => mine.has(s.seat) && s.stand_in);
  const others = row.seats.filter((s) => !mine.has(s.seat) && s.name).map((s) => s.name);
  return h("li", { class: "table-row my-table", "data-my-table": row.id },
    h("div", { class: "tr-head" },
      h("strong", {}, t(`game.${row.game}`)),
      h("span", { class: "pill" }, t(`status.${row.status}`)),
      row.private ? h("span", { class: "pill private", "data-private": "1" }, t("mine.private")) : null,
      standIn ? h("span", { class: "pill stand-in", "data-stand-in": "1" }, t("mine.stand_in")) : null,
      h("span", { class: "muted" }, others.length ? t("mine.with", { names: others.join(", ") }) : ""),
      h("a", { href: backLink(row), class: "button primary", "data-back": row.id }, t("lobby.back"))));
}

/**
 * The "Your tables" block: an element that fills itself from the server and, when
 * `pollMs` is given, again every `pollMs` ms while it is on the page. Nothing is shown
 * while the player holds no seat.
 */
export function yourTables({ pollMs = 0 } = {}) {
  const box = h("section", { class: "your-tables", "data-your-tables": "1", hidden: true });
  let timer = null;
  let last = "";
  async function load() {
    if (!me()) return;
    try {
      const got = await api("/api/players/me/tables");
      const key = JSON.stringify(got.items);
      if (key !== last) {
        last = key;
        box.hidden = !got.items.length;
        fill(box, h("h2", {}, t("mine.title")),
          h("ul", { class: "table-list" }, got.items.map(rowEl)));
      }
    } catch { /* the lobby's own list says when the server is away */ }
    if (pollMs && box.isConnected) timer = setTimeout(load, pollMs);
  }
  load();
  box.stop = () => clearTimeout(timer);
  return box;
}
