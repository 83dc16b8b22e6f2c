"""Two nodes act as one hall (``docs/scaling.md``): the lobby, quick seat, the per-player table
quota and the admin (list, inspect, kick, close, stats) see and reach every node's tables; a
spectator on another node gets exactly what a spectator on the owner gets (redaction happens on
the owner); a graceful stop of the owner moves its table to the other node, whose sockets see a
pause, never a ``table_closed``."""

from __future__ import annotations

import signal
from pathlib import Path
from typing import Any

import pytest
from clusterkit import ADMIN, cluster, get, guest, post
from livesrv import Client
from procsrv import ProcServer
from websockets.asyncio.client import connect

from cardhall.tables.restore import RESTORE_VERSION_GAP

pytestmark = pytest.mark.slow


async def _spectate(node: ProcServer, token: str, table_id: str) -> tuple[Any, Client]:
    ws = await connect(node.ws_url, max_size=2**22).__aenter__()
    c = Client(ws)
    await c.hello(token)
    await c.send({"type": "join", "table_id": table_id, "spectate": True})
    await c.expect("joined")
    return ws, c


async def test_lobby_quota_and_admin_reach_every_node(tmp_path: Path) -> None:
    async with cluster(tmp_path, 2, CARDHALL_MAX_LIVE_TABLES_PER_PLAYER="1") as (nodes, _):
        a, b = nodes
        ana = await guest(a, "ana")
        r = await post(a, "/api/tables", {"game": "palace_poker", "seats": 3,
                                          "bots": [{"seat": 1}, {"seat": 2}]}, ana)
        assert r.status_code == 201, r.text
        table = r.json()
        assert table["id"] in [t["id"] for t in (await get(b, "/api/tables")).json()]
        # the quota counts the player's tables on every node
        r = await post(b, "/api/tables", {"game": "soldiers_bluff"}, ana)
        assert r.status_code == 429 and r.json()["error"]["code"] == "quota.tables", r.text
        # quick seat through b finds a's open table
        bob = await guest(b, "bob")
        r = await post(b, "/api/tables/quick-seat", {"game": "palace_poker"}, bob)
        assert r.status_code == 200 and r.json()["table_id"] == table["id"], r.text
        # the admin of b lists, inspects, kicks and counts a's table
        rows = (await get(b, "/api/admin/tables", ADMIN)).json()
        assert [(row["id"], row["node"]) for row in rows] == [(table["id"], "a")]
        inspected = await get(b, f"/api/admin/tables/{table['id']}", ADMIN)
        assert inspected.status_code == 200 and inspected.json()["id"] == table["id"]
        assert inspected.json()["node"] == "a"
        stats = (await get(b, "/api/admin/stats", ADMIN)).json()
        assert stats["nodes"] == 2 and stats["tables"] == 1
        assert stats["tables_by_node"] == {"a": 1, "b": 0}
        kicked = await post(b, f"/api/admin/tables/{table['id']}/kick", {"seat": 1},
                            headers=ADMIN)
        assert kicked.status_code == 200 and kicked.json()["kicked"] is True, kicked.text
        missing = await post(b, "/api/admin/tables/nope/kick", {"seat": 0}, headers=ADMIN)
        assert missing.status_code == 404
        closed = await post(b, f"/api/admin/tables/{table['id']}/close", {}, headers=ADMIN)
        assert closed.status_code == 200 and closed.json()["closed"] is True, closed.text
        for node in nodes:  # gone from the registry at once
            assert (await get(node, f"/api/tables/{table['id']}")).status_code == 404
            assert (await get(node, "/api/tables")).json() == []


async def test_a_spectator_on_another_node_sees_what_the_owner_sends(tmp_path: Path) -> None:
    async with cluster(tmp_path, 2) as (nodes, _):
        a, b = nodes
        ana = await guest(a, "ana")
        r = await post(a, "/api/tables", {"game": "bazaar_blot", "bots": [
            {"seat": 0}, {"seat": 1}, {"seat": 2}, {"seat": 3}]}, ana)
        table_id = r.json()["id"]
        ws_a, here = await _spectate(a, ana, table_id)
        ws_b, there = await _spectate(b, ana, table_id)
        try:
            start = max(next(f["version"] for f in c.frames if f["type"] == "joined")
                        for c in (here, there))  # both watch from here on
            for c in (here, there):  # a few steps of the bots' game
                while (c.states.get(table_id) or {}).get("version", 0) < start + 8:
                    await c.recv()

            def steps(c: Client) -> dict[int, dict[str, Any]]:
                return {f["version"]: f for f in c.frames
                        if f["type"] == "state" and not f["full"] and f["version"] > start + 1}

            mine, theirs = steps(here), steps(there)
            assert len(mine) >= 5
            common = sorted(set(mine) & set(theirs))
            assert common == sorted(mine)[:len(common)] and len(common) >= 5
            # the same redacted frames, made once on the owner
            assert [theirs[v] for v in common] == [mine[v] for v in common]
            assert all(f.get("game_seat") is None for f in there.frames if f["type"] == "state")
        finally:
            await ws_a.close()
            await ws_b.close()


async def test_a_graceful_stop_moves_the_table_without_closing_it(tmp_path: Path) -> None:
    async with cluster(tmp_path, 2) as (nodes, _):
        a, b = nodes
        ana = await guest(a, "ana")
        r = await post(a, "/api/tables", {"game": "soldiers_bluff", "seats": 3, "bots": [
            {"seat": 1}, {"seat": 2}]}, ana)
        table_id = r.json()["id"]
        ws = await connect(b.ws_url, max_size=2**22).__aenter__()
        try:
            c = Client(ws)
            await c.hello(ana)
            await c.send({"type": "join", "table_id": table_id, "seat": 0})
            await c.expect("joined")
            before = (await c.until(lambda m: m["type"] == "state"))["version"]
            a.kill(signal.SIGTERM)
            assert await a.wait(20) == 0
            moved = await c.until(lambda m: m["type"] == "state"
                                  and m["version"] >= before + RESTORE_VERSION_GAP)
            assert moved["status"] in ("playing", "between_hands", "waiting")
            kinds = {m["type"] for m in c.received}
            assert "table_closed" not in kinds  # a pause: no table_closed, no second joined
            assert [m["type"] for m in c.received].count("joined") == 1
            assert "took table" in b.log()
        finally:
            await ws.close()


async def test_each_node_pools_its_own_seeks_and_their_table_is_the_clusters(
        tmp_path: Path) -> None:
    async with cluster(tmp_path, 2) as (nodes, _):
        a, b = nodes
        ana, bob, cy = await guest(a, "ana"), await guest(a, "bob"), await guest(b, "cy")
        first = (await post(a, "/api/seeks", {"game": "soldiers_bluff"}, ana)).json()
        other = await post(b, "/api/seeks", {"game": "soldiers_bluff"}, cy)
        assert other.status_code == 201, other.text
        assert other.json()["status"] == "waiting"  # b's pool does not see a's seek
        seated = (await post(a, "/api/seeks", {"game": "soldiers_bluff"}, bob)).json()
        assert seated["status"] == "seated", seated
        auth = {"Authorization": f"Bearer {ana}"}
        mine = (await get(a, f"/api/seeks/{first['seek_id']}", auth)).json()
        assert (mine["status"], mine["table_id"]) == ("seated", seated["table_id"])
        assert (await get(b, f"/api/seeks/{first['seek_id']}", auth)).status_code == 404
        for node in nodes:  # the table is in the registry, wherever it runs
            table = await get(node, f"/api/tables/{seated['table_id']}")
            assert table.status_code == 200 and table.json()["private"] is True
