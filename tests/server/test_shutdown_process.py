"""SIGTERM to a real ``cardhall serve`` process (``docs/protocol.md``, "Shutdown"): a seated
client mid-game reads ``table_closed``/``shutdown`` before the close (1012), and the process
exits 0 within its grace period."""

from __future__ import annotations

import signal
import time
from pathlib import Path

import pytest
from livesrv import Client
from procsrv import proc_server
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

GRACE_SECONDS = 5.0


@pytest.mark.slow
async def test_sigterm_drains_a_seated_client_and_exits_0(tmp_path: Path) -> None:
    env = {"CARDHALL_SHUTDOWN_GRACE_SECONDS": str(GRACE_SECONDS),
           "CARDHALL_TURN_TIMEOUT_SECONDS": "60"}
    async with proc_server(tmp_path, env) as srv:
        async with srv.http() as http:
            r = await http.post("/api/players", json={"name": "ana"})
            token = r.json()["token"]
            r = await http.post("/api/tables", headers={"Authorization": f"Bearer {token}"},
                                json={"game": "bazaar_blot", "bots": [
                                    {"seat": s, "kind": "rule"} for s in (1, 2, 3)]})
            assert r.status_code == 201, r.text
            tid = r.json()["id"]
        async with connect(srv.ws_url) as ws:
            c = Client(ws)
            await c.hello(token)
            await c.send({"type": "join", "table_id": tid, "seat": 0})
            await c.expect("joined")
            await c.until(lambda m: m["type"] == "state" and m["status"] == "playing")

            srv.kill(signal.SIGTERM)
            signalled = time.monotonic()
            closed = await c.until(lambda m: m["type"] == "table_closed")
            assert (closed["table_id"], closed["reason"]) == (tid, "shutdown"), srv.log()
            with pytest.raises(ConnectionClosed) as info:
                while True:
                    assert (await c.recv())["type"] in ("state", "events")
            assert info.value.rcvd is not None and info.value.rcvd.code == 1012, srv.log()
        code = await srv.wait(GRACE_SECONDS - (time.monotonic() - signalled))
        assert code == 0, srv.log()
