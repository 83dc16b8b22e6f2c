"""Failover of a cluster node (``docs/scaling.md``, "Failover", "Faults"): the scan that takes
over the tables whose lease is gone, and the grace after Redis came back (restarted, or this
node's link to it was down) during which nothing is taken over.

One collaborator of :class:`~.node.ClusterNode` (its :attr:`~.node.ClusterNode.failover`),
which it reaches through the narrow :class:`FailoverNode`.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import random
from typing import TYPE_CHECKING, Any, Protocol

import orjson

if TYPE_CHECKING:
    from ..storage.interface import TableLogStore
    from ..tables.manager import TableManager
    from .bus import Bus
    from .keys import Keys

log = logging.getLogger("cardhall.cluster.node")


class FailoverNode(Protocol):
    """What :class:`Failover` needs of its node (:class:`~.node.ClusterNode`)."""

    id: str
    keys: Keys
    bus: Bus
    redis: Any
    @property
    def store(self) -> TableLogStore: ...
    manager: TableManager
    owned: dict[str, int]
    leaving: bool
    joined: bool
    tick_seconds: float
    ttl_ms: int

    def _fault_here(self, why: str) -> None: ...
    def _on_inbox(self, table_id: str, data: str) -> None: ...
    async def _release(self, table_id: str, *, closed: bool = False) -> None: ...
    async def nodes(self) -> list[dict[str, Any]]: ...
    async def publish_summaries(self, only: str | None = None) -> None: ...


class Failover:
    """The failover of a node (see the module docstring)."""

    def __init__(self, node: FailoverNode) -> None:
        self.node = node
        self.takeovers = 0
        """Tables taken over by this node (a counter)."""
        self.grace_until = 0.0
        """Loop time until which nothing is taken over (and no node's sockets counted gone)."""
        self._link_lost_at: float | None = None
        """When this node's Redis commands started failing (loop time; ``None``: they work)."""
        self._redis_run: str | None = None
        """The ``run_id`` of the Redis server last seen (it changes when Redis restarts)."""

    def link_down(self) -> None:
        """A Redis command of the tick or the scan failed."""
        if self._link_lost_at is None:
            self._link_lost_at = asyncio.get_running_loop().time()

    def link_up(self) -> None:
        """A Redis command answered: after a failure, no takeover for two renewal intervals
        (every lease may have expired meanwhile while its owner is alive: each owner takes
        its own back first, as after a Redis restart) and no node's sockets counted gone
        (their heartbeats may not be written yet), and every remote socket of this node is
        re-attached at the next renewal (``cluster/watch.py``)."""
        if self._link_lost_at is None:
            return
        now = asyncio.get_running_loop().time()
        down, self._link_lost_at = now - self._link_lost_at, None
        self.grace_until = max(self.grace_until, now + 2 * self.node.tick_seconds)
        self.node._fault_here(f"its Redis link was down {down:.1f} s")
        log.warning("cluster: Redis answers again after %.1f s; no takeover for %.1f s while "
                    "owners take their leases back", down, 2 * self.node.tick_seconds)

    # ----- failover --------------------------------------------------------------------------
    async def scan(self) -> None:
        """Take over every live table whose lease is gone (see the module docstring). Right
        after Redis restarted (its ``run_id`` changed: every lease is gone at once, their owners
        alive) no table is taken for one renewal interval, so that each owner takes its own
        leases back first instead of every table moving."""
        if self.node.leaving or not self.node.joined:
            return
        if await self._redis_restarted():
            return
        await self.node.nodes()
        claimed = [t for t in await self.node.store.claimed_tables() if t not in self.node.owned]
        if not claimed:
            return
        holders = await self.node.redis.mget([self.node.keys.lease(t) for t in claimed])
        orphans = [t for t, h in zip(claimed, holders, strict=True) if h is None]
        random.shuffle(orphans)  # survivors share a dead node's tables
        for table_id in orphans:
            await self.take_over(table_id)

    async def _redis_restarted(self) -> bool:
        """Whether Redis restarted less than a renewal interval (and a bit) ago."""
        run_id = (await self.node.redis.info("server")).get("run_id")
        self.link_up()
        now = asyncio.get_running_loop().time()
        if self._redis_run is not None and run_id != self._redis_run:
            log.warning("cluster: Redis restarted; no takeover for %.1f s while owners take "
                        "their leases back", 1.5 * self.node.tick_seconds)
            self.grace_until = now + 1.5 * self.node.tick_seconds
        self._redis_run = run_id
        return now < self.grace_until

    async def take_over(self, table_id: str) -> bool:
        """Lease, claim, restore and announce ``table_id``; False if another node has it."""
        if not await self.node.redis.set(self.node.keys.lease(table_id), self.node.id, nx=True,
                                    px=self.node.ttl_ms):
            return False
        try:
            epoch = await self.node.store.claim_table(table_id, self.node.id)
            self.node.owned[table_id] = epoch
            await self.node.bus.subscribe(self.node.keys.inbox(table_id),
                                     functools.partial(self.node._on_inbox, table_id))
            table = await self.node.manager.restore_table(table_id, epoch)
        except Exception:
            log.exception("cluster: taking table %s over failed; releasing it", table_id)
            await self.node._release(table_id)
            return False
        if table is None:  # no log left (closed meanwhile) or aborted: nothing runs
            await self.node._release(table_id, closed=True)
            return False
        self.takeovers += 1
        await self.node.publish_summaries(only=table_id)
        self.node.bus.publish(self.node.keys.events, "M " + orjson.dumps(
            {"t": table_id, "n": self.node.id, "e": epoch}).decode())
        log.info("cluster: took table %s over (epoch %d)", table_id, epoch)
        return True
