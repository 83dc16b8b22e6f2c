"""Readiness and the Redis gauge in cluster mode (``server/health.py``, ``docs/scaling.md``):
``/readyz`` also pings Redis (bounded) and reports it as the ``redis`` check;
``cardhall_redis_healthy`` follows the last Redis answer. The unreachable and hanging cases
need no Redis; the healthy one does (``redis_url`` skips without one)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from types import SimpleNamespace
from typing import Any

import httpx
import pytest

from cardhall.config import Settings
from cardhall.server.app import create_app
from cardhall.server.health import readiness
from cardhall.server.redisconn import RedisHealth

NOBODY_LISTENS = "redis://127.0.0.1:1/0"
"""A Redis URL whose connections are refused at once."""


@pytest.fixture
async def stack() -> AsyncIterator[AsyncExitStack]:
    async with AsyncExitStack() as s:
        yield s


async def started(stack: AsyncExitStack, **settings: Any) -> httpx.AsyncClient:
    app = create_app(Settings(database_url="memory://", gc_tuning=False, **settings))
    await stack.enter_async_context(app.router.lifespan_context(app))
    return await stack.enter_async_context(httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://test"))


def gauge(metrics: str) -> str | None:
    lines = [line for line in metrics.splitlines() if line.startswith("cardhall_redis_healthy ")]
    return lines[0].split()[1] if lines else None


async def test_ready_with_redis_reports_its_latency_and_the_gauge_is_1(
        stack: AsyncExitStack, redis_url: str, redis_prefix: str) -> None:
    http = await started(stack, redis_url=redis_url, redis_prefix=redis_prefix)
    answer = await http.get("/readyz")
    assert answer.status_code == 200, answer.text
    check = answer.json()["checks"]["redis"]
    assert check["ok"] is True and check["latency_ms"] >= 0
    assert gauge((await http.get("/metrics")).text) == "1.0"


async def test_an_unreachable_redis_makes_the_node_not_ready_and_the_gauge_0(
        stack: AsyncExitStack) -> None:
    http = await started(stack, redis_url=NOBODY_LISTENS)
    answer = await http.get("/readyz")
    assert answer.status_code == 503
    body = answer.json()
    assert body["status"] == "not_ready"
    assert body["checks"]["redis"]["ok"] is False
    assert "ConnectionError" in body["checks"]["redis"]["error"]
    assert body["checks"]["database"]["ok"] is True  # only Redis is at fault
    assert gauge((await http.get("/metrics")).text) == "0.0"
    assert (await http.get("/api/tables")).status_code == 200  # rates fail open


async def test_a_hanging_redis_is_not_ready_within_the_ping_bound() -> None:
    class Hanging:
        async def ping(self) -> None:
            await asyncio.Event().wait()

    class Store:
        async def ping(self) -> None:
            return None

    health = RedisHealth()
    state = SimpleNamespace(store=Store(), writer=SimpleNamespace(queued=0, max_queued=1),
                            redis=Hanging(), redis_health=health)
    t0 = time.monotonic()
    body = await readiness(state, ping_timeout=0.2)
    assert time.monotonic() - t0 < 2.0
    assert body["status"] == "not_ready"
    assert body["checks"]["redis"] == {"ok": False, "error": "TimeoutError"}
    assert health.healthy is False


async def test_without_redis_there_is_no_redis_check_nor_gauge(stack: AsyncExitStack) -> None:
    http = await started(stack)
    assert set((await http.get("/readyz")).json()["checks"]) == {
        "database", "writer", "log", "schema", "draining"}
    assert gauge((await http.get("/metrics")).text) is None
