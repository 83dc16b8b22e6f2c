"""Quotas and rate limits (``docs/rest.md``, "Limits"; ``docs/protocol.md``, "Limits").

Two kinds, kept apart on purpose:

* **Rates** per client address, counted by the ``limits`` library with its sliding window
  counter (two counters per key and window, the previous window's weighted by how much of it
  still overlaps: constant memory per address), in the storage named by
  ``CARDHALL_RATE_LIMIT_STORAGE_URI`` (``memory://`` by default: per process; a ``redis://``
  URI shares the counts between processes, and so does cluster mode, ``CARDHALL_REDIS_URL``,
  when the storage is left at ``memory://``: ``docs/scaling.md``): every ``/api/*`` request (``CARDHALL_REST_RATE_LIMIT``, 120/minute) and guest
  creation, ``POST /api/players`` (``CARDHALL_GUEST_RATE_LIMIT``, 10/minute). Over a rate the
  answer is 429 ``rate.limited`` with ``Retry-After`` (whole seconds until the window lets one
  more through). Health, readiness, metrics, the documents and the browser client's files are
  not under ``/api`` and are never limited.
* **Quotas** per player, on what is live now: tables a player created that still run
  (``CARDHALL_MAX_LIVE_TABLES_PER_PLAYER``, counted by the table manager, 429
  ``quota.tables``) and authenticated sockets (``CARDHALL_MAX_SOCKETS_PER_PLAYER``,
  :class:`SocketQuota`, ``quota.sockets`` on the socket; in cluster mode counted over every
  node, ``server/clusterquota.py``). A quota frees itself when the table closes or the socket
  goes; nothing expires (in cluster mode a dead node's sockets do, after ``lease_seconds``).
"""

from __future__ import annotations

import ipaddress
import logging
import math
from typing import Any, Protocol

import limits
from limits.aio.storage import Storage
from limits.aio.strategies import SlidingWindowCounterRateLimiter
from starlette.types import ASGIApp, Receive, Scope, Send

from .errors import ApiError, error_response

RATED_PREFIX = "/api/"
"""Only REST API paths are rate limited (not ``/healthz``, ``/readyz``, ``/metrics``, static)."""
WAIT_MARGIN_SECONDS = 0.01
"""Added to a computed wait before rounding up (window times are floats of epoch seconds)."""
log = logging.getLogger(__name__)
GUESTS_PATH = "/api/players"
"""``POST`` here creates an identity: the guest rate applies on top of the REST rate."""
LOGIN_PATHS = frozenset({"/api/sessions", "/api/accounts"})
"""``POST`` here checks a password: the login rate applies on top of the REST rate."""


def parse_rate(text: str) -> limits.RateLimitItem:
    """One rate in the ``limits`` notation (``"10/minute"``, ``"120 per minute"``, ``"5/30
    seconds"``).

    Raises:
        ValueError: not a single rate in that notation.
    """
    items = limits.parse_many(text)
    if len(items) != 1:
        raise ValueError(f"expected one rate such as '10/minute', got {text!r}")
    return items[0]


def async_storage_uri(uri: str) -> str:
    """The ``limits`` asyncio storage URI for ``uri``: ``memory://`` -> ``async+memory://``
    (a URI already starting ``async+`` is kept)."""
    return uri if uri.startswith("async+") else f"async+{uri}"


REDIS_SCHEMES = ("redis://", "rediss://", "redis+unix://", "async+redis://",
                 "async+rediss://", "async+redis+unix://")
"""Rate storage URIs counted in Redis (through redis-py, :func:`redis_storage_options`)."""


def rate_storage(storage_uri: str, redis_url: str | None) -> str:
    """Where the rates count: ``redis_url`` (cluster mode) when ``storage_uri`` is left at
    ``memory://``, else ``storage_uri`` as set."""
    return redis_url if storage_uri == "memory://" and redis_url else storage_uri


def redis_storage_options(storage_uri: str, prefix: str, *, pool: Any = None,
                          timeout_seconds: float = 1.0) -> dict[str, Any]:
    """The ``limits`` storage arguments for ``storage_uri``: for a Redis URI, redis-py's
    asyncio client (``implementation="redispy"``; no coredis needed), keys under
    ``<prefix>:rate``, each command bounded by ``timeout_seconds`` (connecting included;
    a Redis that does not answer lets requests through, see :class:`RestRateLimit`) and the
    connections of ``pool`` (a ``redis.asyncio.ConnectionPool``) when given; ``{}`` for any
    other storage."""
    if not storage_uri.startswith(REDIS_SCHEMES):
        return {}
    options: dict[str, Any] = {"implementation": "redispy", "key_prefix": f"{prefix}:rate"}
    if pool is not None:
        options["connection_pool"] = pool
    else:
        options.update(socket_timeout=timeout_seconds, socket_connect_timeout=timeout_seconds)
    return options


