// One WebSocket to /ws for one table screen: hello, join, act, and reconnect with
// backoff after a dropped connection (re-hello + join resumes the same seat).
//
// A server restart is a pause, not the end of the table (docs/protocol.md, "Shutdown"): after
// `table_closed` with reason `shutdown`, a close with 1012, or a `server.draining` refusal, the
// connection reports the status "restarting" and keeps reconnecting with backoff; the next
// join resumes the seat with its seat token (the server restores its tables from their log).

import { me } from "./api.js";
import { uid } from "./util.js";

/** Close code of a server that restarts ("service restart"): come back later. */
export const RESTART_CLOSE = 1012;

/** Error codes of a server that is starting or draining (or of a table moving to another
 * node, cluster mode): retry after the backoff. */
export const WAIT_CODES = new Set(["server.draining", "server.unavailable", "table.moving"]);

/** Milliseconds before reconnect attempt `retry` (0, 1, ...): 300 doubling to 5000, ±25%. */
export function backoffMs(retry, random = Math.random) {
  const base = Math.min(5000, 300 * 2 ** Math.min(retry, 10));
  return Math.round(base * (0.75 + 0.5 * random()));
}

export class TableConn {
  /**
   * join: the join message fields ({table_id, seat?, spectate?}); onMessage(msg);
   * onStatus(s) with s one of "online" (joined), "offline" (dropped, reconnecting) and
   * "restarting" (the server restarts; the seat is kept, reconnecting).
   */
  constructor(join, onMessage, onStatus) {
    this.join = join;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.ws = null;
    this.closed = false;
    this.retry = 0;  // reset once a join is answered, so a refusing server keeps backing off
    this.restarting = false;
    this.seatToken = null;
    this.open();
  }

  open() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/ws`);
    this.ws = ws;
    ws.onopen = () => {
      ws.send(JSON.stringify({ type: "hello", token: me()?.token || "" }));
    };
    ws.onmessage = (ev) => {
      const msg = JSON.parse(ev.data);
      // another table's frames: the server seated this socket's player at a rematch (its screen follows)
      if (msg.table_id && msg.table_id !== this.join.table_id) return;
      if (msg.type === "welcome") ws.send(JSON.stringify({ type: "join", ...this.join }));
      if (msg.type === "joined") {
        this.retry = 0;
        this.restarting = false;
        // later (re)joins resume this seat with its token (a restarted server takes it back)
        if (msg.role === "seat") {
          this.seatToken = msg.seat_token || this.seatToken;
          this.join = this.seatToken
            ? { table_id: this.join.table_id, seat: msg.seat, seat_token: this.seatToken }
            : { table_id: this.join.table_id };
        }
        this.onStatus("online");
      }
      if (msg.type === "table_closed" && msg.reason === "shutdown") this.pause();
      if (msg.type === "error" && WAIT_CODES.has(msg.code)
          && (msg.request?.type === "hello" || msg.request?.type === "join")) {
        this.pause();  // the server closes this socket; the reconnect tries again later
        ws.close(1000);
        return;
      }
      if (msg.type === "error" && msg.code === "table.bad_seat_token" && msg.request?.type === "join"
          && this.join.seat_token) {
        // the seat's token changed (resumed elsewhere): resume as this player instead
        this.seatToken = null;
        this.join = { table_id: this.join.table_id };
        ws.send(JSON.stringify({ type: "join", ...this.join }));
        return;
      }
      this.onMessage(msg);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws || this.closed) return;
      if (ev.code === RESTART_CLOSE) this.restarting = true;
      this.onStatus(this.restarting ? "restarting" : "offline");
      setTimeout(() => { if (!this.closed) this.open(); }, backoffMs(this.retry++));
    };
  }

  /** The server restarts: keep the seat (and its token) and wait for the reconnect. */
  pause() {
    if (this.restarting) return;
    this.restarting = true;
    this.onStatus("restarting");
  }

  send(msg) {
    if (this.ws?.readyState === WebSocket.OPEN) { this.ws.send(JSON.stringify(msg)); return true; }
    return false;
  }

  act(tableId, version, action) {
    return this.send({ type: "act", table_id: tableId, version, action_id: uid(), action });
  }

  resync(tableId) { this.send({ type: "resync", table_id: tableId }); }

  close(leave = false) {
    this.closed = true;
    if (leave) this.send({ type: "leave", table_id: this.join.table_id });
    this.ws?.close(1000);
  }
}
