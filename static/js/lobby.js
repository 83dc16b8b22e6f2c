// Lobby: guest name, live tables (a page at a time, polled with its ETag), create a table, sit,
// watch, quick seat, find a game (seek.js). The games, their seat ranges, stacks and config
// fields come from the catalog (js/catalog.js); which config fields the create form offers,
// from each game's view module (`lobbyFields`).

import { h, clear, fill } from "./util.js";
import { t, onLang } from "./i18n.js";
import { api, apiPage, me, register } from "./api.js";
import { chipBalance } from "./chips_ui.js";
import { catalogGames, gameInfo, ruleGames, turnTimeout } from "./catalog.js";
import { GAMES } from "./games/index.js";
import { yourTables } from "./mytables.js";
import { seekControl } from "./seek.js";
import { inviteCode } from "./tablebits.js";

const POLL_MS = 2000;
const MINE_POLL_MS = 5000; // "Your tables" (mytables.js) is asked again this often
const PAGE_ROWS = 20; // tables per page of GET /api/tables; "More tables" asks for the next

export function nameForm(root, onDone) {
  const input = h("input", { id: "name", name: "name", required: true, maxlength: 32, autocomplete: "nickname",
    value: me()?.name || "" });
  const err = h("p", { class: "error-line", role: "alert" });
  const form = h("form", { class: "card-panel name-form", onsubmit: async (e) => {
    e.preventDefault();
    try { await register(input.value.trim()); onDone(); } catch (x) { err.textContent = x.message; }
  } },
  h("p", {}, t("lobby.name_hint")),
  h("label", { for: "name" }, t("lobby.name")), input,
  h("button", { type: "submit", class: "primary" }, t("lobby.enter")), err);
  fill(root, form);
  input.focus();
}

export function lobbyScreen(root) {
  if (!me()) { nameForm(root, () => { window.dispatchEvent(new Event("hashchange")); }); return () => {}; }
  let stopped = false;
  let timer = null;
  const list = h("div", { class: "tables", "aria-live": "polite" });
  const err = h("p", { class: "error-line", role: "alert" });

  const paged = tablePages(() => !stopped, (pages, more) => drawTables(list, pages, more),
    (x) => { err.textContent = x.message; });
  const { refresh } = paged;
  function poll() { refresh().finally(() => { if (!stopped) timer = setTimeout(poll, POLL_MS); }); }

  // built inside draw(): a language switch redraws every label
  const quick = () => h("div", { class: "row quick" }, h("span", {}, t("lobby.quick"), ": "),
    catalogGames().map(({ name: g }) => h("button", { type: "button", "data-quick": g, onclick: async () => {
      try {
        const r = await api("/api/tables/quick-seat", { method: "POST", body: { game: g } });
        if (r.invite_code) inviteCode(r.table_id, r.invite_code); // it completed a seek (seek.js)
        location.hash = `#/table/${r.table_id}/${r.seat}`;
      } catch (x) { err.textContent = x.message; }
    } }, t(`game.${g}`))));

  // "Find a game" (seek.js): matched with players of close rating; kept across redraws
  const seeker = seekControl((x) => { err.textContent = x.message; });

  // "Your tables" (mytables.js): the way back to every table where this player holds a seat
  let mine = null;
  const yours = () => { mine?.stop(); mine = yourTables({ pollMs: MINE_POLL_MS }); return mine; };

  const draw = () => fill(root,
    h("section", { class: "lobby" },
      h("h1", {}, t("lobby.title")),
      h("p", { class: "row balance" }, chipBalance()),
      yours(),
      quick(),
      seeker.view(),
      h("div", { class: "row rules-links" }, h("span", {}, t("lobby.rules"), ": "),
        ruleGames().map((g) => h("a", { href: `#/rules/${g}`, class: "button small", "data-rules-link": g },
          t(`game.${g}`)))),
      err,
      h("div", { class: "section-head" }, h("h2", {}, t("lobby.tables")),
        h("button", { type: "button", onclick: refresh }, t("lobby.refresh"))),
      list,
      h("h2", {}, t("lobby.create")),
      createForm(err)));
  draw();
  poll();
  const offLang = onLang(() => {
    // keep what was typed or chosen in the create form across the redraw
    const kept = [...root.querySelectorAll(".create-form [id]")].filter((e) => "value" in e)
      .map((e) => [e.id, e.value]);
    draw();
    for (const [id, value] of kept) {
      const e = document.getElementById(id);
      if (!e || e.value === value) continue;
      e.value = value;
      e.dispatchEvent(new Event("change"));
    }
    paged.redraw();
  });
  return () => { stopped = true; clearTimeout(timer); mine?.stop(); seeker.stop(); offLang(); };
}

/**
 * The lobby's pages of GET /api/tables: each its cursor (null: the first), ETag, rows and the
 * next page's cursor. `refresh()` asks for each page again with its ETag (an unchanged page is
 * a 304 without a body) and calls `draw(pages, more)` when one changed; `more()` adds the next
 * page; `redraw()` draws again what it has (a language switch).
 */
