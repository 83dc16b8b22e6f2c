"""One node of a cluster: leases, the shared registry, routing and failover (``docs/scaling.md``).

**Ownership.** A live table is run by exactly one node, the holder of its lease: the Redis
key ``<p>:lease:<table>`` set if absent (``SET NX PX``) to the node's id and renewed by the
owner every :attr:`ClusterNode.tick_seconds` with a compare-and-``PEXPIRE``. Taking a lease
also bumps the table's epoch in the database (:meth:`~cardhall.storage.interface.Store.
claim_table`), and every log commit of the table is fenced with that epoch: once another node
has claimed the table, a step of the old owner is refused whole (its frames are never sent, its
finished games never saved) and the old owner stops the table (:class:`~cardhall.tables.
messages.Fenced`). So a node that lost its lease (a long pause, a partition) can never append
again, whatever Redis says.

**Registry.** Every tick the owner writes the lobby summary of each of its tables whose
summary changed (``<p>:table:<id>``, expiring after three lease times) and its heartbeat
(``<p>:node:<id>``: tables and sockets, expiring after two lease times): :mod:`.presence`.

**Failover.** Every :attr:`ClusterNode.scan_seconds` a node lists the tables with a live log
(their fence rows) and tries to take each one whose lease is gone: lease, epoch, read the log,
restore (the interrupted decision gets its full time), then it announces ``moved`` on
``<p>:events``; every node then resumes its sockets at that table on the new owner
(:meth:`~.remote.Sockets.rejoin`). A graceful stop releases its leases, so another node takes
its tables at its next scan instead of after the lease time.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import random
import secrets
import socket
from collections.abc import Awaitable, Callable
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialWithJitterBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

from ..config import Settings
from ..storage.interface import Store
from ..tables.manager import TableManager
from ..tables.messages import Fenced
from .authbus import AuthBus
from .bus import Bus
from .failover import Failover
from .keys import Keys
from .ops import node_ops
from .presence import Presence
from .remote import Peers, Sockets
from .routing import Routing
from .rpc import ClusterUnavailableError, Rpc
from .watch import Watch

log = logging.getLogger(__name__)

RENEW = """if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end"""
"""Renew a lease only if this node still holds it."""
RELEASE = """if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1]) else return 0 end"""
"""Delete a lease only if this node still holds it."""


COMMAND_RETRIES = 2
"""Retries of one Redis command that met a broken connection or a timeout (each on a new
connection, after 50-500 ms): a pooled connection Redis dropped costs one retry, not a
failed renewal; a Redis that stays away fails the command after three tries."""


def node_redis(url: str, lease_seconds: float) -> Redis:
    """The node's client for ``url``: every command and connect bounded by half the lease (at
    least 1 s), retried :data:`COMMAND_RETRIES` times on connection errors and timeouts, and
    a connection idle for a lease checked with a ``PING`` before it is used (the pub/sub one
    too), so that a connection broken while Redis was away is dropped, not used."""
    bound = max(1.0, lease_seconds / 2)  # a hung Redis never holds a tick longer
    return Redis.from_url(
        url, decode_responses=True, socket_timeout=bound, socket_connect_timeout=bound,
        health_check_interval=max(1, round(lease_seconds)),
        retry=Retry(ExponentialWithJitterBackoff(base=0.05, cap=0.5), COMMAND_RETRIES),
        retry_on_error=[RedisConnectionError, RedisTimeoutError, OSError])


def default_node_id() -> str:
    """``<host>-<pid>-<random>``: unique per process, readable in logs."""
    return f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"


class ClusterNode(Routing, Watch):
    """This process as a member of the hall (see the module docstring).

    Args:
        settings: ``redis_url``, ``redis_prefix``, ``node_id``, ``lease_seconds``,
            ``cluster_request_timeout_seconds``.
        manager: the node's tables; the node becomes its ``ownership``.
        store: the shared database (fence epochs, the log of tables taken over).
        node_id: this node's name (default ``settings.node_id``, else
            :func:`default_node_id`); the socket quota counts under the same name.
        redis: a client to use instead of one made from ``settings.redis_url``.
    """

    def __init__(self, settings: Settings, manager: TableManager, store: Store, *,
                 node_id: str | None = None, redis: Any = None) -> None:
        assert settings.redis_url is not None or redis is not None
        self.settings = settings
        self.id = node_id or settings.node_id or default_node_id()
        self.keys = Keys(settings.redis_prefix)
        self.redis: Any = redis if redis is not None else node_redis(
            settings.redis_url or "", settings.lease_seconds)
        self.manager, self.store = manager, store
        self.ttl_ms = int(settings.lease_seconds * 1000)
        self.tick_seconds = settings.lease_seconds / 3
        self.scan_seconds = settings.lease_seconds / 4
        self.bus = Bus(self.redis, on_gap=self._bus_gap)
        self.auth = AuthBus(self.bus, self.keys)
        """Identity-cache invalidations to and from the other nodes (``authbus.py``)."""
        self.peers = Peers(self.bus, self.keys)
        self.incarnation = secrets.token_hex(4)
        """Random per process (see :attr:`~.remote.Sockets.incarnation`)."""
        self.sockets = Sockets(self._rejoin, self.incarnation)
        self.rpc = Rpc(self.bus, self.keys, self.id, node_ops(self),
                       settings.cluster_request_timeout_seconds)
        self.owned: dict[str, int] = {}
        """Tables this node holds the lease of -> their epoch."""
        self._tasks: list[asyncio.Task[None]] = []
        self._chores: set[asyncio.Task[Any]] = set()
        self.leases_lost = 0
        self.leaving = False
        """Set when the node stops: it takes no table over any more."""
        self.joined = False
        """Whether the node has subscribed and announced itself (Redis answered)."""
        self._owners: dict[str, str] = {}
        """Cluster mode, holder side: the owner last seen of each table this node's sockets
        sit at elsewhere (a ``moved`` event missed is caught up at the next tick)."""
        self.on_sockets: Callable[[set[str], str], Awaitable[int]] | None = None
        """Closes this node's sockets of these players, for a ban (``banned``) or a
        revocation (``revoked``); how many (set by the app, ``server/sockets.py``)."""
        self._last_tick: float | None = None
        self.failover = Failover(self)
        """The scan that takes over tables whose lease is gone, and the grace after a Redis
        fault (``failover.py``)."""
        self.presence = Presence(self)
        """The table summaries and heartbeats this node writes and reads (``presence.py``)."""
        self._init_watch()
        manager.ownership = self

    @property
    def takeovers(self) -> int:
        """Tables this node took over from a dead node (a counter)."""
        return self.failover.takeovers

    async def scan(self) -> None:
        """Take over every live table whose lease is gone (:meth:`Failover.scan`)."""
        await self.failover.scan()

    # ----- life -----------------------------------------------------------------------------
    async def start(self) -> None:
        """Join the cluster: subscribe, announce, start the tick and the failover scan. When
        Redis does not answer, the node starts anyway (not ready: ``/readyz`` says why) and
        joins as soon as Redis answers; meanwhile it creates no table."""
        loop = asyncio.get_running_loop()
        self.bus.handlers.update({self.keys.to_node(self.id): self._on_node_message,
                                  self.keys.events: self._on_event,
                                  self.keys.auth: self.auth.on_message})
        try:
            await self._join()
        except RedisError as exc:
            log.warning("cluster node %s: Redis does not answer (%s: %s); joining when it "
                        "does", self.id, type(exc).__name__, exc)
            self._tasks.append(loop.create_task(self._join_later(), name="cluster-join"))
        lease = self.settings.lease_seconds  # a renewal or a scan never runs past a lease
        down = self.failover.link_down
        self._tasks += [
            loop.create_task(self._loop(self._tick, self.tick_seconds, lease, down), name="lease"),
            loop.create_task(self._loop(self.scan, self.scan_seconds, lease, down), name="scan")]

    def _bus_gap(self) -> None:
        self._fault_here("its bus lost messages")
        self.auth.gap()

    async def _join(self) -> None:
        await self.redis.ping()
        await self.bus.start(dict(self.bus.handlers))
        await self.presence.heartbeat()
        self.joined = True
        log.info("cluster node %s joined (%s, lease %.1f s)", self.id, self.keys.prefix,
                 self.settings.lease_seconds)

    async def _join_later(self) -> None:
        while not self.joined:
            await asyncio.sleep(1.0)
            with contextlib.suppress(RedisError):
                await self._join()

    def forget_remote_sockets(self) -> None:
        """Before a graceful stop: remote sockets are not told ``table_closed``/``shutdown``
        (their tables move to another node; they rejoin there)."""
        self.leaving = True
        for conn in list(self.peers.conns.values()):
            conn.close()

    async def release_all(self) -> None:
        """Release every lease this node holds (its tables stopped with their logs kept)."""
        await self._settle()
        for table_id in list(self.owned):
            await self._release(table_id)

    async def stop(self) -> None:
        """Leave the cluster (after the tables stopped): leases released, heartbeat removed."""
        for task in self._tasks:
            task.cancel()
        if self._tasks:  # bounded: a task that ignores its cancellation never holds the stop
            await asyncio.wait(self._tasks, timeout=2.0)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._settle(), 2.0)
            for table_id in list(self.owned):
                await self._release(table_id)
            await self.redis.delete(self.keys.node(self.id))
            await self.redis.srem(self.keys.nodes, self.id)
        await self.bus.close()
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    async def _settle(self) -> None:
        while self._chores:
            await asyncio.wait(set(self._chores))

    def _chore(self, coro: Any) -> None:
        """Run ``coro`` on a task of its own; its failure is logged (never left unretrieved)."""
        task = asyncio.get_running_loop().create_task(coro)
        self._chores.add(task)
        task.add_done_callback(self._chore_done)

    def _chore_done(self, task: asyncio.Task[Any]) -> None:
        self._chores.discard(task)
        if not task.cancelled() and (exc := task.exception()) is not None:
            log.warning("cluster: %s failed (%s: %s)", task.get_coro().__qualname__,  # type: ignore[union-attr]
                        type(exc).__name__, exc)

    @staticmethod
    async def _loop(step: Callable[[], Any], every: float, bound: float | None = None,
                    link_down: Callable[[], None] | None = None) -> None:
        """Run ``step`` every ``every`` seconds (jittered), each run bounded by ``bound``
        seconds, logging its failures (a Redis failure calls ``link_down``). A failure while
        the task is being cancelled ends it: redis-py may turn a cancellation into a
        ``TimeoutError`` (its own timeout around a read), and a loop that took that for a
        hiccup would never end, and :meth:`stop` would wait for it forever."""
        while True:
            await asyncio.sleep(every * random.uniform(0.9, 1.1))
            try:
                async with asyncio.timeout(bound):
                    await step()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # Redis or the database hiccups: next time
                task = asyncio.current_task()
                if task is not None and task.cancelling():
                    raise asyncio.CancelledError from exc
                if link_down is not None and isinstance(exc, RedisError | OSError):
                    link_down()
                log.warning("cluster: %s failed (%s: %s)", getattr(step, "__name__", step),
                            type(exc).__name__, exc)

    # ----- ownership (tables/ownership.py) -------------------------------------------------
    async def claim(self, table_id: str) -> int:
        """Take the lease of a new table; returns its epoch (see the module docstring).

        Raises:
            ClusterUnavailableError: Redis does not answer, or the node has not joined yet.
        """
        try:
            taken = self.joined and await self.redis.set(self.keys.lease(table_id), self.id,
                                                         nx=True, px=self.ttl_ms)
        except RedisError as exc:
            raise ClusterUnavailableError(f"the cluster's Redis did not answer "
                                          f"({type(exc).__name__}); no table created") from exc
        if not taken:
            raise ClusterUnavailableError(f"table id {table_id} could not be leased (Redis "
                                          f"unavailable, or the id is taken)")
        epoch = await self.store.claim_table(table_id, self.id)
        self.owned[table_id] = epoch
        await self.bus.subscribe(self.keys.inbox(table_id),
                                 functools.partial(self._on_inbox, table_id))
        return epoch

    def released(self, table_id: str, *, closed: bool) -> None:
        """A table's task ended here (``closed``: for good, its registry entry goes too)."""
        self._chore(self._release_if(table_id, self.owned.get(table_id), closed=closed))

    async def _release_if(self, table_id: str, epoch: int | None, *, closed: bool) -> None:
        """:meth:`_release` unless this node holds another epoch of the table by now (it took
        the table over again before this chore ran: the new lease stays)."""
        if self.owned.get(table_id) == epoch:
            await self._release(table_id, closed=closed)

    async def _release(self, table_id: str, *, closed: bool = False) -> None:
        """Give the lease of ``table_id`` up (and its registry entry when ``closed``)."""
        self.owned.pop(table_id, None)
        self.presence.forget(table_id)
        await self.bus.unsubscribe(self.keys.inbox(table_id))
        await self.redis.eval(RELEASE, 1, self.keys.lease(table_id), self.id)
        if closed:
            await self.redis.delete(self.keys.summary(table_id))
            await self.redis.srem(self.keys.tables, table_id)

    # ----- the tick: leases, registry, heartbeat --------------------------------------------
    async def _tick(self) -> None:
        if not self.joined:
            return
        now = asyncio.get_running_loop().time()
        if self._last_tick is not None and now - self._last_tick > self.settings.lease_seconds:
            self._fault_here(f"no renewal for {now - self._last_tick:.1f} s (paused?)")
        self._last_tick = now
        self._attest()
        owned = list(self.owned)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.ping()
            for table_id in owned:
                pipe.eval(RENEW, 1, self.keys.lease(table_id), self.id, self.ttl_ms)
            renewed = (await pipe.execute())[1:]
        self.failover.link_up()
        for table_id, ok in zip(owned, renewed, strict=True):
            if ok or table_id not in self.owned:
                continue
            # the key is gone (Redis restarted, or expired during a pause): take it again if
            # nobody did; the epoch in the database still fences this node if one did
            if not await self.redis.set(self.keys.lease(table_id), self.id, nx=True,
                                        px=self.ttl_ms):
                self._lost(table_id)
        await self.publish_summaries()
        await self.presence.heartbeat()
        await self._watch_remote(await self._reconcile_owners())

    async def _reconcile_owners(self) -> dict[str, str | None]:
        """Rejoin the tables of this node's sockets whose owner changed without this node
        hearing the ``moved`` event (its Redis link dropped at that moment). Returns the
        lease holder of each of those remote tables (``None``: nobody's)."""
        remote = sorted({t for (_, t) in self.sockets.roles} - set(self.owned))
        owners = await self.redis.mget([self.keys.lease(t) for t in remote]) if remote else []
        for table_id, owner in zip(remote, owners, strict=True):
            seen = self._owners.get(table_id)
            if owner is not None:
                self._owners[table_id] = owner
            if seen is not None and owner is not None and owner != seen:
                log.info("cluster: table %s moved to %s unannounced; rejoining", table_id,
                         owner)
                self.sockets.rejoin(table_id)
        for table_id in set(self._owners) - set(remote):
            del self._owners[table_id]
        return dict(zip(remote, owners, strict=True))

    def _lost(self, table_id: str) -> None:
        """The lease is another node's now: stop the table here at once."""
        self.leases_lost += 1
        self.owned.pop(table_id, None)
        table = self.manager.get(table_id)
        log.warning("cluster: lost the lease of table %s; stopping it here", table_id)
        if table is not None:
            table.post(Fenced())

    # ----- the registry (presence.py) -------------------------------------------------------
    async def publish_summaries(self, only: str | None = None) -> None:
        """Write the summaries that changed (:meth:`.presence.Presence.publish_summaries`)."""
        await self.presence.publish_summaries(only)

    def load(self) -> dict[str, Any]:
        """This node's load figures, its heartbeat (:meth:`.presence.Presence.load`)."""
        return self.presence.load()

    async def nodes(self) -> list[dict[str, Any]]:
        """The live nodes' heartbeats (:meth:`.presence.Presence.nodes`)."""
        return await self.presence.nodes()
