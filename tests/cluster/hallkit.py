"""In-process cluster nodes for the attack tests (``docs/scaling.md``): each node is a
:class:`~cardhall.tables.manager.TableManager` with its table log, a real
:class:`~cardhall.cluster.node.ClusterNode` on the test Redis and a
:class:`~cardhall.cluster.hall.ClusterHall`, all sharing one :class:`MemoryStore` (the
database). Faster than the process tests of ``tests/server/clusterkit.py`` and able to look
inside a node (its peers, its sockets) while it runs.

    async with hall(redis_url, redis_prefix, 2) as (a, b):
        ...
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Any

from cardhall.cluster.hall import ClusterHall
from cardhall.cluster.node import ClusterNode
from cardhall.config import Settings
from cardhall.protocol import messages as p
from cardhall.storage.log import TableLog
from cardhall.storage.memory import MemoryStore
from cardhall.tables.connections import QueueConnection, encode
from cardhall.tables.manager import TableManager

LEASE_SECONDS = 1.0


class InNode:
    """One node of an in-process hall."""

    def __init__(self, store: MemoryStore, redis_url: str, prefix: str, name: str,
                 **settings: Any) -> None:
        self.name = name
        self.settings = Settings(**{
            "database_url": "memory://", "redis_url": redis_url, "redis_prefix": prefix,
            "node_id": name, "lease_seconds": LEASE_SECONDS,
            "cluster_request_timeout_seconds": 1.0, "bot_delay_seconds": 0.01,
            "next_hand_pause_seconds": 0.05, "insecure_fixed_seed": "hallkit",
            "max_live_tables_per_player": 100, **settings})
        self.store = store
        self.log = TableLog(store)
        self.manager = TableManager(self.settings, store, log=self.log)
        self.node = ClusterNode(self.settings, self.manager, store)
        self.hall = ClusterHall(self.manager, self.node)
        self.running = False

    async def start(self) -> None:
        self.log.start()
        await self.node.start()
        await self.manager.start(restore_all=False)
        self.running = True

    async def stop(self) -> None:
        """A graceful stop (as the app's lifespan does it)."""
        if not self.running:
            return
        self.running = False
        self.node.forget_remote_sockets()
        await self.manager.stop()
        await self.node.stop()
        await self.log.close(timeout=2.0)

    async def crash(self) -> None:
        """Stop as a killed process would: no lease released, no heartbeat removed."""
        self.running = False
        await self.log.flush(2.0)
        for task in [*self.node._tasks, *self.manager.tasks.values()]:
            task.cancel()
        for task in [*self.node._tasks, *self.manager.tasks.values()]:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.manager.tables.clear()
        self.manager.tasks.clear()
        await self.node.bus.close()
        with contextlib.suppress(Exception):
            await self.node.redis.aclose()
        await self.log.close(timeout=1.0)

    async def socket(self, name: str) -> QueueConnection:
        """A new authenticated socket of this node (as the ws handler makes one)."""
        player, _ = await self.store.create_player(name)
        conn = QueueConnection(player, 10_000)
        self.hall.watch(conn)
        return conn

    async def send(self, conn: QueueConnection, msg: dict[str, Any]) -> None:
        await self.hall.route(conn, p.CLIENT.validate_python(msg))

    async def gone(self, conn: QueueConnection) -> None:
        """The socket closed (as the ws handler's end does it)."""
        await self.hall.disconnected(conn)
        conn.close()


def frames(conn: QueueConnection) -> list[dict[str, Any]]:
    """Everything queued for ``conn`` so far, decoded (the queue is emptied)."""
    import orjson

    out = []
    while not conn.queue.empty():
        msg = conn.queue.get_nowait()
        text = encode(msg)
        if text:
            with contextlib.suppress(Exception):
                out.append(orjson.loads(text))
    return out


async def until(check: Callable[[], Any], timeout: float = 10.0, what: str = "") -> Any:
    """Poll ``check`` (every 20 ms) until it returns something truthy; fail after
    ``timeout``."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        value = check()
        if asyncio.iscoroutine(value):
            value = await value
        if value:
            return value
        if loop.time() > end:
            raise AssertionError(f"timed out waiting for {what or check}")
        await asyncio.sleep(0.02)


class Inbox:
    """The frames a socket got, collected as they come (``got`` filters them)."""

    def __init__(self, conn: QueueConnection) -> None:
        self.conn = conn
        self.all: list[dict[str, Any]] = []

    def read(self) -> list[dict[str, Any]]:
        self.all.extend(frames(self.conn))
        return self.all

    def got(self, kind: str, **match: Any) -> list[dict[str, Any]]:
        return [f for f in self.read() if f.get("type") == kind
                and all(f.get(k) == v for k, v in match.items())]


@contextlib.asynccontextmanager
async def hall(redis_url: str, prefix: str, n: int,
               **settings: Any) -> AsyncIterator[list[InNode]]:
    """``n`` started nodes ``a``, ``b``, ... sharing one store (stopped afterwards)."""
    store = MemoryStore()
    nodes = [InNode(store, redis_url, prefix, chr(97 + i), **settings) for i in range(n)]
    try:
        for node in nodes:
            await node.start()
        yield nodes
    finally:
        for node in nodes:
            with contextlib.suppress(Exception):
                await node.stop()
