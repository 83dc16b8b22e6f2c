"""The bounded in-process cache of identities behind socket ``hello`` (``docs/security.md``,
"The identity cache"; issue 26).

Every socket ``hello`` that the database answered puts the player under the SHA-256 of the
token it sent (the token itself is never kept), and the player's record under its id; an
answer that the token is unknown, revoked, banned or disabled removes them. Two uses:

* **Steady state** (``fresh_seconds`` > 0, ``Settings.auth_cache_seconds``): a ``hello`` whose
  token was seen good within ``fresh_seconds``, and the ban check of a ``join`` of a player
  seen good as recently, are answered without a database round trip. So a reconnect storm
  (every client of a restarted server, or of a blip, at once) costs one read per token, not
  two or three per socket. A revocation, log-out, password change, ban or disable drops the
  player's entries (:meth:`AuthCache.invalidate`) on every node: this process at once, the
  others through the request that closes their sockets and, in cluster mode, a message on
  the Redis bus (``cluster/node.py`` ``AUTH_CHANNEL``); a node whose bus lost messages drops
  everything (:meth:`AuthCache.clear`). Only good identities are cached, so an unban or an
  enable needs nothing: the next ``hello`` asks the database.
* **Outage**: when the database cannot answer (:func:`store_unavailable`: refused, timed out,
  locked) a token seen good within ``ttl_seconds`` is the same player; anything else (a token
  never seen, an older entry) gets the outage's error as before (``server.unavailable``).

A read that began before an invalidation never stores its (possibly stale) answer after it:
each :meth:`AuthCache.put` carries the :attr:`AuthCache.epoch` seen before the read.
The two maps are ``cachetools.TTLCache`` (LRU-bounded, entries expire after ``ttl_seconds``):
a maintained bounded map with expiry, instead of our own ordered dict and clock checks.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Iterable

from cachetools import TTLCache

from ..storage.interface import PlayerRecord, PlayerStore
from .errors import ApiError
from .outages import store_unavailable
from .security import authenticate

DEFAULT_TTL_SECONDS = 600.0
"""How long a good ``hello`` vouches for its token during an outage (10 min)."""
DEFAULT_MAX_ENTRIES = 50_000
"""Tokens (and players) kept at most (the least recently used go first)."""

Broadcast = Callable[[list[str]], None]
"""Tells the other nodes to drop these players' entries (cluster mode: the Redis bus)."""


class AuthCache:
    """Token hash -> player id and player id -> record, each with when it was seen good
    (see the module docstring).

    Args:
        ttl_seconds: an entry older than this is never used (the outage bound).
        max_entries: tokens (and players) kept at most.
        clock: monotonic seconds (tests pass a fake).
        fresh_seconds: an entry younger than this answers without the database (0: never).
    """

    def __init__(self, ttl_seconds: float = DEFAULT_TTL_SECONDS,
                 max_entries: int = DEFAULT_MAX_ENTRIES,
                 clock: Callable[[], float] = time.monotonic,
                 fresh_seconds: float = 0.0) -> None:
        self.ttl_seconds, self.max_entries, self._clock = ttl_seconds, max_entries, clock
        self.fresh_seconds = min(fresh_seconds, ttl_seconds)
        self._by_token: TTLCache[bytes, tuple[str, float]] = TTLCache(
            max_entries, ttl_seconds, timer=clock)
        self._players: TTLCache[str, tuple[PlayerRecord, float]] = TTLCache(
            max_entries, ttl_seconds, timer=clock)
        self.epoch = 0
        """Bumped by every drop: a read begun before it stores nothing (:meth:`put`)."""
        self.broadcast: Broadcast | None = None
        """Set in cluster mode: :meth:`invalidate` tells the other nodes through it."""
        self.used = 0
        """Hellos (and ban checks) answered from the cache during an outage."""
        self.hits = 0
        """Hellos (and ban checks) answered from the cache in steady state."""

    @staticmethod
    def _key(token: str) -> bytes:
        return hashlib.sha256(token.encode()).digest()

    def put(self, token: str, player: PlayerRecord, epoch: int | None = None) -> None:
        """``token`` was just found good for ``player`` by a read begun at ``epoch`` (the
        :attr:`epoch` then; ``None``: now). Nothing is stored when a drop came since."""
        if epoch is not None and epoch != self.epoch:
            return
        now = self._clock()
        self._by_token[self._key(token)] = (player.id, now)
        self._players[player.id] = (player, now)

    def forget(self, token: str) -> None:
        """``token`` is no good any more (unknown, revoked, banned, disabled). Only a token
        that was cached bumps the :attr:`epoch`: a hello with a junk token (never cached)
        must not stop the reads of good tokens in flight from being cached (a flood of junk
        hellos would otherwise keep the cache empty). A revocation or a ban drops the player
        too (:meth:`forget_player`), which bumps it."""
        if self._by_token.pop(self._key(token), None) is not None:
            self.epoch += 1

    def forget_player(self, player_id: str) -> None:
        """Every token of ``player_id`` is no good any more (banned, disabled, a session
        revoked): its record goes, and a token is only answered with its player's record."""
        self.epoch += 1
        self._players.pop(player_id, None)

    def invalidate(self, player_ids: Iterable[str]) -> None:
        """Drop ``player_ids`` here (:meth:`forget_player`) and tell the other nodes
        (:attr:`broadcast`, cluster mode)."""
        ids = sorted(set(player_ids))
        for player_id in ids:
            self.forget_player(player_id)
        if self.broadcast is not None and ids:
            self.broadcast(ids)

    def clear(self) -> None:
        """Drop everything (this node may have missed an invalidation: its bus lost messages)."""
        self.epoch += 1
        self._by_token.clear()
        self._players.clear()

    def get(self, token: str, max_age: float | None = None) -> PlayerRecord | None:
        """The player ``token`` was good for within ``max_age`` seconds (default: the TTL),
        or ``None``."""
        found = self._by_token.get(self._key(token))
        if found is None:
            return None
        record = self._players.get(found[0])
        if record is None or not self._young(found[1], max_age):
            return None
        return record[0]

    def player(self, player_id: str, max_age: float | None = None) -> PlayerRecord | None:
        """The latest good record of ``player_id`` within ``max_age`` seconds (default: the
        TTL), or ``None``."""
        found = self._players.get(player_id)
        return found[0] if found is not None and self._young(found[1], max_age) else None

    def fresh(self, token: str) -> PlayerRecord | None:
        """:meth:`get` within :attr:`fresh_seconds` (``None`` while it is 0)."""
        return self.get(token, self.fresh_seconds) if self.fresh_seconds > 0 else None

    def _young(self, seen: float, max_age: float | None) -> bool:
        return self._clock() - seen <= (self.ttl_seconds if max_age is None else max_age)


