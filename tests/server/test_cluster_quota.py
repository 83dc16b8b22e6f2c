"""The socket quota over the cluster (``server/clusterquota.py``, ``docs/scaling.md``).

Two quota objects on two clients of one Redis are two nodes: ``max_sockets_per_player`` counts
a player's sockets on both; a node that stops refreshing (crashed) stops counting after its
TTL; a Redis that lost its keys is filled again by the next refresh; a Redis that does not
answer leaves each node counting its own sockets. Then the same through two real servers.
Needs Redis (``redis_url`` skips without one).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
import redis.asyncio as aioredis
from livesrv import client, live_server
from websockets.exceptions import ConnectionClosed

from cardhall.server.clusterquota import RedisSocketQuota
from cardhall.server.redisconn import make_redis
from cardhall.server.ws import CLOSE_QUOTA_SOCKETS

BOUND_SECONDS = 10.0
"""The longest any awaited condition may take before the test fails."""

Nodes = Callable[..., RedisSocketQuota]


@pytest.fixture
async def node(redis_url: str, redis_prefix: str) -> AsyncIterator[Nodes]:
    """``node("a", limit=3, ttl_seconds=5)`` -> a quota object of node ``a`` on a client of its
    own; every client is closed afterwards (a node that was never started nor stopped has
    "crashed": its counts stay in Redis until they expire)."""
    clients: list[aioredis.Redis] = []

    def make(name: str, *, limit: int = 3, ttl_seconds: float = 5.0) -> RedisSocketQuota:
        clients.append(make_redis(redis_url))
        return RedisSocketQuota(clients[-1], limit, prefix=redis_prefix, node_id=name,
                                ttl_seconds=ttl_seconds)

    yield make
    for c in clients:
        await c.aclose()


async def eventually(predicate: Callable[[], Any], what: str) -> float:
    """Poll the async ``predicate`` until it is true; the seconds it took (fails after
    :data:`BOUND_SECONDS`)."""
    t0 = time.monotonic()
    try:
        async with asyncio.timeout(BOUND_SECONDS):
            while not await predicate():
                await asyncio.sleep(0.02)  # polling a condition, bounded
    except TimeoutError:
        pytest.fail(f"not within {BOUND_SECONDS} s: {what}")
    return time.monotonic() - t0


async def test_the_limit_counts_the_sockets_of_every_node(node: Nodes) -> None:
    a, b = node("a"), node("b")
    assert await a.acquire("ana") and await a.acquire("ana")
    assert await b.acquire("ana")
    assert not await b.acquire("ana") and not await a.acquire("ana")  # 3 held over 2 nodes
    assert await b.acquire("bob")  # another player is not affected
    await a.release("ana")
    assert a.open == {"ana": 1} and b.open == {"ana": 1, "bob": 1}
    assert await b.acquire("ana")  # the place a gave back is free on b
    assert not await a.acquire("ana")


async def test_concurrent_acquires_on_two_nodes_never_pass_the_limit(node: Nodes) -> None:
    a, b = node("a", limit=5), node("b", limit=5)
    results = await asyncio.gather(*(q.acquire("ana") for q in (a, b) for _ in range(6)))
    assert sum(results) == 5
    assert a.open.get("ana", 0) + b.open.get("ana", 0) == 5


async def test_a_crashed_nodes_sockets_stop_counting_after_its_ttl(node: Nodes) -> None:
    crashed, alive = node("crashed", limit=2, ttl_seconds=0.5), node("alive", limit=2)
    assert await crashed.acquire("ana") and await crashed.acquire("ana")
    assert not await alive.acquire("ana")
    took = await eventually(lambda: alive.acquire("ana"), "the crashed node's counts expire")
    assert took <= 0.5 + 2.0  # the TTL, plus slack for a loaded machine


async def test_a_running_node_keeps_its_counts_alive_past_the_ttl(node: Nodes) -> None:
    running, other = node("running", limit=1, ttl_seconds=0.5), node("other", limit=1)
    await running.start()
    try:
        assert await running.acquire("ana")
        deadline = time.monotonic() + 1.5  # three TTLs: refreshed every third of one
        while time.monotonic() < deadline:
            assert not await other.acquire("ana"), "the running node's count expired"
            await asyncio.sleep(0.05)
    finally:
        await running.stop()
    assert await other.acquire("ana")  # stop withdrew its counts at once


async def test_a_refresh_writes_the_counts_again_after_redis_lost_them(
        node: Nodes, redis_url: str, redis_prefix: str) -> None:
    a, b = node("a", limit=1, ttl_seconds=0.6), node("b", limit=1)
    await a.start()
    try:
        assert await a.acquire("ana")
        raw = make_redis(redis_url)
        try:
            await raw.delete(f"{redis_prefix}:sockets:a", f"{redis_prefix}:socket-nodes")
        finally:
            await raw.aclose()

        async def refused() -> bool:
            if await b.acquire("ana"):
                await b.release("ana")
                return False
            return True

        await eventually(refused, "node a's refresh puts its count back")
    finally:
        await a.stop()


async def test_without_redis_each_node_counts_its_own_sockets() -> None:
    down = make_redis("redis://127.0.0.1:1/0", timeout_seconds=0.5)  # nothing listens there
    try:
        quota = RedisSocketQuota(down, 2, prefix="cardhall-test-down", node_id="a",
                                 ttl_seconds=1.0)
        assert await quota.acquire("ana") and await quota.acquire("ana")
        assert not await quota.acquire("ana")
        assert quota.health.healthy is False and quota.health.error
        await quota.release("ana")
        assert quota.open == {"ana": 1}
        await quota.stop()  # never raises for Redis
    finally:
        await down.aclose()


@contextlib.asynccontextmanager
async def two_nodes(redis_url: str, redis_prefix: str, db: Path,
                    **settings: Any) -> AsyncIterator[tuple[Any, Any]]:
    """Two real servers (uvicorn, loopback) on one SQLite file and one Redis."""
    common = {"database_url": f"sqlite+aiosqlite:///{db}", "durable_tables": False,
              "redis_url": redis_url, "redis_prefix": redis_prefix, **settings}
    async with live_server(node_id="n1", **common) as one, \
            live_server(node_id="n2", **common) as two:
        yield one, two


async def test_two_servers_share_a_players_socket_quota(
        redis_url: str, redis_prefix: str, tmp_path: Path) -> None:
    async with two_nodes(redis_url, redis_prefix, tmp_path / "hall.db",
                         max_sockets_per_player=2) as (one, two):
        assert isinstance(one.app.state.socket_quota, RedisSocketQuota)
        _, token = await one.player("ana")
        async with client(one, token), client(two, token), client(two) as third:
            await third.send({"type": "hello", "token": token, "rid": "h"})
            assert (await third.expect("error"))["code"] == "quota.sockets"
            with pytest.raises(ConnectionClosed) as info:
                await third.recv()
            assert info.value.rcvd is not None
            assert info.value.rcvd.code == CLOSE_QUOTA_SOCKETS
        quota = two.app.state.socket_quota

        async def released() -> bool:
            return not quota.open and not one.app.state.socket_quota.open

        await eventually(released, "both servers give the places back")
        async with client(two, token), client(two, token):
            pass  # both places are free again
