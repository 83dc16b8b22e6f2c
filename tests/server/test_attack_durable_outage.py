"""A SQLite file locked by another process mid-game, with durable tables: play goes on, the
log degrades, ``/readyz`` says why and admin inspection answers; once the lock is gone the
buffer is committed and the server is ready again (``docs/operations.md``, "Outages")."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from livesrv import client, live_server

pytestmark = pytest.mark.slow


async def _until(pred: Callable[[], Awaitable[bool]]) -> None:
    async with asyncio.timeout(20):
        while not await pred():
            await asyncio.sleep(0.05)  # polling an outside process's effect, bounded


async def test_a_locked_sqlite_file_degrades_the_log_and_play_goes_on(tmp_path: Path) -> None:
    db = tmp_path / "cardhall.db"
    async with live_server(database_url=f"sqlite+aiosqlite:///{db}", db_timeout_seconds=1.0,
                           log_sync_timeout_seconds=0.2) as live, live.http as http:
        _, token = await live.player("ana")
        auth = {"Authorization": f"Bearer {token}"}
        r = await http.post("/api/tables", json={"game": "palace_poker", "seats": 3,
                                                 "bots": [{"seat": 1, "kind": "rule"},
                                                          {"seat": 2, "kind": "rule"}]},
                            headers=auth)
        assert r.status_code == 201, r.text
        table_id = r.json()["id"]
        async with client(live, token) as c:
            await c.send({"type": "join", "table_id": table_id, "seat": 0})
            await c.expect("joined")
            lock = sqlite3.connect(db, isolation_level=None, timeout=5)
            try:
                lock.execute("BEGIN EXCLUSIVE")
                n = 0
                for _ in range(6):  # moves while the file is locked: frames keep coming
                    msg = await c.until(lambda m: m["type"] == "game_over" or (
                        m["type"] == "state" and m["status"] == "playing"
                        and bool(m["legal_actions"])))
                    if msg["type"] == "game_over":
                        break
                    n += 1
                    await c.send({"type": "act", "table_id": table_id, "version": msg["version"],
                                  "action_id": f"m{n}", "action": msg["legal_actions"][0]})
                assert n > 0
                r = await http.get("/readyz")
                assert r.status_code == 200 and r.json()["status"] == "degraded"  # serves on
                assert r.json()["checks"]["log"]["healthy"] is False
                r = await http.get(f"/api/admin/tables/{table_id}",
                                   headers={"Authorization": "Bearer admin-secret"})
                assert r.status_code == 200
            finally:
                lock.execute("ROLLBACK")
                lock.close()

            async def ready() -> bool:
                return (await http.get("/readyz")).json()["status"] == "ready"
            await _until(ready)
            assert live.app.state.log.backlog == 0 and live.app.state.log.healthy