function tablePages(live, draw, fail) {
  let pages = [{ cursor: null, etag: null, rows: [], next: null }];
  let drawn = false;
  const redraw = () => { if (drawn) draw(pages, more); };
  async function refresh() {
    try {
      let changed = !drawn;
      for (let i = 0; i < pages.length; i++) {
        const pg = pages[i];
        if (i > 0 && pg.cursor !== pages[i - 1].next) { // the page before now ends elsewhere
          if (!pages[i - 1].next) { pages = pages.slice(0, i); changed = true; break; }
          Object.assign(pg, { cursor: pages[i - 1].next, etag: null });
        }
        const q = new URLSearchParams({ limit: String(PAGE_ROWS) });
        if (pg.cursor) q.set("cursor", pg.cursor);
        const got = await apiPage(`/api/tables?${q}`, pg.etag);
        if (got) { Object.assign(pg, { rows: got.data, etag: got.etag, next: got.next }); changed = true; }
      }
      if (changed && live()) { drawn = true; draw(pages, more); }
    } catch (x) { fail(x); }
  }
  async function more() {
    const last = pages[pages.length - 1];
    if (!last.next) return;
    pages.push({ cursor: last.next, etag: null, rows: [], next: null });
    await refresh();
  }
  return { refresh, more, redraw };
}

function drawTables(list, pages, more) {
  clear(list);
  const seen = new Set(); // a table that moved from one page to the next is shown once
  const tables = pages.flatMap((pg) => pg.rows).filter((tb) => !seen.has(tb.id) && seen.add(tb.id));
  if (!tables.length) { list.append(h("p", { class: "muted" }, t("lobby.none"))); return; }
  const mine = me()?.id;
  list.append(h("ul", { class: "table-list" }, tables.map((tb) => {
    // a lobby row lists the taken seats (`players`); every other seat is free
    const taken = new Map(tb.players.map((s) => [s.seat, s]));
    const seats = Array.from({ length: tb.num_seats }, (_, i) => taken.get(i) || { seat: i, name: null });
    const seated = tb.players.some((s) => s.player_id === mine);
    return h("li", { class: "table-row", "data-table": tb.id },
      h("div", { class: "tr-head" },
        h("strong", {}, t(`game.${tb.game}`)),
        h("span", { class: "pill" }, t(`status.${tb.status}`)),
        h("span", { class: "muted" }, `${tb.seats_taken}/${tb.num_seats}`),
        tb.tournament ? h("span", { class: "pill", "data-tournament": tb.tournament.tournament_id },
          t("lobby.tournament", tb.tournament)) : null,
        seated ? h("a", { href: `#/table/${tb.id}`, class: "button primary" }, t("lobby.back"))
          : tb.watchable === false ? null  // a duplicate tournament's table with people entrants
            : h("a", { href: `#/watch/${tb.id}`, class: "button", "data-watch": tb.id }, t("lobby.watch"))),
      h("ul", { class: "seat-list" }, seats.map((s) => h("li", {},
        `${t("lobby.seat_n", { n: s.seat + 1 })}: `,
        s.name ? `${s.name}${s.bot ? ` (${s.bot_level ? t(`lobby.bot_${s.bot_level}`) : t("table.bot")})` : ""}`
          : (seated ? t("lobby.free") : h("a", { href: `#/table/${tb.id}/${s.seat}`, class: "button small",
            "data-join": `${tb.id}:${s.seat}` }, t("lobby.join")))))));
  })));
  if (pages[pages.length - 1].next) {
    list.append(h("button", { type: "button", class: "more", "data-more": "", onclick: more }, t("lobby.more")));
  }
}

