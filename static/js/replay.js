// Finished games (GET /api/games) and the replay viewer: each step is replayed by the server
// (GET /api/games/{id}/replay?seat=&step=), the browser only draws the view it gets back.

import { h, fill } from "./util.js";
import { t, onLang } from "./i18n.js";
import { api } from "./api.js";
import { GAMES } from "./games/index.js";
import { gameRow } from "./gamelist.js";
import { yourTables } from "./mytables.js";
import { frenchCard, cardBack } from "./cards.js";
import { verifyHref } from "./verify.js";
import { mySeatIn, seatInUrl, seatNote, markSeat, handsInPlace, timeoutLines } from "./replay_seat.js";

const PAGE = 20;

// A link to the check of a finished game's deals against its revealed seeds: the verify page
// (#/verify/ID, verify.js) words GET /api/games/{id}/verify (docs/fairness.md).
export function verifyLink(gameId) {
  return h("a", { href: verifyHref(gameId), class: "button small", "data-verify": gameId,
    title: t("games.verify_hint") }, t("games.verify"));
}

/** A finished game's buttons in a list: replay and verify. */
export function gameLinks(g) {
  return [h("a", { href: `#/replay/${g.id}`, class: "button small" }, t("games.replay")), " ",
    verifyLink(g.id)];
}

export function gamesScreen(root) {
  let offset = 0;
  const list = h("ul", { class: "game-list" });
  const more = h("button", { type: "button", hidden: true, onclick: () => load() }, t("games.more"));
  const err = h("p", { class: "error-line", role: "alert" });
  async function load() {
    try {
      const page = await api(`/api/games?limit=${PAGE}&offset=${offset}`);
      if (!page.items.length && offset === 0) list.append(h("li", { class: "muted" }, t("games.none")));
      for (const g of page.items) list.append(gameRow(g, { links: gameLinks }));
      offset = page.next_offset ?? offset;
      more.hidden = page.next_offset === null;
    } catch (x) { err.textContent = x.message; }
  }
  const mine = yourTables();  // live tables where this player holds a seat (mytables.js)
  fill(root, h("section", { class: "games" }, mine, h("h1", {}, t("games.title")), err, list, more));
  load();
  const off = onLang(() => gamesScreen(root));
  return () => { mine.stop(); off(); };
}

/** The replay's place in the URL: #/replay/ID?seat=N&step=K&by=UNIT (a link opens there). */
export function replayParams(hash = location.hash) {
  const q = new URLSearchParams(hash.split("?")[1] || "");
  const seat = q.get("seat");
  if (seat === "open") return { seat, step: Math.max(0, Number(q.get("step")) || 0), by: q.get("by") || "action" };
  return { seat: seat === null || seat === "" || Number.isNaN(Number(seat)) ? null : Number(seat),
    step: Math.max(0, Number(q.get("step")) || 0), by: q.get("by") || "action" };
}

function replayHash(gameId, seat, step, by) {
  const q = new URLSearchParams();
  if (seat !== null) q.set("seat", String(seat));
  q.set("step", String(step));
  if (by !== "action") q.set("by", by);
  return `#/replay/${encodeURIComponent(gameId)}?${q}`;
}

function handCard(game, code) {
  if (typeof code !== "string" || code.startsWith("?")) return cardBack({ small: true });
  return (GAMES[game]?.card || frenchCard)(code, { small: true });  // a game may draw its own
}

/**
 * The open-hands panel: the hands (GET /api/games/{id}/hands) that found no seat on the board
 * to be drawn in place (replay_seat.js handsInPlace). For a viewer who may not have the full
 * copy the server sends the table's view ("??" face down): a note above the board says so.
 */
function handsPanel(d, hands) {
  if (!hands) return null;
  return h("div", { "data-open-hands-left": hands.copy },
    h("div", { class: "open-hands" }, hands.hands.map((s) =>
      h("div", { class: "open-hand", "data-hand-seat": s.seat }, h("strong", {}, s.name),
        Object.values(s.cards).filter(Array.isArray).map((cards) =>
          h("div", { class: "hand-cards" }, cards.map((c) => handCard(d.game, c))))))));
}

/**
 * Save the finished game's history document as a .json file: the full copy (?full=1) when
 * the viewer may have it (`full`), else the table copy (GET /api/games/{id}).
 */
