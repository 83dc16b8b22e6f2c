// A tournament's page follows it over the socket (watch_tournament: docs/protocol.md
// "Tournaments"): the public document pushed after every change, so an entrant's new table
// shows (and is gone to) at once instead of at the next 5 s poll. A socket that fails or
// closes is simply not there: the page's poll goes on.

import { me } from "./api.js";

/** Follow tournament `id`; `onDoc(doc)` for each pushed document. Returns a stop function. */
export function followTournament(id, onDoc) {
  const who = me();
  if (!who?.token || typeof WebSocket === "undefined") return () => {};
  const proto = location.protocol === "https:" ? "wss" : "ws";
  let ws;
  try { ws = new WebSocket(`${proto}://${location.host}/ws`); } catch { return () => {}; }
  ws.onopen = () => ws.send(JSON.stringify({ type: "hello", token: who.token }));
  ws.onmessage = (ev) => {
    let msg;
    try { msg = JSON.parse(ev.data); } catch { return; }
    if (msg.type === "welcome") ws.send(JSON.stringify({ type: "watch_tournament", tournament_id: id }));
    else if (msg.type === "tournament" && msg.tournament_id === id) onDoc(msg.document);
  };
  ws.onerror = () => {};
  return () => { try { ws.close(1000); } catch { /* already closed */ } };
}

const SENT = "cardhall.tour.sent";

/** Whether the page should take the player to table `tableId` of tournament `id` now: once per
 * table (a player who comes back to the page from that table stays here). */
export function firstTimeAt(id, tableId) {
  let sent = {};
  try { sent = JSON.parse(sessionStorage.getItem(SENT) || "{}"); } catch { sent = {}; }
  if (sent[id] === tableId) return false;
  sent[id] = tableId;
  try { sessionStorage.setItem(SENT, JSON.stringify(sent)); } catch { /* private mode */ }
  return true;
}
