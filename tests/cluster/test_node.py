"""One cluster node in process, over a real Redis (``cluster/node.py``): a lost lease stops the
table at once; an orphaned table is taken over, restored and listed with its new owner."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack

import orjson
import pytest

from cardhall.cluster.node import ClusterNode
from cardhall.config import Settings
from cardhall.storage.log import TableLog
from cardhall.storage.memory import MemoryStore
from cardhall.tables.clock import FakeClock
from cardhall.tables.manager import TableManager


@pytest.fixture
async def stack() -> AsyncIterator[AsyncExitStack]:
    async with AsyncExitStack() as s:
        yield s


async def _node(stack: AsyncExitStack, store: MemoryStore, name: str, redis_url: str,
                prefix: str) -> ClusterNode:
    settings = Settings(database_url="memory://", redis_url=redis_url, redis_prefix=prefix,
                        lease_seconds=30.0, insecure_fixed_seed="node-test",
                        bot_delay_seconds=0.5)
    log = TableLog(store)
    log.start()
    stack.push_async_callback(log.close, 2.0)
    manager = TableManager(settings, store, FakeClock(), log=log)
    node = ClusterNode(settings, manager, store, node_id=name)
    await node.start()
    stack.push_async_callback(node.stop)
    await manager.start(restore_all=False)
    stack.push_async_callback(manager.stop)
    return node


async def test_a_lost_lease_stops_the_table_here(stack: AsyncExitStack, redis_url: str,
                                                 redis_prefix: str) -> None:
    store = MemoryStore()
    node = await _node(stack, store, "a", redis_url, redis_prefix)
    table = await node.manager.create("bazaar_blot", bots={s: "rule" for s in range(4)})
    assert node.owned == {table.id: 1} and table.lease_epoch == 1
    assert await node.redis.get(node.keys.lease(table.id)) == "a"
    await node.redis.set(node.keys.lease(table.id), "b")  # another node holds it now
    task = node.manager.tasks[table.id]
    await node._tick()
    await asyncio.wait_for(task, 5)  # the table stops (Fenced) at once
    assert table.fenced_out and node.leases_lost == 1 and table.id not in node.owned


async def test_an_orphaned_table_is_taken_over_and_listed_with_its_owner(
        stack: AsyncExitStack, redis_url: str, redis_prefix: str) -> None:
    store = MemoryStore()
    a = await _node(stack, store, "a", redis_url, redis_prefix)
    table = await a.manager.create("palace_poker", num_seats=3,
                                   bots={s: "rule" for s in range(3)})
    await a.publish_summaries()
    for _ in range(50):  # let the bots deal and bet a little (bounded)
        await table.inbox.join()
        await a.manager.log.flush(2.0)  # type: ignore[union-attr]
        if table.version > 5:
            break
        await asyncio.sleep(0)
    # node a "dies": its task is cancelled, its lease is gone (it expired)
    a.leaving = True
    a.manager.tasks[table.id].cancel()
    await a.redis.delete(a.keys.lease(table.id))
    b = await _node(stack, store, "b", redis_url, redis_prefix)
    await b.scan()
    assert b.takeovers == 1 and b.owned == {table.id: 2}
    restored = b.manager.get(table.id)
    assert restored is not None and restored.version >= 1_000_000
    summary = orjson.loads(await b.redis.get(b.keys.summary(table.id)))
    assert summary["node"] == "b" and summary["version"] == restored.version
    assert await b.redis.get(b.keys.lease(table.id)) == "b"
    await b.scan()  # a second scan finds nothing to take
    assert b.takeovers == 1
