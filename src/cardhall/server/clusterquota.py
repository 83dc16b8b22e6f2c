"""Authenticated sockets per player over the whole cluster (cluster mode, ``docs/scaling.md``).

:class:`RedisSocketQuota` is the :class:`~cardhall.server.quotas.SocketQuota` of a node in
cluster mode: ``max_sockets_per_player`` bounds a player's sockets on every node together.

Keys (``<prefix>`` is ``CARDHALL_REDIS_PREFIX``):

* ``<prefix>:sockets:<node id>``: a hash, player id -> that node's sockets of the player. Its
  TTL is ``lease_seconds``; the node rewrites it whole every third of that (:meth:`refresh`),
  so a node that dies or loses Redis stops counting after at most ``lease_seconds``, and a
  Redis that restarted empty is filled again within a third of it.
* ``<prefix>:socket-nodes``: a sorted set of the nodes holding sockets, scored by when their
  hash expires (Redis's own clock, ``TIME``), so an acquire sums the live nodes' hashes only.

A node's own count (:attr:`RedisSocketQuota.open`) is the truth for its sockets; Redis holds
a copy the others can read. An acquire is one Lua script (read the other live nodes' counts,
then write this node's new count), atomic in Redis; a node's acquires and releases of one
player take turns, so its writes of that player's count are in order, and a refresh (a full
rewrite of the node's hash) waits until no acquire or release is under way and holds new
ones back meanwhile (one round trip every ``lease_seconds / 3``), so it never writes back a
count older than Redis has. When Redis does not answer, the node counts its own sockets only
(the cluster-wide bound is then per node) and says so once in the log: a quota protects the
hall, it must not take it down; the next refresh that gets through puts the counts right.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from .quotas import give_back
from .redisconn import RedisHealth

log = logging.getLogger(__name__)

ACQUIRE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local total = tonumber(ARGV[4])
for _, other in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  if other ~= ARGV[2] then
    total = total + tonumber(redis.call('HGET', ARGV[1] .. other, ARGV[3]) or '0')
  end
end
if total + 1 > tonumber(ARGV[5]) then return 0 end
redis.call('HSET', KEYS[2], ARGV[3], tonumber(ARGV[4]) + 1)
redis.call('PEXPIRE', KEYS[2], ARGV[6])
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[6]), ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[6])
return 1
"""
"""KEYS: the node set, this node's hash. ARGV: ``<prefix>:sockets:``, node id, player id,
this node's count of the player now, the limit, the TTL in ms. 1 when counted, else 0."""

SET_COUNT = """
if tonumber(ARGV[2]) > 0 then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
else
  redis.call('HDEL', KEYS[1], ARGV[1])
end
return 1
"""
"""KEYS: this node's hash. ARGV: player id, this node's count of the player (0: gone)."""

REFRESH = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('DEL', KEYS[2])
if #ARGV <= 2 then
  redis.call('ZREM', KEYS[1], ARGV[2])
  return 0
