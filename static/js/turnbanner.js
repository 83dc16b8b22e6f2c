// The line above the board that says what happens now: whose turn (yours, in gold), the seconds
// left and the countdown bar, the waiting room, "out of chips", or "a stand-in plays for you".

import { h, clear } from "./util.js";
import { t } from "./i18n.js";
import { waitingRoom, standInFor } from "./tablebits.js";

/** Poker tables: my seat has no chips left (the server deals only to seats with chips). */
export function outOfChips(s) {
  const mine = s.seat === null || s.seat === undefined ? null : s.seats[s.seat];
  // the server's out_of_chips; else stack = chips at the start of the hand: 0 means not dealt in
  return Boolean(mine && (mine.out_of_chips || mine.stack === 0));
}

/**
 * Draw the banner into `el` for state `s` and the table context `c` (see table.js ctx()).
 * `on`: { leave(), takeBack(), rebuy(s) -> node, myId, countdown } from the table screen.
 */
export function renderTurn(el, s, c, on) {
  clear(el);
  el.classList.remove("mine", "own");
  if (!s) return;
  const broke = outOfChips(s);
  el.classList.toggle("broke", broke);
  const lobbyButton = () => h("button", { type: "button", class: "small", "data-leave": "1", onclick: on.leave },
    t("table.back_to_lobby"));
  if (broke && s.status !== "playing") {
    el.append(h("strong", {}, t("table.out_of_chips")), " ", on.rebuy(s) || "", " ", lobbyButton());
    return;
  }
  const held = standInFor(s, on.myId);
  if (held) {
    el.append(h("strong", {}, t("table.stand_in_plays")), " ",
      h("button", { type: "button", class: "small primary", "data-take-back": held.seat, onclick: on.takeBack },
        t("table.take_back")));
    return;
  }
  if (s.status === "waiting") { waiting(el, s, lobbyButton); return; }
  if (s.status === "between_hands") { el.append(t("table.next_hand")); return; }
  if (s.status === "finished") { el.append(t("table.finished")); return; }
  const mine = c.mySeat !== null && c.toAct.includes(c.mySeat) && c.legal.length > 0;
  const who = c.timerSeat;
  const own = mine && (who === null || who === c.mySeat);  // not out of turn
  el.classList.toggle("mine", mine);
  el.classList.toggle("own", own);
  if (own) el.append(h("strong", {}, t("table.your_turn")));
  else if (who !== null) el.append(t("table.turn_of", { name: c.name(who) }));
  if (mine && who !== null && who !== c.mySeat) el.append(" — ", h("strong", {}, t("table.out_of_turn")));
  if (broke) {
    el.append(el.childNodes.length ? " — " : "", h("strong", {}, t("table.out_of_chips")), " ", on.rebuy(s) || "", " ",
      lobbyButton());
  }
  if (on.countdown.running) el.append(" ", on.countdown.clock(true), on.countdown.bar());
}

function waiting(el, s, lobbyButton) {
  el.append(waitingRoom(s));
  const taken = s.seats.filter((x) => x.player_id || x.bot).length;
  const stacks = s.seats.some((x) => x.stack !== null && x.stack !== undefined);
  const withChips = s.seats.filter((x) => (x.player_id || x.bot) && x.stack > 0).length;
  if (stacks && taken === s.seats.length && withChips < taken) {
    el.append(t("table.waiting_chips", { k: withChips, n: s.seats.length }), " ", lobbyButton());
  } else el.append(t("table.waiting", { taken, n: s.seats.length }));
}