async function download(gameId, full) {
  const doc = await api(`/api/games/${encodeURIComponent(gameId)}${full ? "?full=1" : ""}`);
  const url = URL.createObjectURL(new Blob([JSON.stringify(doc, null, 1)], { type: "application/json" }));
  const a = h("a", { href: url, download: `${gameId}.json` });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// A finished game's replay: the table copy (the spectator's perspective, cards nobody at the
// table saw face down, "??" in the logged actions) for anyone; the full copy (every seat's
// perspective) with ?full=1 and the player's token when the viewer played the game
// (docs/fairness.md section 7); anyone else never asks for it (a 401/403 to ?full=1 would still
// fall back to the table copy). The
// open-hands perspective (seat=open) draws the spectator's board with every seat's hand face up
// in place, from GET /api/games/{id}/hands, which answers by the same rule (table copy: "??" face down).
// The URL carries the perspective, step and unit (#/replay/ID?seat=&step=&by=).
export function replayScreen(root, gameId) {
  const start = replayParams();
  let full = false;  // set once the viewer is known to have played the game (below)
  let seat = start.seat;
  let step = start.step;
  let by = start.by;
  let units = null;  // GET /api/games/{id}/steps: {unit, stops}
  let data = null;
  let hands = null;  // the open-hands perspective: GET /api/games/{id}/hands?step=
  let playing = null;
  let req = 0;
  let note = "";
  const body = h("div", { class: "replay-body" });
  const title = h("h1", {}, t("replay.title"));
  const err = h("p", { class: "error-line", role: "alert" });

  // a seat's view needs the full copy: without it the seat stays chosen (in the URL, marked on
  // the board) and the table's view is drawn (replay_seat.js)
  // a published game (e.g. one whose full copy is public by default) answers a seat's view
  // to anyone: a step's answer says so (copy "full"), then the seat is asked for
  let published = false;
  async function fetchStep(k) {
    const q = new URLSearchParams({ step: String(Math.max(0, k)) });
    const asSeat = typeof seat === "number" && (full || published);
    if (asSeat) q.set("seat", String(seat));
    if (full) q.set("full", "1");
    let d;
    try {
      d = await api(`/api/games/${encodeURIComponent(gameId)}/replay?${q}`);
    } catch (x) {
      if (!full || (x.status !== 401 && x.status !== 403)) throw x;
      full = false;  // not a game the viewer played: the table copy
      return fetchStep(k);
    }
    if (!asSeat && typeof seat === "number" && d.copy === "full" && !published) {
      published = true;
      return fetchStep(k);
    }
    return d;
  }

  async function go(k) {
    const n = ++req;
    try {
      const d = await fetchStep(k);
      const o = seat === "open" ? await api(`/api/games/${encodeURIComponent(gameId)}/hands?step=${d.step}`) : null;
      if (n !== req) return;
      data = d;
      hands = o;
      step = d.step;
      history.replaceState(null, "", replayHash(gameId, seat, step, by));
      draw();
    } catch (x) { err.textContent = x.message; stop(); }
  }

  function stop() { clearInterval(playing); playing = null; }

  // the next / previous step of the chosen unit (a trick, round or battle), else of one action
  function nextStop(k) {
    if (by === "action" || !units) return k + 1;
    return units.stops.find((s) => s > k) ?? data.steps;
  }
  function prevStop(k) {
    if (by === "action" || !units) return k - 1;
    return [...units.stops].reverse().find((s) => s < k) ?? 0;
  }

  function shareBar() {
    const link = new URL(replayHash(gameId, seat, step, by), location.href).href;
    const unitSel = h("select", { id: "r-by", onchange: (e) => { by = e.target.value; go(step); } },
      h("option", { value: "action", selected: by === "action" }, t("replay.by.action")),
      units && units.unit !== "action"
        ? h("option", { value: units.unit, selected: by === units.unit }, t(`replay.by.${units.unit}`)) : null);
    const copy = async () => {
      try { await navigator.clipboard.writeText(link); note = t("replay.copied"); } catch { note = link; }
      draw();
    };
    return h("div", { class: "replay-bar" },
      h("label", { for: "r-by" }, t("replay.by"), " "), unitSel,
      h("a", { href: link, class: "button small", "data-share": link, onclick: (e) => { e.preventDefault(); copy(); } },
        t("replay.share")),
      h("button", { type: "button", class: "small", "data-download": "json",
        onclick: () => download(gameId, full).catch((x) => { err.textContent = x.message; }) }, t("replay.download")),
      note ? h("span", { class: "muted", "data-share-note": "1" }, note) : null);
  }

  function ctxFor(d) {
    return { view: d.view, legal: [], busy: true, mySeat: d.seat, spectator: d.seat === null,
      name: (gs) => d.seats[gs] ?? String(gs), seatInfo: () => null, toAct: d.to_act || [],
      timerSeat: null, clock: () => null, act: null, live: false, showSummary: () => {} };
  }

  function seatChoice(d) {
    const pick = (e) => {
      const v = e.target.value;
      seat = v === "" ? null : v === "open" ? "open" : Number(v);
      go(step);
    };
    return h("select", { id: "r-seat", "data-copy": d.copy === "full" ? "full" : "table", onchange: pick },
      h("option", { value: "", selected: seat === null }, t("replay.spectator")),
      h("option", { value: "open", selected: seat === "open" }, t("replay.open")),
      d.seats.map((name, i) => h("option", { value: i, selected: seat === i }, name)));
  }

  function draw() {
    const d = data;
    const mod = GAMES[d.game];
    const c = ctxFor(d);
    title.textContent = `${t("replay.title")}: ${t(`game.${d.game}`)}`;
    const slider = h("input", { type: "range", min: 0, max: d.steps, value: d.step, "aria-label": t("replay.step", { k: d.step, n: d.steps }),
      oninput: (e) => go(Number(e.target.value)) });
    const btn = (label, k, extra = {}) => h("button", { type: "button", onclick: () => { stop(); go(k); }, ...extra }, label);
    const who = d.action ? (d.action.seat === null ? t("replay.chance") : d.seats[d.action.seat]) : null;
    const lines = d.events.map((ev) => mod.describe(ev, c)).filter((x) => x);
    const what = d.action
      ? (lines.length ? timeoutLines(lines, d.action, who) : [`${who}: ${d.action.action.type}`])
      : [t("replay.start")];
    const board = h("div", { class: "board" }, mod.board(c));
    markSeat(board, seat);
    const left = seat === "open" && hands ? handsInPlace(board, hands, (x) => handCard(d.game, x)) : [];
    fill(body,
      h("div", { class: "replay-bar" },
        h("label", { for: "r-seat" }, t("replay.seat"), " "), seatChoice(d),
        btn(t("replay.first"), 0), btn(t("replay.prev"), prevStop(step), { "data-step": "prev" }),
        h("button", { type: "button", "data-step": "play", onclick: togglePlay }, playing ? t("replay.pause") : t("replay.play")),
        btn(t("replay.next"), nextStop(step), { "data-step": "next" }), btn(t("replay.last"), d.steps, { "data-step": "last" }),
        h("span", { class: "step", "data-step-label": "1" }, t("replay.step", { k: d.step, n: d.steps })),
        " ", verifyLink(gameId)),
      shareBar(),
      slider,
      d.copy === "full" ? null : h("p", { class: "muted", "data-table-copy": "1" }, t("replay.table_copy")),
      h("ul", { class: "replay-events", "aria-live": "polite" }, what.map((x) => h("li", {}, x))),
      seatNote(seat, d),
      seat === "open" && hands?.copy !== "full" ? h("p", { class: "muted" }, t("replay.open_public")) : null,
      board,
      left.length ? handsPanel(d, { ...hands, hands: left }) : null,
      d.outcome ? h("div", { class: "summary", "data-summary": "1" }, mod.summary(d.outcome, c)) : null);
  }

  function togglePlay() {
    if (playing) { stop(); draw(); return; }
    playing = setInterval(() => {
      if (!data || step >= data.steps) { stop(); if (data) draw(); return; }
      go(nextStop(step));
    }, 700);
    draw();
  }

  fill(root, h("section", { class: "replay" }, title, err, body));
  api(`/api/games/${encodeURIComponent(gameId)}/steps`)
    .then((u) => { units = u; if (by !== "action" && by !== u.unit) by = "action"; if (data) draw(); })
    .catch(() => { units = null; });
  // only a player of the game asks for the full copy (anyone else's full=1 is a 403 the
  // browser logs); a player's own game opens from their seat (a link that names the
  // perspective keeps it)
  mySeatIn(gameId).then((s) => {
    full = s !== null;
    if (full && seat === null && !seatInUrl()) seat = s;
    go(step);
  });
  const off = onLang(() => { if (data) draw(); });
  return () => { stop(); off(); };
}
