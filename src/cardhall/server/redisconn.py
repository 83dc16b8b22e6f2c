"""The server's Redis connection in cluster mode (``CARDHALL_REDIS_URL``, ``docs/scaling.md``).

One ``redis.asyncio.Redis`` per app (``app.state.redis``, ``None`` without a Redis URL): the
shared rate counts, the cluster-wide socket quota and the readiness check use its connection
pool. Every command is bounded (:data:`REDIS_TIMEOUT_SECONDS`, connecting included), so a Redis
that stops answering costs a request at most that long, never a hung socket.

:class:`RedisHealth` remembers how the last Redis command went, for the
``cardhall_redis_healthy`` gauge (``server/collectors.py``): the readiness check and the socket
quota's refresh (every third of ``lease_seconds``) keep it current.
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
import time

import redis.asyncio as aioredis

from ..config import Settings

log = logging.getLogger(__name__)

REDIS_TIMEOUT_SECONDS = 1.0
"""Bound of one Redis command (and of connecting), seconds."""


def make_redis(url: str, timeout_seconds: float = REDIS_TIMEOUT_SECONDS) -> aioredis.Redis:
    """A client for ``url`` (``redis://host:port/db``) whose connects and commands each give
    up after ``timeout_seconds`` (``redis.exceptions.TimeoutError``). Nothing connects until
    the first command. Raises ``ValueError`` for a URL redis-py cannot read."""
    return aioredis.Redis.from_url(url, socket_timeout=timeout_seconds,
                                   socket_connect_timeout=timeout_seconds,
                                   health_check_interval=30)


def node_name(settings: Settings) -> str:
    """This process's node id: ``settings.node_id`` when set, else ``<host>-<pid>-<6 hex>``
    (unique per process, so workers of one machine never share one)."""
    if settings.node_id:
        return settings.node_id
    return f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"


class RedisHealth:
    """How the last Redis command of this process went.

    ``healthy`` is ``None`` until something talked to Redis, then whether the last command
    answered; ``error`` is the last failure (``"<exception class>: <message>"``) and
    ``changed_at`` the ``time.monotonic()`` of the last change of ``healthy``. A change is
    logged once (a warning when Redis is lost, info when it answers again), not per command.
    """

    def __init__(self) -> None:
        self.healthy: bool | None = None
        self.error: str | None = None
        self.changed_at = time.monotonic()

    def ok(self) -> None:
        """A Redis command answered."""
        if self.healthy is False:
            log.info("redis answers again")
        self._set(True)

    def failed(self, exc: BaseException) -> None:
        """A Redis command failed with ``exc`` (or timed out)."""
        self.error = f"{type(exc).__name__}: {exc}".splitlines()[0][:200]
        if self.healthy is not False:
            log.warning("redis unreachable (%s); cluster-wide counts fall back to this "
                        "process's", self.error)
        self._set(False)

    def _set(self, healthy: bool) -> None:
        if healthy != self.healthy:
            self.changed_at = time.monotonic()
        self.healthy = healthy