class RateLimits:
    """The per-client-address rates, over one ``limits`` storage.

    Args:
        storage_uri: ``memory://`` (per process), ``redis://host:port/db`` (shared), or any
            storage URI ``limits`` knows (``async+`` is added).
        rest: the rate of every ``/api/*`` request per client address.
        guests: the rate of ``POST /api/players`` per client address.
        logins: the rate of ``POST /api/sessions`` and ``POST /api/accounts`` per client
            address (``None``: not limited). Failed log-ins are counted by
            :class:`~.loginthrottle.LoginThrottle` over the same storage.
        options: more arguments of the ``limits`` storage (:func:`redis_storage_options` for
            a Redis one).

    Raises:
        ValueError: a rate that does not parse; ``limits.errors.ConfigurationError``: an
            unknown storage scheme or a missing driver.
    """

    def __init__(self, storage_uri: str, *, rest: str, guests: str, logins: str | None = None,
                 **options: Any) -> None:
        storage = limits.storage.storage_from_string(async_storage_uri(storage_uri), **options)
        assert isinstance(storage, Storage)  # an async+ scheme always gives an asyncio storage
        self.storage = storage
        self.limiter = SlidingWindowCounterRateLimiter(self.storage)
        self.rest, self.guests = parse_rate(rest), parse_rate(guests)
        self.logins = None if logins is None else parse_rate(logins)

    async def retry_after(self, item: limits.RateLimitItem, *keys: str) -> int | None:
        """Count one hit of ``item`` for ``keys``; ``None`` if it is allowed, else the whole
        seconds (at least 1, rounded up past the window's reset) after which it allows one
        more (nothing is counted then)."""
        if await self.limiter.hit(item, *keys):
            return None
        window = await self.storage.get_sliding_window(  # type: ignore[attr-defined]
            item.key_for(*keys), item.get_expiry())
        wait = sliding_wait(item.amount, item.get_expiry(), *window)
        # whole seconds strictly after it, with room for the float error of epoch times
        return max(1, math.floor(wait + WAIT_MARGIN_SECONDS) + 1)

    async def check(self, item: limits.RateLimitItem, name: str, address: str) -> None:
        """Count one request of ``address`` against ``item``.

        Raises:
            ApiError: 429 ``rate.limited`` with ``Retry-After`` when over the rate.
        """
        wait = await self.retry_after(item, name, address)
        if wait is not None:
            raise rate_limited(name, item, wait)


def sliding_wait(amount: int, expiry: float, previous: int, previous_ttl: float, current: int,
                 current_ttl: float) -> float:
    """Seconds until a sliding window counter (``limits``: the previous window's count weighted
    by the share of it still inside the window, plus the current count) lets one more hit in.

    ``previous_ttl`` is how much of the previous window still counts, ``current_ttl`` the
    time until the current window's counter expires (its end plus one window), as the
    storage's ``get_sliding_window`` reports them. ``limits``' own ``get_window_stats`` says
    "now" at a window boundary, although the counts only start to leak then.
    """
    to_rollover = max(0.0, current_ttl - expiry)
    if current >= amount:  # only the roll-over and then the leak of this window helps
        return to_rollover + expiry * (1.0 - amount / current)
    if previous == 0:
        return 0.0
    # previous * (previous_ttl - t) / expiry + current < amount
    return max(0.0, previous_ttl - (amount - current) * expiry / previous)


def rate_limited(name: str, item: limits.RateLimitItem, wait_seconds: int) -> ApiError:
    """The 429 ``rate.limited`` error for rate ``name`` (``rest``, ``guests``, ``logins``)."""
    return ApiError("rate.limited", f"more than {item} ({name}) from this address; retry in "
                    f"{wait_seconds} s", headers={"Retry-After": str(wait_seconds)})


def client_address(scope: Scope) -> str:
    """The client's address as the server sees it: the peer's, or the client a proxy named
    in ``trusted_proxies`` forwards for (uvicorn's proxy headers, ``server/main.py``). What
    the limits count is its network (:func:`client_network`)."""
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


IPV6_PREFIX = 64
"""IPv6 addresses are counted by this network prefix (a host usually holds a /64)."""


