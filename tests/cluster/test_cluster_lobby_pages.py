"""The lobby's pages in cluster mode (issue 24, row 10): two nodes in process on the test
Redis, each a whole app; ``GET /api/tables`` on either node pages through every node's tables
(from the registry's summaries) with the same rows, cursor, ``Link`` and ``ETag`` as one
process, and a node whose Redis does not answer pages its own tables (a partial lobby beats
none)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AsyncExitStack

import httpx
import pytest
from redis.exceptions import ConnectionError as RedisConnectionError

from cardhall.config import Settings
from cardhall.server.app import create_app


@pytest.fixture
async def nodes(redis_url: str, redis_prefix: str) -> AsyncIterator[list[httpx.AsyncClient]]:
    async with AsyncExitStack() as stack:
        out = []
        for name in ("a", "b"):
            app = create_app(Settings(
                database_url="memory://", redis_url=redis_url, redis_prefix=redis_prefix,
                node_id=name, rest_rate_limit="1000000/minute",
                guest_rate_limit="1000000/minute", max_live_tables_per_player=1000,
                max_waiting_tables_per_address=1000))
            await stack.enter_async_context(app.router.lifespan_context(app))
            out.append(await stack.enter_async_context(httpx.AsyncClient(
                transport=httpx.ASGITransport(app=app), base_url="http://test")))
        yield out


async def _walk(http: httpx.AsyncClient, url: str | None) -> list[str]:
    seen: list[str] = []
    while url is not None:
        r = await http.get(url)
        assert r.status_code == 200, r.text
        assert len(r.json()) <= 4 and "players" in r.json()[0]
        seen += [t["id"] for t in r.json()]
        url = r.links.get("next", {}).get("url")
    return seen


async def test_either_node_pages_through_every_node_s_tables(
        nodes: list[httpx.AsyncClient]) -> None:
    a, b = nodes
    made: list[tuple[str, str]] = []
    for i in range(10):
        http = (a, b)[i % 2]
        token = (await http.post("/api/players", json={"name": f"p{i}"})).json()["token"]
        r = await http.post("/api/tables", headers={"Authorization": f"Bearer {token}"},
                            json={"game": "soldiers_bluff", "seats": 3})
        assert r.status_code == 201, r.text
        made.append((r.json()["created_at"], r.json()["id"]))
    want = [tid for _, tid in sorted(made)]
    for http in (a, b):
        assert await _walk(http, "/api/tables?limit=4") == want
    first = await b.get("/api/tables?limit=4")
    again = await a.get("/api/tables?limit=4", headers={"If-None-Match": first.headers["etag"]})
    assert again.status_code == 304  # the same page from either node: the same tag


async def test_without_redis_a_node_pages_its_own_tables(
        nodes: list[httpx.AsyncClient], monkeypatch: pytest.MonkeyPatch) -> None:
    a, _ = nodes
    token = (await a.post("/api/players", json={"name": "ana"})).json()["token"]
    for _ in range(6):  # spread over both nodes (the least loaded makes each)
        r = await a.post("/api/tables", headers={"Authorization": f"Bearer {token}"},
                         json={"game": "bazaar_blot"})
        assert r.status_code == 201
    hall = a._transport.app.state.hall  # type: ignore[attr-defined]

    async def down(*_args: object) -> None:
        raise RedisConnectionError("down")

    monkeypatch.setattr(hall.node.redis, "smembers", down)
    own = sorted((t.summary()["created_at"], t.id) for t in hall.manager.tables.values())
    assert 0 < len(own) < 6
    assert await _walk(a, "/api/tables?limit=2") == [tid for _, tid in own]