function createForm(err) {
  const game = h("select", { id: "c-game", name: "game" },
    catalogGames().map(({ name: g }) => h("option", { value: g }, t(`game.${g}`))));
  const seats = h("select", { id: "c-seats", name: "seats" });
  const seatRoles = h("div", { class: "seat-roles" });
  const options = h("div", { class: "options" });
  // empty: the server's default turn time (the one quick seat and every table without a choice
  // use), named in the box: 10 s, the product's rule (GET /api/catalog)
  const clock = turnTimeout();
  const timeout = h("input", { id: "c-timeout", type: "number", min: 1, max: clock?.max ?? 600, step: 1,
    placeholder: clock ? t("lobby.timeout_default_n", { n: clock.default }) : t("lobby.timeout_default") });

  const field = (id, label, input) => h("div", { class: "field" }, h("label", { for: id }, label), input);
  const select = (id, values, labels, def) => h("select", { id },
    values.map((v, i) => h("option", { value: v, selected: v === def }, labels ? labels[i] : String(v))));

  function drawSeats() {
    if (!gameInfo(game.value)) return;  // no catalog: nothing to offer
    const { min: lo, max: hi } = gameInfo(game.value).seats;
    const keep = Number(seats.value) || 3;
    fill(seats, ...Array.from({ length: hi - lo + 1 }, (_, i) => lo + i)
      .map((n) => h("option", { value: n, selected: n === Math.min(hi, Math.max(lo, keep)) }, String(n))));
    drawRoles();
  }
  function drawRoles() {
    const n = Number(seats.value);
    fill(seatRoles, ...Array.from({ length: n }, (_, i) => field(`c-seat-${i}`, t("lobby.seat_n", { n: i + 1 }),
      i === 0 ? h("span", { id: `c-seat-${i}`, class: "muted" }, t("lobby.you"))
        : select(`c-seat-${i}`, ["human", "random", "rule"], [t("lobby.human"), t("lobby.bot_random"), t("lobby.bot_rule")], "rule"))));
  }
  function drawOptions() {
    clear(options);
    const info = gameInfo(game.value);
    if (!info) return;
    if (info.stacks) {
      const { default: value, min, max } = info.stacks;
      options.append(field("c-stack", t("lobby.stack"), h("input", { id: "c-stack", type: "number", value, min, max, step: 1 })));
    }
    for (const shown of shownFields(info)) options.append(field(configId(shown.field), configLabel(shown), configInput(shown)));
  }
  game.addEventListener("change", () => { drawSeats(); drawOptions(); });
  seats.addEventListener("change", drawRoles);
  drawSeats();
  drawOptions();

  const val = (id) => document.getElementById(id)?.value;
  async function submit(e) {
    e.preventDefault();
    const g = game.value;
    const n = Number(seats.value);
    const bots = [];
    for (let i = 1; i < n; i++) { const k = val(`c-seat-${i}`); if (k !== "human") bots.push({ seat: i, kind: k }); }
    const body = { game: g, seats: n, bots, config: {} };
    if (Number(timeout.value) > 0) body.turn_timeout_seconds = Number(timeout.value);
    if (document.getElementById("c-private")?.checked) body.private = true;
    if (document.getElementById("c-casual")?.checked) body.rated = false;
    const info = gameInfo(g);
    if (info.stacks) body.starting_stack = Number(val("c-stack"));
    for (const shown of shownFields(info)) {
      const value = configValue(shown);
      if (value !== undefined) body.config[shown.field.name] = value;
    }
    try {
      const tb = await api("/api/tables", { method: "POST", body });
      location.hash = tb.invite_code ? `#/invite/${tb.id}/${tb.invite_code}` : `#/table/${tb.id}/0`;
    } catch (x) { err.textContent = `${x.code}: ${x.message}`; }
  }

  return h("form", { class: "card-panel create-form", onsubmit: submit },
    field("c-game", t("lobby.game"), game), field("c-seats", t("lobby.seats"), seats),
    seatRoles, options, field("c-timeout", t("lobby.timeout"), timeout),
    h("div", { class: "field check" }, h("input", { type: "checkbox", id: "c-private" }),
      h("label", { for: "c-private" }, t("lobby.private"))),
    h("div", { class: "field check" }, h("input", { type: "checkbox", id: "c-casual" }),
      h("label", { for: "c-casual" }, t("lobby.casual"))),
    h("button", { type: "submit", class: "primary", id: "c-create" }, t("lobby.create_btn")));
}

// -- config fields: the game's view module names them (`lobbyFields`: [{name, label, choices,
// labels}]), the catalog gives each its kind, default and bounds --

function shownFields(info) {
  const byName = new Map(info.config.map((f) => [f.name, f]));
  return (GAMES[info.name]?.lobbyFields || []).filter((s) => byName.has(s.name))
    .map((s) => ({ ...s, field: byName.get(s.name) }));
}

const configId = (f) => `c-cfg-${f.name}`;

function configLabel(shown) {
  return shown.label ? t(shown.label) : shown.field.name.replaceAll("_", " ");
}

function configInput(shown) {
  const f = shown.field;
  const id = configId(f);
  const choices = shown.choices || f.choices;
  if (choices) {
    const label = (v) => (shown.labels?.[v] ? t(shown.labels[v]) : String(v));
    return h("select", { id }, choices.map((v) => h("option", { value: String(v), selected: v === f.default }, label(v))));
  }
  if (f.kind === "bool") return h("input", { id, type: "checkbox", checked: f.default === true });
  return h("input", { id, type: "number", step: f.kind === "int" ? 1 : "any", min: f.bound?.lo ?? null,
    max: f.bound?.hi ?? null, value: f.default ?? "", placeholder: f.default === null ? t("lobby.rule_default") : null });
}

/** The value the form holds for a shown field (undefined: left to the game's default). */
function configValue(shown) {
  const f = shown.field;
  const e = document.getElementById(configId(f));
  if (!e) return undefined;
  if (f.kind === "bool") return e.checked;
  if (e.value === "") return undefined;
  return f.kind === "int" || f.kind === "number" ? Number(e.value) : e.value;
}
