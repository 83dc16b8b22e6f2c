"""The identity cache behind ``hello`` (``server/authcache.py``, ``docs/security.md`` "The
identity cache"): during a database outage used only when the store cannot answer, only for a
token seen good within the TTL, and forgotten when the database says no; in steady state a
token seen good within ``fresh_seconds`` costs no read, until an invalidation drops it."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from cardhall.server.authcache import (
    AuthCache,
    authenticate_cached,
    still_allowed,
    still_authenticated,
)
from cardhall.server.errors import ApiError
from cardhall.storage.interface import PlayerRecord

ANA = PlayerRecord(id="p1", name="ana")


class Store:
    """``player_for_token``/``get_player`` answering from ``players``, or raising ``down``."""

    def __init__(self) -> None:
        self.players: dict[str, PlayerRecord] = {"tok": ANA}
        self.down: Exception | None = None

    async def player_for_token(self, token: str) -> PlayerRecord | None:
        if self.down is not None:
            raise self.down
        return self.players.get(token)

    async def get_player(self, player_id: str) -> PlayerRecord | None:
        if self.down is not None:
            raise self.down
        return next((p for p in self.players.values() if p.id == player_id), None)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def test_an_outage_hello_is_answered_for_a_token_seen_good_within_the_ttl() -> None:
    store, clock = Store(), Clock()
    cache = AuthCache(ttl_seconds=60, clock=clock)
    s: Any = store
    assert await authenticate_cached(s, "tok", cache) == ANA
    store.down = ConnectionRefusedError(111, "refused")
    assert await authenticate_cached(s, "tok", cache) == ANA and cache.used == 1
    assert await still_allowed(s, "p1", cache)
    with pytest.raises(ConnectionRefusedError):  # never seen: the outage's error
        await authenticate_cached(s, "other", cache)
    clock.now = 61
    with pytest.raises(ConnectionRefusedError):  # too old
        await authenticate_cached(s, "tok", cache)


async def test_a_bug_is_no_outage_and_a_refusal_or_ban_forgets_the_token() -> None:
    store, cache = Store(), AuthCache()
    s: Any = store
    await authenticate_cached(s, "tok", cache)
    store.down = RuntimeError("a bug")
    with pytest.raises(RuntimeError):
        await authenticate_cached(s, "tok", cache)
    store.down = None
    store.players["tok"] = PlayerRecord(id="p1", name="ana", banned=True)
    with pytest.raises(ApiError):
        await authenticate_cached(s, "tok", cache)
    store.down = TimeoutError()
    with pytest.raises(TimeoutError):  # the refusal removed it
        await authenticate_cached(s, "tok", cache)


async def test_a_ban_seen_by_the_join_check_forgets_every_token_of_the_player() -> None:
    store, cache = Store(), AuthCache()
    s: Any = store
    await authenticate_cached(s, "tok", cache)
    store.players["tok"] = PlayerRecord(id="p1", name="ana", disabled=True)
    assert not await still_allowed(s, "p1", cache)
    store.down = ConnectionRefusedError()
    with pytest.raises(ConnectionRefusedError):
        await still_allowed(s, "p1", cache)


def test_the_cache_is_bounded_and_keeps_no_clear_token() -> None:
    cache = AuthCache(max_entries=2)
    for i in range(3):
        cache.put(f"token-{i}", PlayerRecord(id=f"p{i}", name="x"))
    assert cache.get("token-0") is None and cache.get("token-2") is not None
    assert all(b"token" not in key for key in cache._by_token)


class Counting(Store):
    """:class:`Store` that counts its reads."""

    def __init__(self) -> None:
        super().__init__()
        self.reads = 0

    async def player_for_token(self, token: str) -> PlayerRecord | None:
        self.reads += 1
        return await super().player_for_token(token)

    async def get_player(self, player_id: str) -> PlayerRecord | None:
        self.reads += 1
        return await super().get_player(player_id)


async def test_a_fresh_token_is_answered_without_a_database_read_until_it_is_old() -> None:
    store, clock = Counting(), Clock()
    cache = AuthCache(clock=clock, fresh_seconds=30)
    s: Any = store
    assert await authenticate_cached(s, "tok", cache) == ANA and store.reads == 1
    assert await authenticate_cached(s, "tok", cache) == ANA
    assert await still_allowed(s, "p1", cache)
    assert await still_authenticated(s, "tok", cache)
    assert (store.reads, cache.hits) == (1, 2)
    clock.now = 31  # older than fresh_seconds: the database is asked again
    assert await authenticate_cached(s, "tok", cache) == ANA and store.reads == 2


async def test_an_invalidated_player_is_asked_again_and_a_ban_refused_at_once() -> None:
    store, sent = Counting(), []
    cache = AuthCache(fresh_seconds=300)
    cache.broadcast = sent.append
    s: Any = store
    await authenticate_cached(s, "tok", cache)
    store.players["tok"] = PlayerRecord(id="p1", name="ana", banned=True)
    cache.invalidate({"p1"})
    assert sent == [["p1"]]  # cluster mode: the other nodes are told
    with pytest.raises(ApiError) as info:
        await authenticate_cached(s, "tok", cache)
    assert info.value.code == "auth.banned"
    del store.players["tok"]  # a revoked token
    with pytest.raises(ApiError):
        await authenticate_cached(s, "tok", cache)
    assert not await still_authenticated(s, "tok", cache)


async def test_a_read_begun_before_an_invalidation_stores_nothing() -> None:
    """The answer of a read that raced a revocation may be stale: it must not be cached."""
    store, cache = Store(), AuthCache(fresh_seconds=300)
    gate, reading = asyncio.Event(), asyncio.Event()
    real = store.player_for_token

    async def slow(token: str) -> PlayerRecord | None:
        found = await real(token)
        reading.set()
        await gate.wait()
        return found

    store.player_for_token = slow  # type: ignore[method-assign]
    s: Any = store
    task = asyncio.create_task(authenticate_cached(s, "tok", cache))
    await reading.wait()
    cache.invalidate({"p1"})  # the revocation lands while the read is out
    gate.set()
    assert await task == ANA  # this hello was checked before the revocation...
    assert cache.fresh("tok") is None  # ...but its answer is not kept


def test_clear_drops_everything() -> None:
    cache = AuthCache(fresh_seconds=300)
    cache.put("tok", ANA)
    cache.clear()
    assert cache.get("tok") is None and cache.player("p1") is None


async def test_a_hello_with_a_junk_token_does_not_stop_good_ones_being_cached() -> None:
    """An unknown token is forgotten without bumping the epoch: a flood of junk hellos (any
    stranger may send them) must not keep every good token's read in flight from being
    cached. Found by an attack: under such a flood 0 of 100 good tokens were cached."""
    store, cache = Store(), AuthCache(fresh_seconds=300)
    gate, reading = asyncio.Event(), asyncio.Event()
    real = store.player_for_token

    async def slow(token: str) -> PlayerRecord | None:
        found = await real(token)
        if token == "tok":
            reading.set()
            await gate.wait()
        return found

    store.player_for_token = slow  # type: ignore[method-assign]
    s: Any = store
    task = asyncio.create_task(authenticate_cached(s, "tok", cache))
    await reading.wait()
    with pytest.raises(ApiError):
        await authenticate_cached(s, "junk", cache)  # unknown: refused, forgotten
    gate.set()
    assert await task == ANA
    assert cache.fresh("tok") == ANA