end
for i = 3, #ARGV, 2 do redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1]) end
redis.call('PEXPIRE', KEYS[2], ARGV[1])
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[1]), ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1
"""
"""KEYS: the node set, this node's hash. ARGV: the TTL in ms, node id, then player id and
count pairs (none: this node holds no socket and leaves the set)."""


class RedisSocketQuota:
    """:class:`~cardhall.server.quotas.SocketQuota` over every node sharing ``client``'s
    Redis and ``prefix`` (see the module for the keys).

    Args:
        client: the app's Redis client (``server/redisconn.py``: its commands are bounded).
        limit: sockets one player may hold on all nodes together (>= 1).
        prefix: ``CARDHALL_REDIS_PREFIX``.
        node_id: this node's id (unique in the cluster).
        ttl_seconds: how long this node's counts outlive its last refresh (``lease_seconds``);
            it refreshes every third of that.
        health: where Redis's answers are reported (the ``cardhall_redis_healthy`` gauge).
    """

    def __init__(self, client: aioredis.Redis, limit: int, *, prefix: str, node_id: str,
                 ttl_seconds: float, health: RedisHealth | None = None) -> None:
        self.client, self.limit, self.node_id = client, limit, node_id
        self.ttl_ms = max(1, round(ttl_seconds * 1000))
        self.nodes_key = f"{prefix}:socket-nodes"
        self.hash_prefix = f"{prefix}:sockets:"
        self.hash_key = f"{self.hash_prefix}{node_id}"
        self.health = health if health is not None else RedisHealth()
        self.open: dict[str, int] = {}
        """This node's sockets per player id (the truth Redis holds a copy of)."""
        self._turns: dict[str, tuple[asyncio.Lock, list[int]]] = {}
        self._gate = asyncio.Condition()
        self._ops = 0  # acquires and releases talking to Redis now
        self._refresh_waiting = False
        self._refreshing = False
        self._acquire = client.register_script(ACQUIRE)
        self._set_count = client.register_script(SET_COUNT)
        self._refresh = client.register_script(REFRESH)
        self._task: asyncio.Task[None] | None = None

    @contextlib.asynccontextmanager
    async def _turn(self, player_id: str) -> AsyncIterator[None]:
        """Hold ``player_id``'s turn: its Redis writes from this node happen one at a time,
        and none while a refresh rewrites the node's hash."""
        lock, users = self._turns.setdefault(player_id, (asyncio.Lock(), [0]))
        users[0] += 1
        try:
            async with lock:
                async with self._gate:
                    await self._gate.wait_for(
                        lambda: not self._refreshing and not self._refresh_waiting)
                    self._ops += 1
                try:
                    yield
                finally:
                    async with self._gate:
                        self._ops -= 1
                        self._gate.notify_all()
        finally:
            users[0] -= 1
            if users[0] == 0:
                del self._turns[player_id]

    @contextlib.asynccontextmanager
    async def _alone(self) -> AsyncIterator[None]:
        """Hold the node's counts still: no acquire or release is under way meanwhile (new
        ones wait, so a steady stream of them cannot hold a refresh off)."""
        async with self._gate:
            self._refresh_waiting = True
            try:
                await self._gate.wait_for(lambda: self._ops == 0 and not self._refreshing)
            finally:
                self._refresh_waiting = False
            self._refreshing = True
        try:
            yield
        finally:
            async with self._gate:
                self._refreshing = False
                self._gate.notify_all()

    async def acquire(self, player_id: str) -> bool:
        """Take a place for one more socket of ``player_id``: ``False`` when the live nodes
        together (this one included) hold ``limit`` of its sockets. Without Redis, only this
        node's sockets count. Never raises for Redis."""
        async with self._turn(player_id):
            held = self.open.get(player_id, 0)
            if held >= self.limit:
                return False
            try:
                counted = await self._acquire(
                    keys=[self.nodes_key, self.hash_key],
                    args=[self.hash_prefix, self.node_id, player_id, held, self.limit,
                          self.ttl_ms])
            except (RedisError, OSError) as exc:
                self.health.failed(exc)
                counted = 1
            else:
                self.health.ok()
            if not counted:
                return False
            # a release may have run meanwhile (it does not wait for this turn to count down)
            self.open[player_id] = self.open.get(player_id, 0) + 1
            return True

    async def release(self, player_id: str) -> None:
        """Give back one place of ``player_id``: at once for this node, then in Redis (a
        failure there is left to the next refresh). Never raises for Redis."""
        give_back(self.open, player_id)
        async with self._turn(player_id):
            left = self.open.get(player_id, 0)  # later acquires may have run meanwhile
            try:
                await self._set_count(keys=[self.hash_key], args=[player_id, left])
            except (RedisError, OSError) as exc:
                self.health.failed(exc)

    async def refresh(self) -> None:
        """Write this node's counts to Redis anew and renew their TTL (leave the node set
        when it holds no socket). Raises ``redis.exceptions.RedisError`` (or ``OSError``)
        when Redis does not answer."""
        async with self._alone():
            args: list[Any] = [self.ttl_ms, self.node_id]
            for player_id, held in self.open.items():
                args += [player_id, held]
            await self._refresh(keys=[self.nodes_key, self.hash_key], args=args)

    async def start(self) -> None:
        """Start refreshing every ``ttl_seconds / 3`` (one task, ended by :meth:`stop`)."""
        if self._task is None:
            self._task = asyncio.create_task(self._refresher(), name="socket-quota-refresh")

    async def stop(self) -> None:
        """Stop refreshing and withdraw this node's counts from Redis (bounded by the
        client's timeout; a Redis that does not answer lets them expire instead)."""
        task, self._task = self._task, None
        if task is not None:  # bounded, and its end retrieved whatever it was: a stop never
            task.cancel()     # raises (a failed shutdown) for the refresher
            await asyncio.wait({task}, timeout=2.0)
            if task.done() and not task.cancelled() and task.exception() is not None:
                log.info("socket quota: the refresher ended with %r", task.exception())
        try:
            async with self.client.pipeline(transaction=True) as pipe:
                pipe.delete(self.hash_key)
                pipe.zrem(self.nodes_key, self.node_id)
                await pipe.execute()
        except (RedisError, OSError) as exc:
            log.info("socket quota: could not withdraw %s's counts (%s); they expire",
                     self.node_id, exc)

    async def _refresher(self) -> None:
        interval = self.ttl_ms / 3000
        while True:
            try:
                await self.refresh()
            except (RedisError, OSError) as exc:
                task = asyncio.current_task()
                if task is not None and task.cancelling():  # redis-py turned the stop's
                    raise asyncio.CancelledError from exc   # cancellation into a timeout
                self.health.failed(exc)
            else:
                self.health.ok()
            await asyncio.sleep(interval)
