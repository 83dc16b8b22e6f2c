// Tournaments in the browser (#/tournaments, #/tournaments/ID): the list, and a tournament's
// page with standings, rounds, tables and each board's results side by side
// (GET /api/tournaments, GET /api/tournaments/{id}: docs/rest.md "Tournaments",
// docs/tournaments.md). Tolerant of fields it does not know: it shows what the document has.

import "./i18n_tour.js";
import "./i18n_tourentry.js";
import { h, fill } from "./util.js";
import { t, onLang } from "./i18n.js";
import { api } from "./api.js";
import { tourForm } from "./tourform.js";
import { entryEl, myTable } from "./tourentry.js";
import { followTournament, firstTimeAt } from "./tourwatch.js";
import { me } from "./api.js";

const POLL_MS = 5000;  // a polite poll while the page is open and the tournament runs
const enc = encodeURIComponent;

/** The tournament page's link (lobby pill, table header). */
export function tournamentHref(id) { return `#/tournaments/${enc(id)}`; }

function gameText(g) { const k = `game.${g}`; const v = t(k); return v === k ? String(g ?? "") : v; }
function kindText(f) { const k = `tour.format.${f}`; const v = t(k); return v === k ? String(f ?? "") : v; }

function statusText(s) { const k = `tour.status.${s}`; const v = t(k); return v === k ? String(s) : v; }

function listRow(x) {
  return h("li", { "data-tournament-row": x.id },
    h("a", { href: tournamentHref(x.id) }, x.name || x.id), " · ",
    gameText(x.game), " · ", kindText(x.kind ?? x.format), " · ",
    statusText(x.status), " · ",
    t("tour.round_of", { x: x.rounds_played ?? 0, y: x.rounds_total ?? "?" }), " · ",
    t("tour.entrants_n", { n: x.entrants ?? 0 }));
}

/** #/tournaments: running and finished tournaments, newest first. */
export function tournamentsScreen(root) {
  let items = null;
  let error = null;
  // Built once per language: a redraw when the list arrives must keep what was typed in it.
  let form = null;
  const makeForm = () => { form = tourForm((id) => { location.hash = tournamentHref(id); }); };
  makeForm();
  const draw = () => fill(root, h("section", { class: "tournaments-screen", "data-tournaments": "1" },
    h("h1", {}, t("tour.title")),
    error ? h("p", { class: "error-line", role: "alert" }, error)
      : items === null ? h("p", { class: "muted" }, t("tour.loading"))
        : items.length ? h("ul", { class: "tour-list" }, items.map(listRow))
          : h("p", { class: "muted" }, t("tour.none")),
    form));
  draw();
  api("/api/tournaments").then((r) => { items = Array.isArray(r) ? r : (r.items ?? []); draw(); })
    .catch((x) => { error = x.message; draw(); });
  return onLang(() => { makeForm(); draw(); });
}

function nameOf(doc) {
  const names = {};
  for (const e of doc.entrants ?? []) if (e && typeof e === "object") names[e.id] = e.name ?? e.id;
  return (id) => names[id] ?? String(id);
}

// Who holds each seat of a table: an entrant's name, or for a person's second seat in a
// partnership game (its `bots` [null, "rule"]) that person's bot partner.
function seatNames(doc, name) {
  const bots = {};
  for (const e of doc.entrants ?? []) if (e && typeof e === "object") bots[e.id] = e.bots ?? [];
  return (seats) => seats.map((e, s) => {
    const nth = seats.slice(0, s).filter((x) => x === e).length;
    const partner = (bots[e] ?? [])[0] === null && nth > 0;
    return `${s}: ${partner ? t("tour.partner_bot", { name: name(e) }) : name(e)}`;
  });
}

// The columns after the score: an arena ranks by points, then points per game (docs/
// tournaments.md "Arena"); Swiss and knockout by Buchholz, then Sonneborn-Berger.
const TIE_FIELD = { buchholz: "buchholz", sb: "sonneborn_berger", games: "games", per_game: "per_game" };

function standingsEl(doc, name) {
  const rows = doc.standings ?? [];
  if (!rows.length) return null;
  const tie = doc.kind === "arena" ? ["games", "per_game"] : ["buchholz", "sb"];
  return h("div", { class: "table-scroll", tabindex: "0", role: "region", "aria-label": t("tour.standings") },
    h("table", { class: "tour-standings", "data-standings": "1" },
      h("caption", {}, t("tour.standings")),
      h("thead", {}, h("tr", {}, ["rank", "entrant", "score", ...tie].map((k) =>
        h("th", { scope: "col" }, t(`tour.col.${k}`))))),
      h("tbody", {}, rows.map((s) => h("tr", { "data-entrant": s.entrant },
        h("td", {}, String(s.rank ?? "")),
        h("td", {}, name(s.entrant), s.withdrawn ? ` (${t("tour.withdrawn")})` : ""),
        h("td", {}, String(s.score ?? "")),
        ...tie.map((k) => h("td", {}, String(s[TIE_FIELD[k]] ?? ""))))))));
}

function tableLink(tb, watchable) {
  if (tb.game_id) return h("a", { href: `#/replay/${enc(tb.game_id)}`, "data-replay": tb.game_id }, t("tour.replay"));
  if (tb.table_id && tb.status !== "finished" && watchable) return h("a", { href: `#/watch/${enc(tb.table_id)}`, "data-watch": tb.table_id }, t("tour.watch"));
  return h("span", { class: "muted" }, statusText(tb.status ?? "pending"));
}

