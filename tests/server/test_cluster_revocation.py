"""Cluster mode (two ``cardhall serve`` nodes on PostgreSQL + Redis): a session revoked on
one node ends the sockets it opened on every node within 1 s (``auth.session_revoked``,
4001), as a ban's closes do (``docs/security.md``, "Sessions, sockets and proxies"); the
caller's own session keeps its sockets, and the seat stays."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from clusterkit import cluster, get, post
from livesrv import Client
from procsrv import ProcServer
from test_ws_revocation import PASSWORD, closed_code
from websockets.asyncio.client import connect

pytestmark = pytest.mark.slow
CHEAP_HASHES = {"CARDHALL_PASSWORD_HASH_TIME_COST": "1",
                "CARDHALL_PASSWORD_HASH_MEMORY_KIB": "64"}


async def _socket(node: ProcServer, token: str) -> tuple[object, Client]:
    ws = await connect(node.ws_url, max_size=2**22).__aenter__()
    c = Client(ws)
    await c.hello(token)
    return ws, c


async def test_a_password_change_on_one_node_closes_the_revoked_sockets_on_every_node(
        tmp_path: Path) -> None:
    async with cluster(tmp_path, 2, **CHEAP_HASHES) as (nodes, _):
        a, b = nodes
        made = await post(a, "/api/accounts", {"username": "anna", "password": PASSWORD})
        assert made.status_code == 201, made.text
        player_id, t1 = made.json()["id"], made.json()["token"]
        t2 = (await post(b, "/api/sessions", {"username": "anna",
                                              "password": PASSWORD})).json()["token"]
        r = await post(a, "/api/tables", {"game": "soldiers_bluff", "seats": 3, "bots": [
            {"seat": 1}, {"seat": 2}], "turn_timeout_seconds": 60}, t1)
        table_id = r.json()["id"]
        opened = [await _socket(node, token) for node, token in ((a, t2), (b, t2), (b, t1))]
        try:
            on_a, on_b, keeper = (c for _, c in opened)
            await on_b.send({"type": "join", "table_id": table_id, "seat": 0})
            assert (await on_b.expect("joined"))["seat"] == 0
            loop = asyncio.get_running_loop()
            changed = await post(a, "/api/accounts/password", {
                "password": PASSWORD, "new_password": PASSWORD + "!"}, t1)
            assert changed.status_code == 200 and changed.json() == {"sessions_revoked": 1}
            answered = loop.time()
            for revoked in (on_a, on_b):  # on the node that revoked and on the other one
                seen, code = await closed_code(revoked)
                assert code == 4001
                assert [m["code"] for m in seen if m["type"] == "error"] == \
                    ["auth.session_revoked"]
            assert loop.time() - answered < 1.0, "not closed on every node within 1 s"
            await keeper.send({"type": "ping", "nonce": "kept"})
            assert (await keeper.expect("pong"))["nonce"] == "kept"
            async with asyncio.timeout(10):  # the seat stays for a new log-in (the lobby
                while True:                    # summary is written at the owner's next tick)
                    seats = (await get(a, f"/api/tables/{table_id}")).json()["seats"]
                    if seats[0]["player_id"] == player_id and not seats[0]["connected"]:
                        break
                    await asyncio.sleep(0.1)  # polling the registry, bounded above
        finally:
            for ws, _ in opened:
                await ws.close()  # type: ignore[attr-defined]