async def authenticate_cached(store: PlayerStore, token: str | None,
                              cache: AuthCache | None) -> PlayerRecord:
    """:func:`~.security.authenticate`, answered from ``cache`` when it saw ``token`` good
    within its ``fresh_seconds``, else asked and remembered in ``cache``; when the database
    cannot answer, the player ``cache`` holds for that token (see the module docstring).

    Raises what ``authenticate`` raises (``ApiError`` ``auth.*``), or the store's outage
    error when the cache does not know the token."""
    if cache is None:
        return await authenticate(store, token)
    known = cache.fresh(token) if token else None
    if known is not None:
        cache.hits += 1
        return known
    epoch = cache.epoch
    try:
        player = await authenticate(store, token)
    except ApiError:
        if token:
            cache.forget(token)
        raise
    except Exception as exc:
        known = cache.get(token) if token and store_unavailable(exc) else None
        if known is None:
            raise
        cache.used += 1
        return known
    if token:
        cache.put(token, player, epoch)
    return player


async def still_authenticated(store: PlayerStore, token: str, cache: AuthCache | None) -> bool:
    """Whether ``token`` still authenticates (the re-check of a ``hello`` once its socket
    counts as authenticated, ``ws.py``): yes while ``cache`` holds it fresh (an invalidation
    would have dropped it), else the database's answer; a store that fails to answer counts
    as yes (the outage path answered the ``hello``)."""
    if cache is not None and cache.fresh(token) is not None:
        return True
    try:
        return await store.player_for_token(token) is not None
    except Exception:  # any failure of the store: the outage path answered the hello
        return True


async def still_allowed(store: PlayerStore, player_id: str, cache: AuthCache | None) -> bool:
    """Whether ``player_id`` may still take or resume a seat (not banned, disabled or
    removed): yes while ``cache`` holds its record fresh; else the database's answer, or when
    the database cannot answer, whether ``cache`` vouches for it.

    Raises the store's error when it is no outage, or the cache does not know the player."""
    if cache is not None and cache.fresh_seconds > 0 \
            and cache.player(player_id, cache.fresh_seconds) is not None:
        cache.hits += 1
        return True
    try:
        player = await store.get_player(player_id)
    except Exception as exc:
        known = cache.player(player_id) if cache is not None and store_unavailable(exc) else None
        if known is None or cache is None:
            raise
        cache.used += 1
        return not (known.banned or known.disabled)
    if cache is not None and (player is None or player.banned or player.disabled):
        cache.forget_player(player_id)
    return not (player is None or player.banned or player.disabled)
