"""Three nodes, one hall: a Bazaar Blot match played across nodes survives the SIGKILL of the
table's owner (``docs/scaling.md``).

Three ``cardhall serve`` processes on loopback ports share one PostgreSQL database and one
Redis (a key prefix of the test's own). A table created through node A is listed by B and C;
four clients on three nodes play it; A (the owner) is SIGKILLed mid-deal; B or C takes the table
over once A's lease expires (plus the restore), the clients of B and C see a short pause (a
full state at a version past the restore gap), the client of A reconnects to B and resumes its
seat, and the match ends with the history of a single-process run with the same seed, saved
exactly once. Skipped, with the reason, where Redis or PostgreSQL is absent.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import time
from pathlib import Path
from typing import Any

import pytest
from clusterkit import LEASE_SECONDS, cluster
from livesrv import Client
from procsrv import ProcServer
from test_durable_process import ENV, GAMES, Driver, database, moves_of, new_table
from websockets.asyncio.client import connect

from cardhall.tables.restore import RESTORE_VERSION_GAP

pytestmark = pytest.mark.slow

PLAYERS = ["ana", "bob", "cy", "dee"]
SEAT_NODES = [1, 2, 0, 1]
"""The node (0 = A, the owner) each seat's client talks to."""


class ClusterDriver(Driver):
    """:class:`Driver` whose clients talk to different nodes."""

    async def connect_to(self, nodes: list[ProcServer]) -> None:
        self.clients = []
        for i, token in enumerate(self.tokens):
            c = await self._open(nodes[SEAT_NODES[i]], token)
            await c.send({"type": "join", "table_id": self.table_id, "seat": i})
            joined = await c.expect("joined")
            self.seat_tokens.append(joined["seat_token"])
            self.clients.append(c)
        for c in self.clients:
            while (c.states.get(self.table_id) or {}).get("status") != "playing":
                await c.recv()
        await self.sync(max(c.states[self.table_id]["version"] for c in self.clients))

    async def _open(self, node: ProcServer, token: str) -> Client:
        ws = await self._stack.enter_async_context(connect(node.ws_url, max_size=2**22))
        c = Client(ws)
        await c.hello(token)
        return c

    async def resume(self, i: int, node: ProcServer, within: float) -> None:
        """Seat ``i``'s client reconnects to ``node`` and resumes by seat token, retrying
        ``table.moving`` until the table has its new owner (at most ``within`` seconds)."""
        c = await self._open(node, self.tokens[i])
        end = time.monotonic() + within
        while True:
            await c.send({"type": "join", "table_id": self.table_id, "seat": i,
                          "seat_token": self.seat_tokens[i]})
            answer = await c.until(lambda m: m["type"] in ("joined", "error"))
            if answer["type"] == "joined":
                assert answer["resumed"] is True, answer
                break
            assert answer["code"] == "table.moving", answer
            assert time.monotonic() < end, "the table was not taken over in time"
            await asyncio.sleep(0.1)  # a bounded retry, as a client does
        self.clients[i] = c


async def _saved(url: str, table_id: str) -> int:
    import asyncpg

    conn = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://"), timeout=3)
    try:
        return int(await conn.fetchval("SELECT count(*) FROM games WHERE table_id = $1",
                                       table_id))
    finally:
        await conn.close()


async def _reference(tmp_path: Path) -> dict[str, Any]:
    """The match on one process without a kill (the same seed and moves)."""
    async with database("sqlite", tmp_path) as url:
        srv = ProcServer(tmp_path, {**ENV, "CARDHALL_DATABASE_URL": url}, name="reference")
        await srv.start()
        driver = Driver(*await new_table(srv, "bazaar_blot", PLAYERS))
        try:
            await driver.connect(srv, resume=False)
            over = await driver.play()
            assert over is not None
            return over
        finally:
            await driver.close()
            await srv.stop()


async def test_three_nodes_play_one_match_through_the_owner_s_sigkill(tmp_path: Path) -> None:
    (tmp_path / "ref").mkdir()
    expected = await _reference(tmp_path / "ref")
    async with cluster(tmp_path, 3) as (nodes, url), contextlib.AsyncExitStack() as stack:
        a = nodes[0]
        table_id, tokens = await new_table(a, "bazaar_blot", PLAYERS)
        for node in nodes[1:]:  # the shared lobby
            async with node.http() as http:
                listed = [t["id"] for t in (await http.get("/api/tables")).json()]
                assert table_id in listed
                assert (await http.get(f"/api/tables/{table_id}")).status_code == 200
        driver = ClusterDriver(table_id, tokens)
        stack.push_async_callback(driver.close)
        await driver.connect_to(nodes)
        assert await driver.play(stop=GAMES["bazaar_blot"][2]) is None, "no kill point"
        before = max(driver.state(i)["version"] for i in range(4))
        killed_at = time.monotonic()
        a.kill(signal.SIGKILL)
        assert await a.wait(15) == -signal.SIGKILL
        await driver.resume(SEAT_NODES.index(0), nodes[1], within=4 * LEASE_SECONDS + 10)
        await driver.sync(before + RESTORE_VERSION_GAP)  # everyone has the restored table
        took = time.monotonic() - killed_at
        over = await driver.play()
        assert over is not None
        logs = nodes[1].log() + nodes[2].log()
        assert "took table" in logs, logs[-3000:]
        for _ in range(200):  # the save lands through the outbox
            if await _saved(url, table_id) >= 1:
                break
            await asyncio.sleep(0.05)
        assert await _saved(url, table_id) == 1
    history = over["history"]
    assert moves_of(history) == moves_of(expected["history"])
    assert history["outcome"] == expected["history"]["outcome"]
    assert history["seed"] == expected["history"]["seed"]
    assert took < LEASE_SECONDS + 10, took  # the lease, a scan, the restore (a loose bound)
