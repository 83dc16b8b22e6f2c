// Small pieces of the table screen: the waiting room's seats, the invite link of a private
// table, and the "take your seat back" line while a stand-in plays for you.

import { h } from "./util.js";
import { t } from "./i18n.js";

/** Who sits where while the table waits (a free seat says so). */
export function waitingRoom(s) {
  return h("ul", { class: "waiting-seats", "data-waiting-room": "1" }, s.seats.map((x) => h("li", { "data-seat": x.seat },
    h("strong", {}, t("lobby.seat_n", { n: x.seat + 1 })), ": ",
    x.name ? `${x.name}${x.bot ? ` (${x.bot_level ? t(`lobby.bot_${x.bot_level}`) : t("table.bot")})` : ""}${x.connected || x.bot ? "" : ` — ${t("table.offline")}`}`
      : h("span", { class: "muted" }, t("lobby.free")))));
}

const INVITES = "cardhall.invites";

/** Remember (or recall) a private table's invite code in this browser. */
export function inviteCode(tableId, code = null) {
  let all = {};
  try { all = JSON.parse(localStorage.getItem(INVITES) || "{}"); } catch { /* broken: start again */ }
  if (code) { all[tableId] = code; try { localStorage.setItem(INVITES, JSON.stringify(all)); } catch { /* off */ } }
  return all[tableId] || null;
}

export function inviteLink(tableId, code) {
  return `${location.origin}${location.pathname}#/invite/${tableId}/${code}`;
}

/** The copyable invite link of a private table. */
export function inviteBox(tableId, code) {
  const link = inviteLink(tableId, code);
  const input = h("input", { type: "text", readonly: true, value: link, class: "invite-link", "aria-label": t("invite.link") });
  const done = h("span", { class: "muted", "aria-live": "polite" });
  return h("div", { class: "invite", "data-invite": code },
    h("span", {}, t("invite.share"), " "), input,
    h("button", { type: "button", class: "small", "data-copy-invite": "1", onclick: async () => {
      input.select();
      try { await navigator.clipboard.writeText(link); } catch { document.execCommand?.("copy"); }
      done.textContent = ` ${t("invite.copied")}`;
    } }, t("invite.copy")), done);
}

/** My seat, held but played by a stand-in (I left, or timed out three times): come back. */
export function standInFor(s, myId) {
  if (!s || s.seat !== null || !myId) return null;
  return s.seats.find((x) => x.player_id === myId && x.stand_in) || null;
}