// Matchpoints of each side of each table of a board (docs/tournaments.md: 2 per result beaten,
// 1 per tie, among the sides that held the same cards); null until every table has returns.
function matchpoints(tables) {
  if (!tables.length || tables.some((tb) => !Array.isArray(tb.returns))) return null;
  const net = (tb, side) => tb.returns[side] - tb.returns[1 - side];
  return tables.map((tb) => [0, 1].map((side) => tables.reduce((mp, o) => o === tb ? mp
    : mp + (net(tb, side) > net(o, side) ? 2 : net(tb, side) === net(o, side) ? 1 : 0), 0)));
}

function boardEl(round, board, name, seatsOf) {
  const tables = (round.tables ?? []).filter((tb) => tb.board === board.board);
  const mps = matchpoints(tables);
  return h("div", { class: "tour-board", "data-board": `${round.round}-${board.board}` },
    h("h3", {}, t("tour.board", { n: board.board })),
    tables.length === 1 && mps ? h("p", { class: "muted", "data-alone": "1" }, t("tour.alone")) : null,
    h("p", { class: "muted" }, t("tour.commitment"), " ", h("code", {}, String(board.commitment ?? "")),
      board.seed ? [" · ", t("tour.seed"), " ", h("code", {}, String(board.seed))] : null),
    h("div", { class: "table-scroll", tabindex: "0", role: "region", "aria-label": `${t("tour.round", { n: round.round })} · ${t("tour.board", { n: board.board })}` },
      h("table", { class: "tour-board-results" },
        h("thead", {}, h("tr", {}, ["seats", "result", "mp", "game"].map((k) => h("th", { scope: "col" }, t(`tour.col.${k}`))))),
        h("tbody", {}, tables.map((tb, i) => h("tr", { "data-table-row": tb.table_id ?? "" },
          h("td", {}, seatsOf(tb.seats ?? []).join(", ")),
          h("td", {}, Array.isArray(tb.returns) ? tb.returns.join(" – ") : "–"),
          h("td", { "data-mp": "1" }, mps ? mps[i].join(" – ") : "–"),
          h("td", {}, tableLink(tb, round.watchable !== false))))))));
}

function roundEl(round, name, watchable, seatsOf) {
  const boards = round.boards ?? [];
  return h("section", { class: "tour-round", "data-round": round.round },
    h("h2", {}, t("tour.round", { n: round.round }), " · ", statusText(round.status)),
    h("ul", {}, (round.pairs ?? []).map((p) => h("li", {}, (Array.isArray(p) ? p : [p]).map(name).join(" – ")))),
    (round.groups ?? []).length && !(round.pairs ?? []).length
      ? h("ul", { "data-groups": "1" }, round.groups.map((g) => h("li", {}, (Array.isArray(g) ? g : [g]).map(name).join(", "))))
      : null,
    round.bye ? h("p", {}, t("tour.bye"), ": ", name(round.bye)) : null,
    (round.byes ?? []).length ? h("p", { "data-byes": "1" }, t("tour.bye"), ": ", round.byes.map(name).join(", ")) : null,
    boards.map((b, i) => boardEl({ ...round, watchable: watchable }, { board: i + 1, ...b }, name, seatsOf)));
}

/** #/tournaments/ID: status, standings, rounds with their boards side by side; polls while running. */
export function tournamentScreen(root, id) {
  let doc = null;
  let error = null;
  let timer = null;
  let alive = true;
  const draw = () => {
    const name = doc ? nameOf(doc) : String;
    fill(root, h("section", { class: "tournament-screen", "data-tournament-page": id },
      h("h1", {}, doc?.name || t("tour.one")),
      error ? h("p", { class: "error-line", role: "alert" }, error) : null,
      doc ? [h("p", { "data-status": doc.status }, statusText(doc.status), " · ", gameText(doc.game),
        " · ", kindText(doc.kind ?? doc.format), doc.rated === false ? [" · ", h("span", { "data-casual": "1" }, t("tour.casual"))] : null),
      standingsEl(doc, name), entryEl(doc, load), (doc.rounds ?? []).map((r) => roundEl(r, name, doc.tables_watchable !== false, seatNames(doc, name))),
      h("p", {}, h("a", { href: `/api/tournaments/${enc(id)}/verify`, target: "_blank", rel: "noopener" }, t("tour.verify")))]
        : error ? null : h("p", { class: "muted" }, t("tour.loading"))));
  };
  // An entrant's new table: go there once, as soon as it is made (BGA's "your table is ready").
  const arrived = (d) => {
    if (!alive) return;  // an answer or a push after the page was left draws nothing
    doc = d; error = null;
    const who = me();
    const mine = (d.entrants ?? []).find((e) => who && e.player_id === who.id && !e.withdrawn);
    const tb = d.status === "running" ? myTable(d, mine) : null;
    if (tb && firstTimeAt(id, tb.table_id)) {
      alive = false;  // leaving: nothing of this page is drawn again
      location.hash = `#/table/${enc(tb.table_id)}`;
      return;
    }
    draw();
  };
  const load = () => api(`/api/tournaments/${enc(id)}`)
    .then(arrived)
    .catch((x) => { if (!alive) return; error = x.code === "tournament.not_found" ? t("tour.not_found") : x.message; draw(); })
    .finally(() => {
      clearTimeout(timer);  // a reload after a join or withdraw: one poll, not two
      if (alive && (!doc || doc.status === "running" || doc.status === "registering")) timer = setTimeout(load, POLL_MS);
    });
  const unfollow = followTournament(id, (d) => { if (alive) arrived(d); });
  draw();
  load();
  const off = onLang(draw);
  return () => { alive = false; clearTimeout(timer); off(); unfollow(); };
}
