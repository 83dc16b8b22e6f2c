// "Play again" (docs/protocol.md, "Play again"): the button at the end of a match, and the
// banner offering another player's rematch ("Anna offers a rematch — Join"). The table screen
// creates one panel, hands it every message (onMessage) and lets it add its line to the turn
// banner after each draw (draw). Both lead to the new table's screen: the server seats the
// proposer there at once; whoever follows an offer takes a free seat by joining it.

import { h } from "./util.js";
import { t } from "./i18n.js";
import { inviteCode } from "./tablebits.js";

/** Whether the match at this table is over for me (the server's rule; it decides): a Blot
 * table is finished; a poker table stopped dealing after its first hand, or my seat is out of
 * chips and not in a running hand. Spectators get no button. */
export function matchOver(s) {
  if (!s || s.seat === null || s.seat === undefined) return false;
  if (s.status === "finished") return true;
  const poker = s.seats.some((x) => x.stack !== null && x.stack !== undefined);
  if (!poker || !s.hand) return false;
  if (s.status === "waiting") return true;
  const mine = s.seats[s.seat];
  return Boolean(mine?.out_of_chips) && !(s.status === "playing" && mine.in_hand);
}

/** The screen of the new table (a private one through its invite link, so the code is kept). */
export function goToTable(tableId, code) {
  if (code) inviteCode(tableId, code);
  location.hash = code ? `#/invite/${tableId}/${code}` : `#/table/${tableId}`;
}

/** The panel of table `tableId`; `send(msg)` sends on the table's socket (false when closed). */
export function rematchPanel(tableId, send) {
  let offer = null;   // the latest rematch_offer of this table
  let asked = false;  // a rematch was sent and no answer came yet

  function ask() {
    if (asked) return;
    asked = send({ type: "rematch", table_id: tableId });
  }

  return {
    /** Take a rematch message of this table (true: handled, redraw); errors pass on. */
    onMessage(msg) {
      if (msg.table_id !== tableId) return false;
      if (msg.type === "rematch_offer") { offer = msg; return true; }
      if (msg.type === "rematch_ready") { asked = false; goToTable(msg.rematch_table_id, msg.invite_code); return true; }
      if (msg.type === "error" && msg.request?.type === "rematch") asked = false;  // shown as an error
      return false;
    },
    /** Add the offer banner, or the "Play again" button, to `into` (the turn banner). */
    draw(into, s) {
      if (offer) {
        into.append(h("div", { class: "rematch-offer", role: "status", "data-rematch-offer": offer.rematch_table_id },
          h("strong", {}, t("rematch.offer", { name: offer.by_name })), " — ",
          h("button", { type: "button", class: "small primary", "data-rematch-join": "1",
            onclick: () => goToTable(offer.rematch_table_id, offer.invite_code) }, t("rematch.join"))));
        return;
      }
      if (!matchOver(s)) return;
      into.append(" ", h("button", { type: "button", class: "small primary", "data-play-again": "1",
        disabled: asked, onclick: ask }, asked ? t("rematch.asking") : t("rematch.play_again")));
    },
  };
}
