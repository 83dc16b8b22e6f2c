// Poker chips in the browser: the player's balance (GET /api/players/me/chips), the buy-in
// choice before sitting down, the rebuy button and the sit-out toggle (docs/protocol.md,
// "Chips"). Every limit comes from the server: min_buy_in/max_buy_in of the table (lobby entry
// and full states), the seat's out_of_chips and sitting_out flags; nothing is guessed here.

import { h, fill } from "./util.js";
import { t, onLang } from "./i18n.js";
import "./i18n_chips.js";
import { api, me } from "./api.js";

/** The caller's balance answer ({balance, enabled, top_up_to, ...}), or null if unreadable. */
export async function myChips() {
  try { return await api("/api/players/me/chips"); } catch { return null; }
}

const BALANCE_POLL_MS = 3000;

/**
 * A pill showing the caller's chip balance: filled in when the server answers, then read
 * again every few seconds while the pill is on the page (a cash-out lands a moment after a
 * leave); hidden while balances are off.
 */
export function chipBalance() {
  const pill = h("span", { class: "pill chips", "data-balance": "" });
  const read = async () => {
    const c = await myChips();
    if (c?.enabled) {
      pill.dataset.balance = String(c.balance);
      pill.textContent = t("chips.balance", { n: c.balance });
    }
    setTimeout(() => { if (pill.isConnected) read(); }, BALANCE_POLL_MS);
  };
  read();
  return pill;
}

/**
 * Before taking seat `seat` (a number; null: resume or any seat) of table `tableId`: at a
 * poker table where the player holds no seat yet and balances are on, ask how many chips to
 * buy in with (min_buy_in..max_buy_in of the table; default max_buy_in, or the balance when
 * less), then call start(buyIn); elsewhere start(null) at once. start returns the table
 * screen's cleanup; the returned function cleans up whichever screen is showing.
 */
export function buyInFirst(root, tableId, seat, start) {
  let inner = null;
  let stopped = false;
  let offLang = () => {};
  const go = (n) => { offLang(); if (!stopped) inner = start(n); };
  (async () => {
    let table = null;
    let chips = null;
    if (seat !== null) {
      try {
        [table, chips] = await Promise.all([api(`/api/tables/${tableId}`), myChips()]);
      } catch { /* the table screen reports a table that is gone */ }
    }
    if (stopped) return;
    const mine = table?.seats?.some((s) => s.player_id === me()?.id);
    if (!table || table.max_buy_in === null || table.max_buy_in === undefined || !chips?.enabled || mine) {
      go(null);
      return;
    }
    const draw = () => fill(root, buyInForm(table, chips, go));
    draw();
    offLang = onLang(draw);
  })();
  return () => { stopped = true; offLang(); inner?.(); };
}

function buyInForm(table, chips, go) {
  const lo = table.min_buy_in;
  const hi = table.max_buy_in;
  const dry = chips.balance < lo;  // the server tops a dry balance up when the seat is taken
  const value = dry ? hi : Math.max(lo, Math.min(hi, chips.balance));
  const input = h("input", { id: "buy-in", name: "buy-in", type: "number", min: lo, max: hi, step: 1,
    value, required: true, "data-buy-in": "1" });
  const submit = (e) => {
    e.preventDefault();
    const n = Number(input.value);
    if (Number.isInteger(n) && n >= lo && n <= hi) go(n);
    else input.reportValidity();
  };
  return h("section", { class: "buy-in", "data-buy-in-form": table.id },
    h("h1", {}, t(`game.${table.game}`), " — ", t("chips.buy_in_title")),
    h("p", { "data-balance": chips.balance }, t("chips.your_balance", { n: chips.balance })),
    dry ? h("p", { class: "muted" }, t("chips.top_up_note",
      { n: chips.top_up_to, m: Math.round(chips.top_up_every_seconds / 60) })) : null,
    h("form", { onsubmit: submit },
      h("div", { class: "field" }, h("label", { for: "buy-in" }, t("chips.buy_in_label", { min: lo, max: hi })), input),
      h("div", { class: "row" },
        h("button", { type: "submit", class: "primary", "data-sit-down": "1" }, t("chips.sit_down")), " ",
        h("a", { href: "#/", class: "button" }, t("table.back_to_lobby")))));
}

/** The seat's chips now: the game view's during a hand (its game seat), else the stack. */
function liveChips(s, mine) {
  const live = s.game_seat !== null && s.game_seat !== undefined ? s.view?.seats?.[s.game_seat]?.chips : null;
  return s.status === "playing" && typeof live === "number" ? live : (mine.stack ?? 0);
}

function mySeat(s) {
  return s && s.seat !== null && s.seat !== undefined ? s.seats?.[s.seat] : null;
}

/**
 * A Rebuy button for the player's seat at a poker table while the server says its stack is
 * below the ante (seats[].out_of_chips): buys in up to the table's max_buy_in, at most the
 * balance. `send(msg)` sends on the table's socket. Null when no rebuy applies.
 */
export function rebuyButton(s, send) {
  const mine = mySeat(s);
  if (!mine?.out_of_chips || !s.max_buy_in) return null;
  const room = s.max_buy_in - (mine.stack || 0);
  if (room < 1) return null;
  return h("button", { type: "button", class: "small primary", "data-rebuy": room, onclick: async () => {
    const c = await myChips();
    const n = c ? Math.min(room, c.balance) : room;  // the server refuses what the balance lacks
    send({ type: "join", table_id: s.table_id, buy_in: Math.max(1, n) });
  } }, t("chips.rebuy", { n: room }));
}

/**
 * The player's chips panel at a poker table: the stack and the "Sit out next hand" / "I'm back"
 * toggle (sit_out). Returns {el, redraw(state)}.
 */
export function chipsBar(tableId, send) {
  const el = h("div", { class: "chips-bar", "data-chips-bar": "1" });
  function redraw(s) {
    const mine = mySeat(s);
    if (!mine || s.max_buy_in === null || s.max_buy_in === undefined) { fill(el); return; }
    const out = Boolean(mine.sitting_out);
    fill(el,
      // data-stack: seats[].stack, the stack at the start of the hand; the text: the chips
      // now (the view's, during a hand), so it never disagrees with the board
      h("span", { class: "pill", "data-stack": mine.stack ?? "", "data-chips": liveChips(s, mine) },
        t("chips.stack", { n: liveChips(s, mine) })), " ",
      h("button", { type: "button", class: "small", "data-sit-out": out ? "back" : "out",
        onclick: () => send({ type: "sit_out", table_id: tableId, sit_out: !out }) },
      t(out ? "chips.im_back" : "chips.sit_out")),
      out ? h("p", { class: "muted", "data-sitting-out": "1" }, t("chips.sitting_out")) : null);
  }
  return { el, redraw };
}