def network_of(address: str) -> str:
    """The network an address counts under: an IPv4 address as it is, an IPv4-mapped IPv6
    one (``::ffff:192.0.2.1``) as its IPv4 address, any other IPv6 one as its /64
    (``2001:db8::/64``), each in its one canonical spelling; anything else (``unknown``, a
    Unix socket) as given."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, IPV6_PREFIX), strict=False))
    return str(ip)


def client_network(scope: Scope) -> str:
    """What every per-address limit counts (:func:`network_of` the :func:`client_address`):
    the REST, guest and log-in rates, the per-address socket cap (``server/sockets.py``)
    and the waiting tables per address. Counting an IPv6 address on its own would give any
    host with a /64 2**64 addresses of each."""
    return network_of(client_address(scope))


class RestRateLimit:
    """ASGI middleware: every ``/api/*`` request counts against the REST rate of its client
    address, a ``POST /api/players`` also against the guest rate, a ``POST /api/sessions`` or
    ``POST /api/accounts`` also against the login rate; over any, it is answered
    429 ``rate.limited`` (``Retry-After``) before the body is read. Other paths and WebSocket
    traffic pass straight through. If the rate storage fails (a shared Redis is down) the
    request is let through and a warning logged: the rates protect the server, they must not
    take it down."""

    def __init__(self, app: ASGIApp, limits: RateLimits) -> None:
        self.app = app
        self.limits = limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = str(scope.get("path", ""))
        if scope["type"] != "http" or not path.startswith(RATED_PREFIX):
            await self.app(scope, receive, send)
            return
        address = client_network(scope)
        try:
            await self.limits.check(self.limits.rest, "rest", address)
            if scope.get("method") == "POST" and path.rstrip("/") == GUESTS_PATH:
                await self.limits.check(self.limits.guests, "guests", address)
            if (self.limits.logins is not None and scope.get("method") == "POST"
                    and path.rstrip("/") in LOGIN_PATHS):
                await self.limits.check(self.limits.logins, "logins", address)
        except ApiError as exc:
            response = error_response(exc.status, exc.code, exc.message, headers=exc.headers)
            await response(scope, receive, send)
            return
        except Exception as exc:  # the rate storage is down (e.g. Redis): fail open, loudly
            log.warning("rate limit storage failed (%s: %s); %s %s not limited",
                        type(exc).__name__, exc, scope.get("method"), path)
        await self.app(scope, receive, send)


class SocketQuota(Protocol):
    """Authenticated sockets per player id, at most :attr:`limit` at once: the one interface
    of the per-process count (:class:`LocalSocketQuota`) and the cluster-wide one
    (``server/clusterquota.py``). The WebSocket session acquires a place at ``hello`` and
    releases it when the socket ends; :meth:`start`/:meth:`stop` run with the app's lifespan.
    """

    limit: int
    open: dict[str, int]
    """This process's sockets per player id (players with none are absent)."""

    async def acquire(self, player_id: str) -> bool:
        """Take a place for one more socket of ``player_id``; ``False`` when it has ``limit``."""

    async def release(self, player_id: str) -> None:
        """Give back one place of ``player_id`` (a socket that held one has ended)."""

    async def start(self) -> None:
        """Start what keeps the count current (nothing for the local count)."""

    async def stop(self) -> None:
        """Stop it and withdraw this process's places where others can see them."""


class LocalSocketQuota:
    """:class:`SocketQuota` over one process's sockets (the embedded default, no Redis).

    Only the socket's own task calls it, and neither method awaits, so no lock is needed.

    Args:
        limit: sockets one player may hold (>= 1).
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.open: dict[str, int] = {}

    async def acquire(self, player_id: str) -> bool:
        """Take a place for one more socket of ``player_id``; ``False`` when it has ``limit``."""
        return take(self.open, player_id, self.limit)

    async def release(self, player_id: str) -> None:
        """Give back one place of ``player_id`` (a socket that held one has ended)."""
        give_back(self.open, player_id)

    async def start(self) -> None:
        """Nothing to start."""

    async def stop(self) -> None:
        """Nothing to stop."""


def take(open_: dict[str, int], player_id: str, limit: int) -> bool:
    """Count one more socket of ``player_id`` in ``open_`` unless it already has ``limit``;
    whether it was counted."""
    held = open_.get(player_id, 0)
    if held >= limit:
        return False
    open_[player_id] = held + 1
    return True


def give_back(open_: dict[str, int], player_id: str) -> int:
    """Count one socket of ``player_id`` less in ``open_`` (dropping it at 0); the count left."""
    held = open_.get(player_id, 0) - 1
    if held > 0:
        open_[player_id] = held
        return held
    open_.pop(player_id, None)
    return 0
