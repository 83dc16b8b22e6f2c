// The live table screen shared by the three games: connection, state, countdown, event log,
// summaries. The game module (static/js/games/<game>.js) draws the board and the controls.

import { h, clear, fill } from "./util.js";
import { t, onLang } from "./i18n.js";
import { TableConn } from "./conn.js";
import { forget } from "./api.js";
import { GAMES } from "./games/index.js";

const LOG_MAX = 200;

export function tableScreen(root, tableId, { seat = null, spectate = false } = {}) {
  const join = { table_id: tableId };
  if (spectate) join.spectate = true;
  else if (seat !== null) join.seat = seat;

  let state = null;
  let seatMap = [];
  let busy = false;
  let deadlineAt = null;
  let lastError = null;
  const log = [];
  let summaryNode = null;

  const el = {
    head: h("div", { class: "table-head" }),
    status: h("div", { class: "conn-status", role: "status", "aria-live": "polite" }),
    turn: h("div", { class: "turn-banner", "aria-live": "polite" }),
    board: h("div", { class: "board" }),
    controls: h("div", { class: "controls", "aria-label": "actions" }),
    error: h("div", { class: "error-line", role: "alert" }),
    summary: h("div", { class: "summary-slot" }),
    log: h("ol", { class: "log-list" }),
  };
  const screen = h("section", { class: "table-screen", "data-table": tableId },
    el.head, el.status, el.turn,
    h("div", { class: "table-grid" },
      h("div", { class: "table-main" }, el.board),
      h("aside", { class: "table-side" }, el.error, el.controls, el.summary,
        h("details", { class: "log", open: true }, h("summary", {}, t("table.log")), el.log))));
  fill(root, screen);

  const mod = () => GAMES[state?.game];
  const gameSeatOf = (ts) => (ts === null || ts === undefined ? null : seatMap.indexOf(ts));
  const nameOf = (gs) => {
    const ts = seatMap[gs];
    const s = state?.seats?.[ts ?? gs];
    return s?.name || t("lobby.seat_n", { n: (ts ?? gs) + 1 });
  };

  function ctx() {
    const s = state;
    const timerGs = gameSeatOf(s?.timer_seat);
    return {
      view: s?.view, legal: s?.status === "playing" ? s.legal_actions || [] : [], busy,
      mySeat: s?.game_seat ?? null, spectator: s?.seat === null, name: nameOf,
      seatInfo: (gs) => s?.seats?.[seatMap[gs]], numSeats: seatMap.length,
      toAct: (s?.to_act || []).map(gameSeatOf).filter((x) => x !== null && x >= 0),
      timerSeat: timerGs !== null && timerGs >= 0 ? timerGs : null, clock: clockEl,
      act: s?.status === "playing" && s.seat !== null ? act : null, live: true,
      showSummary,
    };
  }

  function clockEl(gs) {
    const c = ctx();
    if (c.timerSeat !== gs || deadlineAt === null) return null;
    return h("span", { class: "clock", "data-clock": "1" }, fmtLeft());
  }

  function fmtLeft() {
    const ms = Math.max(0, deadlineAt - performance.now());
    return `${Math.ceil(ms / 1000)}s`;
  }

  function act(action) {
    if (!state || busy) return;
    lastError = null;
    if (conn.act(tableId, state.version, action)) { busy = true; render(); }
  }

  function showSummary(node) {
    summaryNode = node ? h("div", { class: "summary", role: "dialog", "aria-label": t("table.summary"),
      "data-summary": "1" }, h("button", { type: "button", class: "close", "aria-label": t("table.close"),
      onclick: () => { summaryNode = null; render(); } }, "×"), node) : null;
    render();
  }

  function addLog(text, cls = "") {
    if (!text) return;
    log.push({ text, cls });
    if (log.length > LOG_MAX) log.shift();
    el.log.append(h("li", { class: cls }, text));
    while (el.log.children.length > LOG_MAX) el.log.firstChild.remove();
    el.log.scrollTop = el.log.scrollHeight;
  }

  let pending = [];

  function onEvents(msg) {
    if (!state) { pending.push(msg); return; }  // the game module is known from the first state
    let prefixed = false;
    for (const ev of msg.events) {
      if (ev.kind === "game_started") {
        seatMap = ev.seat_map;
        const dealer = state?.seats?.[ev.dealer]?.name;
        addLog(dealer ? t("ev.game_started", { n: ev.hand, name: dealer }) : t("ev.hand_begins", { n: ev.hand }), "sep");
        continue;
      }
      const m = mod();
      const c = ctx();
      let text = m ? m.describe(ev, c) : null;
      if (text === undefined) text = t("ev.unknown", { name: ev.seat !== undefined ? nameOf(ev.seat) : "", kind: ev.kind });
      const timeout = msg.timeout && !prefixed && text;
      if (timeout) { text = t("ev.timeout", { text }); prefixed = true; }
      addLog(text, timeout ? "timeout" : "");
      const node = m?.eventSummary?.(ev, c);
      if (node) showSummary(node);
    }
  }

  function onMessage(msg) {
    switch (msg.type) {
      case "state":
        state = msg;
        seatMap = msg.seat_map?.length ? msg.seat_map : msg.seats.map((s) => s.seat);
        busy = false;
        deadlineAt = msg.deadline_ms === null || msg.deadline_ms === undefined ? null
          : performance.now() + msg.deadline_ms;
        if (pending.length) { const early = pending; pending = []; early.forEach(onEvents); }
        render();
        break;
      case "events": onEvents(msg); break;
      case "game_over": {
        const m = mod();
        const node = m?.summary?.(msg.outcome, { ...ctx(), view: state?.view });
        if (node) showSummary(node);
        break;
      }
      case "error":
        busy = false;
        lastError = `${msg.code}: ${msg.message}`;
        if (msg.code === "table.stale_version") conn.resync(tableId);
        if (msg.code === "table.not_found") lastError = t("table.not_found");
        if (msg.code === "auth.invalid_token") {  // e.g. the server forgot its guests: sign in again
          conn.close(); forget(); window.dispatchEvent(new Event("hashchange")); return;
        }
        render();
        break;
      case "table_closed":
        lastError = t("table.closed");
        conn.close();
        render();
        break;
      default: break;
    }
  }

  let connects = 0;
  function onStatus(s) {
    if (s === "online") screen.dataset.connects = String(++connects);
    el.status.textContent = s === "offline" ? t("table.reconnecting") : "";
    el.status.classList.toggle("offline", s === "offline");
  }

  function renderHead() {
    const m = mod();
    const s = state;
    fill(el.head, 
      h("h1", {}, m ? t(`game.${s.game}`) : tableId),
      s ? h("span", { class: "pill" }, t(`status.${s.status}`)) : null,
      s?.hand ? h("span", { class: "pill" }, t("table.hand", { n: s.hand })) : null,
      s?.seat === null ? h("span", { class: "pill watch" }, t("table.spectating")) : null,
      h("a", { class: "leave", href: "#/", onclick: (e) => { e.preventDefault(); conn.close(true); location.hash = "#/"; } },
        t("table.leave")),
    );
  }

  function renderTurn() {
    const s = state;
    clear(el.turn);
    el.turn.classList.remove("mine", "own");
    if (!s) return;
    if (s.status === "waiting") {
      const taken = s.seats.filter((x) => x.player_id || x.bot).length;
      el.turn.append(t("table.waiting", { taken, n: s.seats.length }));
      return;
    }
    if (s.status === "finished") { el.turn.append(t("table.finished")); return; }
    const c = ctx();
    const mine = c.mySeat !== null && c.toAct.includes(c.mySeat) && c.legal.length > 0;
    const who = c.timerSeat;
    el.turn.classList.toggle("mine", mine);
    el.turn.classList.toggle("own", mine && (who === null || who === c.mySeat));  // not out of turn
    if (mine && (who === null || who === c.mySeat)) el.turn.append(h("strong", {}, t("table.your_turn")));
    else if (who !== null) el.turn.append(t("table.turn_of", { name: nameOf(who) }));
    if (mine && who !== null && who !== c.mySeat) el.turn.append(" — ", h("strong", {}, t("table.out_of_turn")));
    if (deadlineAt !== null) el.turn.append(" ", h("span", { class: "clock big", "data-clock": "1" }, fmtLeft()));
  }

  // Keyboard play: a re-render keeps focus on the same card or button (or the first control).
  function focusKey(a) {
    if (!a || !screen.contains(a) || a === document.body) return null;
    return a.dataset?.card ? `card:${a.dataset.card}` : `act:${a.dataset?.act || ""}:${a.textContent}`;
  }
  function restoreFocus(key) {
    if (!key) return;
    for (const e of screen.querySelectorAll("[data-card], [data-act]")) {
      if (focusKey(e) === key && !e.disabled && e.tabIndex >= 0) { e.focus(); return; }
    }
    const first = screen.querySelector("button[data-act]:not([disabled])");
    if (first) first.focus();
  }

  function render() {
    const key = focusKey(document.activeElement);
    draw();
    restoreFocus(key);
  }

  function draw() {
    renderHead();
    renderTurn();
    el.error.textContent = lastError || "";
    const m = mod();
    clear(el.board);
    clear(el.controls);
    if (state?.view && m) {
      const c = ctx();
      el.board.append(m.board(c));
      const controls = c.legal.length && c.mySeat !== null ? m.controls(c) : null;
      if (controls) el.controls.append(controls);
    }
    clear(el.summary);
    if (summaryNode) el.summary.append(summaryNode);
  }

  const conn = new TableConn(join, onMessage, onStatus);
  const tick = setInterval(() => {
    if (deadlineAt === null) return;
    for (const c of screen.querySelectorAll("[data-clock]")) c.textContent = fmtLeft();
  }, 250);
  const offLang = onLang(() => render());
  render();

  return () => { clearInterval(tick); offLang(); conn.close(); };
}
