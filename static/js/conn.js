// One WebSocket to /ws for one table screen: hello, join, act, and reconnect with
// backoff after a dropped connection (re-hello + join resumes the same seat).

import { me } from "./api.js";
import { uid } from "./util.js";

export class TableConn {
  /** join: the join message fields ({table_id, seat?, spectate?}); onMessage(msg); onStatus(s). */
  constructor(join, onMessage, onStatus) {
    this.join = join;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.ws = null;
    this.closed = false;
    this.retry = 0;
    this.open();
  }

  open() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/ws`);
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      ws.send(JSON.stringify({ type: "hello", token: me()?.token || "" }));
    };
    ws.onmessage = (ev) => {
      const msg = JSON.parse(ev.data);
      if (msg.type === "welcome") {
        ws.send(JSON.stringify({ type: "join", ...this.join }));
        this.onStatus("online");
      }
      if (msg.type === "joined") {
        // later (re)joins resume: no seat number, the server finds the player's seat
        if (msg.role === "seat") this.join = { table_id: this.join.table_id };
      }
      this.onMessage(msg);
    };
    ws.onclose = () => {
      if (this.closed) return;
      this.onStatus("offline");
      const delay = Math.min(5000, 300 * 2 ** this.retry++);
      setTimeout(() => { if (!this.closed) this.open(); }, delay);
    };
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
