"""The Redis pub/sub link of one node (``docs/scaling.md``, "How it works").

Pub/sub rather than streams: every message on it is transient. A frame that is lost (a node
restarting) is made good by the full state every resume and resync sends, the table log in
the database is the only durable record, and nothing with hidden cards should sit in Redis.
Pub/sub is also the cheapest hop: one ``PUBLISH`` per message, no trimming, no acks.

One subscriber connection reads every channel the node listens on and hands each message to
the handler registered for its channel, on the subscriber's task (handlers never block). One
publisher task sends everything queued with :meth:`Bus.publish`, in order, pipelined: the
frames a table step makes for the sockets of one node leave as one message.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)

Handler = Callable[[str], None]
"""Called with a message's data (text) on the subscriber's task."""
Unheard = Callable[[], None]
"""Called (on the publisher's task) when a message reached no subscriber."""


class Bus:
    """Subscriptions and an ordered publisher over one ``redis.asyncio`` client.

    Args:
        redis: a ``redis.asyncio.Redis`` with ``decode_responses=True``.
        on_gap: called (on the reader's task) when the subscriber reads again after its
            connection failed: messages sent meanwhile are lost.
    """

    def __init__(self, redis: Any, on_gap: Callable[[], None] | None = None) -> None:
        self.redis = redis
        self.on_gap = on_gap
        self._broken = False
        self.pubsub = redis.pubsub(ignore_subscribe_messages=True)
        self.handlers: dict[str, Handler] = {}
        self._queue: deque[tuple[str, str, Unheard | None]] = deque()
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self.published = 0
        """Messages sent (a counter)."""
        self.received = 0

    @property
    def listening(self) -> bool:
        """Whether the subscriber is reading: False from a failed read until a read succeeds
        again (its connection back, every channel subscribed again). What is published to
        this node meanwhile is lost; the read that ends it calls ``on_gap``."""
        return not self._broken

    async def start(self, channels: dict[str, Handler]) -> None:
        """Subscribe to ``channels`` and start the reader and the publisher."""
        self.handlers.update(channels)
        await self.pubsub.subscribe(*channels)
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._read(), name="cluster-bus-read"),
                       loop.create_task(self._publish(), name="cluster-bus-publish")]

    async def subscribe(self, channel: str, handler: Handler) -> None:
        self.handlers[channel] = handler
        await self.pubsub.subscribe(channel)

    async def unsubscribe(self, channel: str) -> None:
        if self.handlers.pop(channel, None) is not None:
            with contextlib.suppress(Exception):
                await self.pubsub.unsubscribe(channel)

    def publish(self, channel: str, data: str, unheard: Unheard | None = None) -> None:
        """Queue ``data`` for ``channel`` (never blocks; sent in order by the publisher, every
        message queued meanwhile in one pipeline). ``unheard`` runs when nobody subscribed to
        ``channel`` received it (``PUBLISH`` answered 0), or when it could not be sent."""
        self._queue.append((channel, data, unheard))
        self._wake.set()

    async def flush(self, timeout: float = 2.0) -> None:
        """Wait (at most ``timeout`` seconds) until everything queued was sent."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while (self._queue or self._wake.is_set()) and loop.time() < end:
            await asyncio.sleep(0.005)

    async def close(self) -> None:
        await self.flush()
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        with contextlib.suppress(Exception):
            await self.pubsub.aclose()

    async def _read(self) -> None:
        while True:
            try:
                msg = await self.pubsub.get_message(timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # Redis went away: redis-py reconnects and resubscribes
                if not self._broken:
                    log.warning("cluster bus: read failed (%s: %s); retrying",
                                type(exc).__name__, exc)
                self._broken = True
                await asyncio.sleep(0.5)
                continue
            if self._broken:
                self._broken = False
                log.info("cluster bus: reading again (messages sent meanwhile are lost)")
                if self.on_gap is not None:
                    self.on_gap()
            if msg is None or msg.get("type") != "message":
                continue
            self.received += 1
            handler = self.handlers.get(msg["channel"])
            if handler is None:
                continue
            try:
                handler(msg["data"])
            except Exception:  # a bug in one handler must not stop the node's bus
                log.exception("cluster bus: handler of %s failed", msg["channel"])

    async def _publish(self) -> None:
        while True:
            if not self._queue:
                self._wake.clear()
                await self._wake.wait()
                continue
            batch = list(self._queue)
            self._queue.clear()
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for channel, data, _ in batch:
                        pipe.publish(channel, data)
                    heard = await pipe.execute()
                self.published += len(batch)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # Redis is down: these messages are lost (see module)
                log.warning("cluster bus: %d messages not published (%s: %s)", len(batch),
                            type(exc).__name__, exc)
                heard = [0] * len(batch)
                await asyncio.sleep(0.2)
            for (_, _, unheard), n in zip(batch, heard, strict=True):
                if unheard is not None and not n:
                    try:
                        unheard()
                    except Exception:  # a bug in one callback must not stop the publisher
                        log.exception("cluster bus: an unheard callback failed")
