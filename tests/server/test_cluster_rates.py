"""REST rates over the cluster (``server/quotas.py``, ``docs/scaling.md``): with
``CARDHALL_REDIS_URL`` set and the rate storage left at ``memory://``, two apps count one
client address's requests together in Redis (redis-py, keys under ``<prefix>:rate``). Needs
Redis (``redis_url`` skips without one)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from typing import Any

import httpx
import pytest
import redis

from cardhall.config import Settings
from cardhall.server.app import create_app

ADDRESS = "203.0.113.9"


async def node(stack: AsyncExitStack, **settings: Any) -> httpx.AsyncClient:
    """A started app (lifespan run) behind an httpx client calling from :data:`ADDRESS`."""
    app = create_app(Settings(database_url="memory://", **settings))
    await stack.enter_async_context(app.router.lifespan_context(app))
    transport = httpx.ASGITransport(app=app, client=(ADDRESS, 4711))
    return await stack.enter_async_context(
        httpx.AsyncClient(transport=transport, base_url="http://test"))


@pytest.fixture
async def stack() -> AsyncIterator[AsyncExitStack]:
    async with AsyncExitStack() as s:
        yield s


async def test_two_apps_share_one_rate_in_redis(
        stack: AsyncExitStack, redis_url: str, redis_prefix: str) -> None:
    cluster = {"redis_url": redis_url, "redis_prefix": redis_prefix, "rest_rate_limit": "6/minute"}
    one, two = await node(stack, **cluster), await node(stack, **cluster)
    for i in range(6):  # split between the two nodes: 3 each
        assert (await (one if i % 2 else two).get("/api/tables")).status_code == 200
    for http in (one, two):
        refused = await http.get("/api/tables")
        assert refused.status_code == 429, refused.text
        assert refused.json()["error"]["code"] == "rate.limited"
        assert int(refused.headers["Retry-After"]) >= 1
    raw = redis.Redis.from_url(redis_url)
    try:
        assert list(raw.scan_iter(match=f"*{redis_prefix}:rate:*"))  # counted under the prefix
    finally:
        raw.close()


async def test_without_redis_each_app_counts_alone(stack: AsyncExitStack) -> None:
    one = await node(stack, rest_rate_limit="3/minute")
    two = await node(stack, rest_rate_limit="3/minute")
    for _ in range(3):
        assert (await one.get("/api/tables")).status_code == 200
    assert (await one.get("/api/tables")).status_code == 429
    assert (await two.get("/api/tables")).status_code == 200  # its own window


async def test_another_prefix_is_another_hall(
        stack: AsyncExitStack, redis_url: str, redis_prefix: str) -> None:
    one = await node(stack, redis_url=redis_url, redis_prefix=redis_prefix,
                     rest_rate_limit="2/minute")
    other = await node(stack, redis_url=redis_url, redis_prefix=f"{redis_prefix}:other",
                       rest_rate_limit="2/minute")
    for _ in range(2):
        assert (await one.get("/api/tables")).status_code == 200
    assert (await one.get("/api/tables")).status_code == 429
    assert (await other.get("/api/tables")).status_code == 200
