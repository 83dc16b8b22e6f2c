"""``GET /api/players/me/tables`` in a cluster (issue 28, item 1): any node lists the caller's
seats on every node, private tables with their invite code, through the admin list's
fan-out."""

from __future__ import annotations

from pathlib import Path

import pytest
from clusterkit import cluster, get, guest, post
from livesrv import Client
from websockets.asyncio.client import connect

pytestmark = pytest.mark.slow


async def test_every_node_lists_the_callers_tables_on_every_node(tmp_path: Path) -> None:
    async with cluster(tmp_path, 2) as (nodes, _):
        a, b = nodes
        ana = await guest(a, "ana")
        made = []
        for node in (a, b):  # the second goes to the less loaded node: b
            r = await post(node, "/api/tables", {"game": "soldiers_bluff", "seats": 2,
                                                 "private": True}, ana)
            assert r.status_code == 201, r.text
            made.append((r.json()["id"], r.json()["invite_code"]))
        async with connect(a.ws_url) as ws:
            c = Client(ws)
            await c.hello(ana)
            for tid, code in made:
                await c.send({"type": "join", "table_id": tid, "seat": 0, "invite_code": code})
                await c.until(lambda m, tid=tid: m["type"] == "joined" and m["table_id"] == tid)
            auth = {"Authorization": f"Bearer {ana}"}
            for node in nodes:
                body = (await get(node, "/api/players/me/tables", auth)).json()
                assert body["unreachable"] == []
                got = sorted((row["id"], row["invite_code"], row["my_seats"])
                             for row in body["items"])
                assert got == sorted((tid, code, [0]) for tid, code in made)
            stranger = await guest(b, "cy")
            body = (await get(b, "/api/players/me/tables",
                              {"Authorization": f"Bearer {stranger}"})).json()
            assert body["items"] == []
