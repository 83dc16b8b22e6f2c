"""A ``Client.join()`` made just before the server crashes has one outcome (issue 27, case 10):
the server (a real ``cardhall serve``, SQLite file) is frozen (SIGSTOP), the join is sent into
it, the server is SIGKILLed (the join never reached it) and started again on the same port
and database. The client's reconnect loop re-sends the join; ``join()`` returns the session
that join got (the seat it asked for, played by the bot), never a ``TimeoutError`` while the
seat is taken and played behind its back.
"""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import pytest
from clientkit import live_server  # noqa: F401  (puts tests/server on the path)
from procsrv import ProcServer

from cardhall.client import BuiltinBot, Client

pytestmark = pytest.mark.slow

ENV = {"CARDHALL_INSECURE_FIXED_SEED": "x", "CARDHALL_TURN_TIMEOUT_SECONDS": "120",
       "CARDHALL_ABANDON_AFTER_SECONDS": "600", "CARDHALL_GC_TUNING": "false"}
JOIN_TIMEOUT = 10.0


async def test_a_join_sent_just_before_a_crash_returns_the_seat_the_reconnect_took(
        tmp_path: Path) -> None:
    srv = ProcServer(tmp_path, ENV, name="first")
    await srv.start()
    again = ProcServer(tmp_path, ENV, port=srv.port, name="again")
    try:
        async with srv.http() as http:
            r = await http.post("/api/players", json={"name": "sdk", "bot": True})
            token = r.json()["token"]
            r = await http.post("/api/tables", json={
                "game": "bazaar_blot", "bots": [{"seat": s, "kind": "rule"} for s in (1, 2, 3)]},
                headers={"Authorization": f"Bearer {token}"})
            assert r.status_code == 201, r.text
            table_id = r.json()["id"]
        async with Client(srv.ws_url, token, backoff_seconds=0.2, max_backoff_seconds=1.0,
                          open_timeout_seconds=JOIN_TIMEOUT) as client:
            srv.kill(signal.SIGSTOP)  # frozen: the join goes into its socket, unread
            join = asyncio.create_task(
                client.join(table_id, BuiltinBot("bazaar_blot", "rule", 7), seat=0))
            async with asyncio.timeout(5):
                while table_id not in client.tables:  # the join was sent
                    await asyncio.sleep(0.01)
            srv.kill(signal.SIGKILL)  # the crash: nothing it had unread is ever read
            assert await srv.wait(15) == -signal.SIGKILL
            await again.start()
            session = await asyncio.wait_for(join, 4 * JOIN_TIMEOUT)  # no TimeoutError
            assert session.seat == 0 and session.seat_token
            assert client.tables[table_id] is session
            async with asyncio.timeout(20):
                while session.moves == 0:  # the bot plays the seat it returned
                    await asyncio.sleep(0.02)
    finally:
        await srv.stop()
        await again.stop()
