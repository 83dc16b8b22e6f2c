"""The :class:`Store` contract (``storage/interface.py``), run against every implementation:
MemoryStore, SqlStore on SQLite and SqlStore on PostgreSQL (skipped when unreachable)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from sqlalchemy.exc import IntegrityError

from cardhall.storage import GameRecord, MemoryStore, SeatResult, Store
from cardhall.storage.memory import hash_token

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


def _history(game_id: str) -> dict[str, Any]:
    return {"format": "cardhall-history/1", "game": "blot", "id": game_id,
            "seats": [{"name": "ann"}, {"name": "bot", "bot": True}],
            "actions": [{"seat": None, "action": {"type": "deal"}}, {"seat": 0, "action": {}}],
            "unicode": "Über ♠"}


async def _save(store: Store, game_id: str, *, game: str = "blot", minutes: int = 0,
                players: tuple[str | None, ...] = ("p1", None)) -> bool:
    results = [SeatResult(seat=i, name=f"seat{i}", result=10 * (1 - 2 * i), player_id=pid,
                          is_bot=pid is None) for i, pid in enumerate(players)]
    ended = T0 + timedelta(minutes=minutes)
    return await store.save_game(
        game_id=game_id, game=game, table_id="t1", history=_history(game_id),
        outcome={"winner": 0, "reason": "match"}, results=results,
        started_at=ended - timedelta(minutes=5), ended_at=ended)


async def test_create_player_returns_record_and_token(store: Store) -> None:
    rec, token = await store.create_player("ann")
    assert rec.name == "ann" and not rec.is_bot and not rec.banned and rec.owner_id is None
    assert len(token) >= 40
    assert await store.player_for_token(token) == rec
    assert await store.get_player(rec.id) == rec


async def test_bot_player_records_its_owner(store: Store) -> None:
    owner, _ = await store.create_player("ann")
    bot, token = await store.create_player("annbot", is_bot=True, owner_id=owner.id)
    assert bot.is_bot and bot.owner_id == owner.id
    assert await store.player_for_token(token) == bot


async def test_unknown_token_and_id_give_none(store: Store) -> None:
    _rec, token = await store.create_player("ann")
    assert await store.player_for_token(token + "x") is None
    assert await store.player_for_token(hash_token(token)) is None  # the hash is no token
    assert await store.get_player("nope") is None


async def test_tokens_are_distinct(store: Store) -> None:
    tokens = {(await store.create_player(f"p{i}"))[1] for i in range(5)}
    assert len(tokens) == 5


async def test_list_players_oldest_first_paginated(store: Store) -> None:
    ids = [(await store.create_player(f"p{i}"))[0].id for i in range(5)]
    assert [p.id for p in await store.list_players()] == ids
    assert [p.id for p in await store.list_players(limit=2, offset=1)] == ids[1:3]
    assert await store.list_players(offset=5) == []


async def test_ban_and_unban(store: Store) -> None:
    rec, token = await store.create_player("ann")
    banned = await store.set_banned(rec.id, True)
    assert banned is not None and banned.banned
    found = await store.player_for_token(token)
    assert found is not None and found.banned
    unbanned = await store.set_banned(rec.id, False)
    assert unbanned is not None and not unbanned.banned
    assert await store.set_banned("nope", True) is None


async def test_save_game_once_and_fetch_history(store: Store) -> None:
    assert await _save(store, "g1") is True
    assert await _save(store, "g1") is False
    assert await store.get_game("g1") == _history("g1")
    assert await store.get_game("nope") is None
    [summary] = await store.list_games()
    assert summary.id == "g1" and summary.game == "blot" and summary.table_id == "t1"
    assert summary.outcome == {"winner": 0, "reason": "match"}
    assert summary.ended_at == T0 and summary.started_at == T0 - timedelta(minutes=5)
    assert summary.seats == [SeatResult(0, "seat0", 10, "p1", False, "win"),
                             SeatResult(1, "seat1", -10, None, True, "loss")]


async def test_times_come_back_as_the_same_instant(store: Store) -> None:
    plus2 = timezone(timedelta(hours=2))
    await store.save_game(game_id="g", game="blot", table_id="t", history={}, outcome={},
                          results=[], started_at=T0.astimezone(plus2),
                          ended_at=T0.astimezone(plus2))
    [summary] = await store.list_games()
    assert summary.ended_at == T0 and summary.ended_at.utcoffset() is not None


async def test_list_games_newest_first_and_paginated(store: Store) -> None:
    for i in range(5):
        await _save(store, f"g{i}", minutes=i)
    assert [g.id for g in await store.list_games()] == ["g4", "g3", "g2", "g1", "g0"]
    assert [g.id for g in await store.list_games(limit=2, offset=1)] == ["g3", "g2"]
    assert await store.list_games(offset=10) == []


async def test_list_games_filters(store: Store) -> None:
    await _save(store, "a", game="blot", minutes=0, players=("p1", "p2"))
    await _save(store, "b", game="poker", minutes=10, players=("p2", None))
    await _save(store, "c", game="blot", minutes=20, players=("p3", None))

    async def ids(**kw: Any) -> list[str]:
        return [g.id for g in await store.list_games(**kw)]

    assert await ids(game="blot") == ["c", "a"]
    assert await ids(player_id="p2") == ["b", "a"]
    assert await ids(player_id="p2", game="poker") == ["b"]
    assert await ids(since=T0 + timedelta(minutes=10)) == ["c", "b"]  # since is inclusive
    assert await ids(until=T0 + timedelta(minutes=20)) == ["b", "a"]  # until is exclusive
    assert await ids(since=T0 + timedelta(minutes=5), until=T0 + timedelta(minutes=15)) == ["b"]
    assert await ids(player_id="nobody") == []


async def test_concurrent_saves_of_one_game_store_it_once(store: Store) -> None:
    import asyncio

    saved = await asyncio.gather(*(_save(store, "g") for _ in range(4)))
    assert sorted(saved) == [False, False, False, True]
    [summary] = await store.list_games()
    assert len(summary.seats) == 2


async def test_a_failed_save_writes_nothing(store: Store) -> None:
    if isinstance(store, MemoryStore):
        pytest.skip("only the SQL stores enforce one result per seat")
    twice = [SeatResult(0, "a", 1), SeatResult(0, "b", -1)]
    with pytest.raises(IntegrityError):
        await store.save_game(game_id="bad", game="blot", table_id="t", history={}, outcome={},
                              results=twice, started_at=T0, ended_at=T0)
    assert await store.get_game("bad") is None
    assert await store.list_games() == []


def _record(game_id: str, *, seats: tuple[int, ...] = (0, 1), minutes: int = 0) -> GameRecord:
    ended = T0 + timedelta(minutes=minutes)
    return GameRecord(game_id, "blot", "t1", _history(game_id), {"winner": 0},
                      [SeatResult(s, f"seat{s}", 5 - s) for s in seats], ended, ended)


async def test_save_games_saves_a_batch_and_flags_what_was_saved_before(store: Store) -> None:
    assert await store.save_games([]) == []
    assert await _save(store, "old") is True
    flags = await store.save_games([_record("a", minutes=1), _record("old"),
                                    _record("b", minutes=2), _record("a", minutes=9)])
    assert flags == [True, False, True, False]  # the first "a" of the batch is the one kept
    assert [g.id for g in await store.list_games()] == ["b", "a", "old"]
    [a] = [g for g in await store.list_games() if g.id == "a"]
    assert a.ended_at == T0 + timedelta(minutes=1) and len(a.seats) == 2
    assert await store.get_game("b") == _history("b")


async def test_a_failed_batch_writes_nothing_of_the_batch(store: Store) -> None:
    if isinstance(store, MemoryStore):
        pytest.skip("only the SQL stores enforce one result per seat")
    with pytest.raises(IntegrityError):
        await store.save_games([_record("good"), _record("bad", seats=(0, 0))])
    assert await store.list_games() == []
