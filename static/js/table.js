// The live table screen shared by the three games: connection, state, countdown, event log,
// summaries. The game module (static/js/games/<game>.js) draws the board and the controls.

import { h, clear, fill } from "./util.js";
import { t, onLang } from "./i18n.js";
import { TableConn } from "./conn.js";
import { forget, api } from "./api.js";
import { GAMES } from "./games/index.js";
import { applyState, isFull, stepOf } from "./state.js";
import { verifyLink } from "./replay.js";
import { term, onRules, rulesDialog } from "./rules.js";
import { chatPanel } from "./chat.js";
import { inviteBox, inviteCode } from "./tablebits.js";
import { me } from "./api.js";
import { Countdown } from "./countdown.js";
import { TableLog } from "./tablelog.js";
import { welcomeBack } from "./handlog.js";
import { TimeoutNotice } from "./notice.js";
import { renderTurn } from "./turnbanner.js";
import { chipsBar, rebuyButton } from "./chips_ui.js";
import { rematchPanel } from "./rematch.js";
import { tableFeel } from "./feel.js";
import { tableKeys } from "./keys.js";

/** How long a hand's result stays in view at least, in milliseconds. */
const SUMMARY_MIN_MS = 8000;

export function tableScreen(root, tableId, { seat = null, spectate = false, invite = null, buyIn = null } = {}) {
  const join = { table_id: tableId };
  if (buyIn !== null) join.buy_in = buyIn;  // poker: chosen before sitting down (chips_ui.js)
  const code = invite ? inviteCode(tableId, invite) : inviteCode(tableId);
  if (code) join.invite_code = code;
  if (spectate) join.spectate = true;
  else if (seat !== null) join.seat = seat;

  let state = null;
  let seatMap = [];
  let busy = false;
  const countdown = new Countdown();
  let lastError = null;
  let offerWatch = false;  // a join found every seat taken: watching is offered instead
  let paused = false;  // the server restarts: the seat is kept, nothing can be played meanwhile
  let summaryBuild = null;
  let summaryShownAt = 0;

  const el = {
    head: h("div", { class: "table-head" }),
    status: h("div", { class: "conn-status", role: "status", "aria-live": "polite" }),
    turn: h("div", { class: "turn-banner", "aria-live": "polite" }),
    board: h("div", { class: "board" }),
    controls: h("div", { class: "controls", role: "group", "aria-label": "actions" }),
    error: h("div", { class: "error-line", role: "alert" }),
    summary: h("div", { class: "summary-slot" }),
    log: h("ol", { class: "log-list", tabindex: "0", "aria-label": t("table.log") }),  // a scrolling region: reachable by keyboard (axe)
    logTitle: h("summary", {}, t("table.log")),
  };
  const log = new TableLog(el.log, `cardhall.log.${tableId}.${spectate ? "watch" : "seat"}`, (e) => logText(e));
  const notice = new TimeoutNotice();  // the clock ran out: said over the table (notice.js)
  const rematch = rematchPanel(tableId, (msg) => conn.send(msg));
  const chat = chatPanel(tableId, (text) => conn.send({ type: "chat", table_id: tableId, text }), me()?.id);
  el.invite = h("div", { class: "invite-slot" });
  const chips = chipsBar(tableId, (msg) => conn.send(msg));
  const screen = h("section", { class: "table-screen", "data-table": tableId },
    el.head, el.status, el.turn, notice.el, el.invite,
    h("div", { class: "table-grid" },
      h("div", { class: "table-main" }, el.board),
      h("aside", { class: "table-side" }, el.error, el.controls, chips.el, el.summary,
        h("details", { class: "log", open: true }, el.logTitle, el.log), chat.el)));
  fill(root, screen);
  const feel = tableFeel(countdown);  // sounds, live-region lines, animations (feel.js)
  const keys = tableKeys(screen);  // keyboard play, shortcut help, confirm before playing (keys.js)

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
      view: s?.view, legal: s?.status === "playing" && !paused ? s.legal_actions || [] : [], busy,
      mySeat: s?.game_seat ?? null, spectator: s?.seat === null, name: nameOf,
      seatInfo: (gs) => s?.seats?.[seatMap[gs]], numSeats: seatMap.length,
      toAct: (s?.to_act || []).map(gameSeatOf).filter((x) => x !== null && x >= 0),
      timerSeat: timerGs !== null && timerGs >= 0 ? timerGs : null, clock: clockEl,
      act: s?.status === "playing" && s.seat !== null && !paused ? act : null, live: true,
      showSummary, term: (id, text) => (s ? term(s.game, id, text) : text),
      redrawIn,
    };
  }

  // A game module asks to be drawn again in `ms` (Blot: a finished trick is gathered then).
  let redrawTimer = null;
  function redrawIn(ms) {
    clearTimeout(redrawTimer);
    redrawTimer = setTimeout(() => { if (screen.isConnected) render(); }, ms);
  }

  function clockEl(gs) {
    const c = ctx();
    return c.timerSeat === gs && countdown.running ? countdown.clock() : null;
  }

  function act(action) {
    if (!state || busy) return;
    lastError = null;
    if (conn.act(tableId, state.version, action)) { busy = true; render(); }
  }

  // The summary is kept as a builder (not a node) so a language switch redraws it.
  function showSummary(build) {
    summaryBuild = build || null;
    summaryShownAt = Date.now();
    render();
  }
  // A result stays at least SUMMARY_MIN_MS in view, into the next hand if the table's pause
  // between hands is shorter (second trial: a showdown's sums were gone after 2.5 s); the
  // player may close it at once (its ×).
  function closeSummaryForNextHand() {
    const left = SUMMARY_MIN_MS - (Date.now() - summaryShownAt);
    if (left <= 0 || !summaryBuild) { summaryBuild = null; return; }
    const build = summaryBuild;
    setTimeout(() => { if (summaryBuild === build) { summaryBuild = null; render(); } }, left);
  }
  // The game-over summary ends with a link to the server's check of the game's deals
  // (GET /api/games/{id}/verify, docs/fairness.md).
  function withVerify(node, gameId) {
    if (!node || !gameId) return node;
    return h("div", {}, node, h("p", { class: "verify" }, verifyLink(gameId)));
  }
  function summaryEl() {
    const node = summaryBuild?.();
    return node ? h("div", { class: "summary", role: "dialog", "aria-label": t("table.summary"),
      "data-summary": "1" }, h("button", { type: "button", class: "close", "aria-label": t("table.close"),
      onclick: () => { summaryBuild = null; render(); } }, "×"), node) : null;
  }

  let pending = [];
  let first = true;
  let resyncing = false;  // a resync was sent for a missed delta and no full state came yet

  // `next`: the state the frame leads to; its game_seat names "you" in the events of the frame
  // that seats you (the first deal's own cards arrive while the held state has no game seat).
  // `replay`: a step of a `hand_log` (the log rebuilt on resume): logged only, no summary
  // opens and no module draws from it.
  function onEvents(msg, next = null, replay = false) {
    if (!state) { pending.push(msg); return; }  // the game module is known from the first state
    let prefixed = false;
    let prevKind = null;
    for (const ev of mod()?.orderEvents?.(msg.events) ?? msg.events) {
      if (ev.kind === "game_started") {
        seatMap = ev.seat_map;
        log.startHand(ev.hand);
        prevKind = ev.kind;
        if (!replay) closeSummaryForNextHand();  // the last hand's summary closes (after its minimum)
        log.add({ ev, game: state?.game, dealer: state?.seats?.[ev.dealer]?.name }, "sep");
        continue;
      }
      if (ev.kind === "rebuy") {  // poker, a table event: a stack grew between hands
        log.add({ key: ev.house ? "chips.house_log" : "chips.rebuy_log",
          params: { name: state?.seats?.[ev.seat]?.name || String(ev.seat + 1), n: ev.chips, stack: ev.stack } }, "rebuy");
        continue;
      }
      const m = mod();
      const c = ctx();
      if (c.mySeat === null && next?.game_seat !== null && next?.game_seat !== undefined) c.mySeat = next.game_seat;
      c.prevKind = prevKind;
      c.started = msg.events.some((e) => e.kind === "game_started");
      prevKind = ev.kind;
      // the log keeps the event and what its words need, so a language switch redraws it
      const entry = { ev, game: state?.game, me: c.mySeat, started: c.started, prev: c.prevKind,
        names: seatMap.map((ts) => state?.seats?.[ts]?.name || null) };
      const move = logText(entry);
      const timeout = msg.timeout && !prefixed && move;
      if (timeout) { entry.timeout = true; prefixed = true; }
      log.add(entry, timeout ? "timeout" : "");
      if (replay) continue;
      if (timeout) notice.show(move, msg.seat !== null && msg.seat === state?.seat, state?.seats?.[msg.seat]?.name || "");
      feel.onEvent(ev, move, state?.view?.pot !== undefined);
      m?.onEvent?.(ev, c);  // a module that draws from the event stream (Blot's held trick)
      if (m?.eventSummary?.(ev, c)) showSummary(() => m.eventSummary(ev, ctx()));
    }
  }

  // The words of a logged event (tablelog.js) in the current language.
  function logText(e) {
    const { ev } = e;
    if (ev.kind === "game_started") {  // a game module may name its game (Blot: a match), else "Hand n"
      return GAMES[e.game]?.startedText?.(ev.hand, e.dealer)
        || (e.dealer ? t("ev.game_started", { n: ev.hand, name: e.dealer }) : t("ev.hand_begins", { n: ev.hand }));
    }
    const m = GAMES[e.game];
    const c = { ...ctx(), mySeat: e.me, started: e.started, prevKind: e.prev, name: (gs) => e.names?.[gs] || nameOf(gs) };
    let text = m ? m.describe(ev, c) : null;
    if (text === undefined) text = t("ev.unknown", { name: ev.seat !== undefined ? c.name(ev.seat) : "", kind: ev.kind });
    return text && e.timeout ? t("ev.timeout", { text }) : text;
  }

  // A state frame: its step's events are logged against the state held before it (protocol 1
  // sent them as an `events` message ahead of the state), then the state is merged and drawn.
  // A delta that does not fit the state held (a missed frame) asks for a full state instead.
  function onState(msg) {
    const next = applyState(state, msg);
    if (next === null) {  // one resync per gap: later deltas miss too until the full state comes
      if (!resyncing) { resyncing = true; conn.resync(tableId); }
      return;
    }
    if (isFull(msg)) resyncing = false;
    const step = stepOf(msg);
    if (step && step.events.length) onEvents(step, next);
    state = next;
    seatMap = next.seat_map?.length ? next.seat_map : next.seats.map((s) => s.seat);
    busy = false;
    countdown.set(next.deadline_ms, next.turn_timeout_ms);
    if (first) {
      first = false;
      // joined (or reloaded) during a hand whose start this log does not hold
      if (next.status === "playing" && next.hand && log.hand !== next.hand
          && !pending.some((p) => p.events.some((e) => e.kind === "game_started"))) {
        log.startHand(next.hand);
        log.add({ key: "table.joined_mid_hand" }, "note");
        log.save();
      }
    }
    if (pending.length) { const early = pending; pending = []; early.forEach(onEvents); }
    render();
  }

  // Back at the seat mid-game: the server's log of the game replaces this hand's lines, and
  // after a stand-in played the seat a "welcome back" summary says what it did (handlog.js).
  function onHandLog(msg) {
    if (!state || msg.table_id !== tableId) return;
    log.rebuild(msg.hand, () => {
      if (msg.truncated) log.add({ key: "table.log_truncated" }, "note", false);
      for (const step of msg.steps) onEvents({ events: step.events, seat: step.actor, timeout: step.timeout }, null, true);
    });
    const back = welcomeBack(msg, { ...ctx(), mySeatTable: state.seat }, mod());
    if (back) { log.add(back.line, "note"); showSummary(back.build); }
    render();
  }

  function onMessage(msg) {
    if (rematch.onMessage(msg)) { render(); return; }  // play again: rematch.js
    switch (msg.type) {
      case "state": onState(msg); break;
      case "events": onEvents(msg); break;  // protocol 1
      case "hand_log": onHandLog(msg); break;
      case "chat": case "chat_removed": chat.onMessage(msg); break;
      case "presence":  // a seat (dis)connected: its badge now, not at the next step
        if (state?.seats?.[msg.seat]) {
          state = { ...state, seats: state.seats.map((x) => (x.seat === msg.seat ? { ...x, connected: msg.connected } : x)) };
          render();
        }
        break;
      case "game_over": {
        const m = mod();
        const view = state?.view;
        if (m?.summary) showSummary(() => withVerify(m.summary(msg.outcome, { ...ctx(), view }), msg.game_id));
        break;
      }
      case "error":
        busy = false;
        lastError = `${msg.code}: ${msg.message}`;
        if (msg.code === "table.stale_version") conn.resync(tableId);
        if (msg.code === "table.not_joined") resyncing = false;
        if (msg.code === "table.no_free_seat" && msg.request?.type === "join") {
          lastError = t("table.full");  // e.g. a third friend on a private table's invite link
          offerWatch = true;
        }
        if (msg.code === "table.not_found") {  // e.g. not restored after a restart: stop trying
          lastError = t("table.not_found");
          if (msg.request?.type === "join") { conn.close(); onStatus("gone"); }
        }
        if (msg.code === "auth.invalid_token") {  // e.g. the server forgot its guests: sign in again
          conn.close(); forget(); window.dispatchEvent(new Event("hashchange")); return;
        }
        render();
        break;
      case "table_closed":
        if (msg.reason === "shutdown") {  // a restart: the table comes back (conn.js resumes)
          busy = false;
          countdown.stop();
          render();
          break;
        }
        lastError = t("table.closed");
        conn.close();
        render();
        // a tournament's table closes once its game is recorded: back to the tournament,
        // which takes the player on to the next table (tournaments.js)
        if (tourLabel) location.hash = `#/tournaments/${encodeURIComponent(tourLabel.tournament_id)}`;
        break;
      default: break;
    }
  }

  let connects = 0;
  let connStatus = "online";
  function onStatus(s) {
    if (s === "online") screen.dataset.connects = String(++connects);
    connStatus = s;
    const wasPaused = paused;
    paused = s === "restarting";
    if (paused) { busy = false; countdown.stop(); }
    drawStatus();
    if (paused !== wasPaused && el.board.isConnected) render();
  }
  function drawStatus() {
    const s = connStatus;
    el.status.textContent = s === "offline" ? t("table.reconnecting")
      : s === "restarting" ? t(spectate ? "table.restarting_watch" : "table.restarting") : "";
    el.status.classList.toggle("offline", s === "offline" || s === "restarting");
    el.status.classList.toggle("restarting", s === "restarting");
    screen.dataset.conn = s;
  }

  // A tournament table says which board of which round it is (the summary's `tournament`
  // label, GET /api/tables/{id}: docs/tournaments.md "A round"), linking to the tournament.
  let tourLabel = null;
  let tourAsked = false;
  function tourLine() {
    if (!tourAsked) {
      tourAsked = true;
      api(`/api/tables/${encodeURIComponent(tableId)}`)
        .then((r) => { if (r?.tournament) { tourLabel = r.tournament; renderHead(); } }).catch(() => {});
    }
    return tourLabel ? h("a", { class: "pill", "data-table-tournament": tourLabel.tournament_id,
      href: `#/tournaments/${encodeURIComponent(tourLabel.tournament_id)}` }, t("lobby.tournament", tourLabel)) : null;
  }

  function renderHead() {
    const m = mod();
    const s = state;
    fill(el.head, 
      h("h1", {}, m ? t(`game.${s.game}`) : tableId),
      tourLine(),
      s ? h("span", { class: "pill" }, t(`status.${s.status}`)) : null,
      handPill(s),
      s?.seat === null ? h("span", { class: "pill watch" }, t("table.spectating")) : null,
      s ? h("button", { type: "button", class: "small rules-btn", "data-open-rules": s.game,
        onclick: () => rulesDialog(s.game) }, t("table.rules")) : null,
      s ? keys.button() : null,
      h("a", { class: "leave", href: "#/", onclick: leaveToLobby }, t("table.leave")),
    );
  }

  function handPill(s) {
    const deal = s?.view?.deal_number;  // Bazaar Blot: one table game, many deals
    if (deal) return h("span", { class: "pill", "data-hand": deal }, t("table.deal", { n: deal }));
    return s?.hand ? h("span", { class: "pill", "data-hand": s.hand }, t("table.hand", { n: s.hand })) : null;
  }

  function leaveToLobby(e) {
    e?.preventDefault?.();
    // mid-game a stand-in plays the seat until you come back or the game ends: ask first
    // (poker: the stand-in finishes the hand only, then the stack is cashed out)
    const ask = state?.max_buy_in !== null && state?.max_buy_in !== undefined ? "table.leave_confirm_poker" : "table.leave_confirm";
    if (state?.status === "playing" && state.seat !== null && !window.confirm(t(ask))) return;
    conn.close(true);
    location.hash = "#/";
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
    renderTurn(el.turn, state, ctx(), { leave: leaveToLobby, myId: me()?.id, countdown,
      takeBack: () => conn.send({ type: "join", table_id: tableId }),
      rebuy: (s) => rebuyButton(s, (msg) => conn.send(msg)) });
    rematch.draw(el.turn, state);
    el.error.textContent = lastError || "";
    if (offerWatch && lastError) {
      el.error.append(" ", h("a", { href: `#/watch/${tableId}`, class: "button small", "data-watch-instead": tableId },
        t("table.watch_instead")));
    }
    const m = mod();
    clear(el.board);
    clear(el.controls);
    if (state?.view && m) {
      const c = ctx();
      el.board.append(m.board(c));
      const controls = c.legal.length && c.mySeat !== null ? m.controls(c) : null;
      if (controls) el.controls.append(controls);
    }
    feel.drawn(el.board, el.turn.classList.contains("own"));
    keys.drawn();
    clear(el.summary);
    const sum = summaryEl();
    if (sum) el.summary.append(sum);
    el.logTitle.textContent = t("table.log");
    chips.redraw(state);
    clear(el.invite);
    // the invite link while a seat is free (a full table has nobody to invite)
    if (code && state && state.status !== "closed" && state.seats.some((x) => !x.player_id && !x.bot)) {
      el.invite.append(inviteBox(tableId, code));
    }
    chat.redraw();
    drawStatus();  // in the current language
  }

  const conn = new TableConn(join, onMessage, onStatus);
  const stopTick = countdown.tick(screen);
  const offLang = onLang(() => { log.rerender(); render(); });
  const offRules = onRules(() => { if (state) render(); });  // the glossary arrived: tooltips
  log.load();
  render();

  return () => {
    stopTick(); offLang(); offRules(); clearTimeout(redrawTimer); notice.stop(); feel.stop(); keys.stop(); conn.close();
  };
}
