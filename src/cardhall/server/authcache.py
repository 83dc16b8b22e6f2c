"""``hello`` and resume during a database outage: a bounded in-process cache of identities
recently authenticated (``docs/security.md``, "Hello during a database outage").

Every socket ``hello`` that the database answered puts the player under the SHA-256 of the
token it sent (the token itself is never kept); an answer that the token is unknown, revoked,
banned or disabled removes it. Only when the database cannot answer (:func:`store_unavailable`:
refused, timed out, locked) does :func:`authenticate_cached` fall back to the cache: the same
token, seen good within :attr:`AuthCache.ttl_seconds`, is the same player. Anything else (a
token never seen, an older entry) gets the outage's error as before (``server.unavailable``).
The per-join ban check (``ws.py`` ``_banned``) falls back the same way on the cached record.
"""

from __future__ import annotations

import hashlib
import time
from collections import OrderedDict
from collections.abc import Callable

from ..storage.interface import PlayerRecord, PlayerStore
from .errors import ApiError
from .outages import store_unavailable
from .security import authenticate

DEFAULT_TTL_SECONDS = 600.0
"""How long a good ``hello`` vouches for its token during an outage (10 min)."""
DEFAULT_MAX_ENTRIES = 50_000
"""Tokens kept at most (the least recently used go first)."""


class AuthCache:
    """Token hash -> (player, when seen good), LRU-bounded (see the module docstring).

    Args:
        ttl_seconds: an entry older than this is never used.
        max_entries: entries kept at most.
        clock: monotonic seconds (tests pass a fake).
    """

    def __init__(self, ttl_seconds: float = DEFAULT_TTL_SECONDS,
                 max_entries: int = DEFAULT_MAX_ENTRIES,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.ttl_seconds, self.max_entries, self._clock = ttl_seconds, max_entries, clock
        self._by_token: OrderedDict[bytes, tuple[PlayerRecord, float]] = OrderedDict()
        self.used = 0
        """Hellos (and ban checks) answered from the cache during an outage."""

    @staticmethod
    def _key(token: str) -> bytes:
        return hashlib.sha256(token.encode()).digest()

    def put(self, token: str, player: PlayerRecord) -> None:
        """``token`` was just found good for ``player``."""
        key = self._key(token)
        self._by_token[key] = (player, self._clock())
        self._by_token.move_to_end(key)
        while len(self._by_token) > self.max_entries:
            self._by_token.popitem(last=False)

    def forget(self, token: str) -> None:
        """``token`` is no good any more (unknown, revoked, banned, disabled)."""
        self._by_token.pop(self._key(token), None)

    def forget_player(self, player_id: str) -> None:
        """Every token of ``player_id`` is no good any more (banned, disabled)."""
        for key in [k for k, (p, _) in self._by_token.items() if p.id == player_id]:
            del self._by_token[key]

    def get(self, token: str) -> PlayerRecord | None:
        """The player ``token`` was good for within the TTL, or ``None``."""
        found = self._by_token.get(self._key(token))
        if found is None or self._clock() - found[1] > self.ttl_seconds:
            return None
        return found[0]

    def player(self, player_id: str) -> PlayerRecord | None:
        """The latest good record of ``player_id`` within the TTL, or ``None``."""
        now = self._clock()
        for p, seen in reversed(self._by_token.values()):
            if p.id == player_id and now - seen <= self.ttl_seconds:
                return p
        return None


async def authenticate_cached(store: PlayerStore, token: str | None,
                              cache: AuthCache | None) -> PlayerRecord:
    """:func:`~.security.authenticate`, remembered in ``cache``; when the database cannot
    answer, the player ``cache`` holds for that token (see the module docstring).

    Raises what ``authenticate`` raises (``ApiError`` ``auth.*``), or the store's outage
    error when the cache does not know the token."""
    if cache is None:
        return await authenticate(store, token)
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
        cache.put(token, player)
    return player


async def still_allowed(store: PlayerStore, player_id: str, cache: AuthCache | None) -> bool:
    """Whether ``player_id`` may still take or resume a seat (not banned, disabled or
    removed); when the database cannot answer, whether ``cache`` vouches for it.

    Raises the store's error when it is no outage, or the cache does not know the player."""
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
