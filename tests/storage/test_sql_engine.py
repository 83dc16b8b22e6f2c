"""Engine settings of the SQL store: SQLite in WAL mode with ``synchronous=NORMAL``, no
pre-ping round trip, a single save is two statements, and SQLite writes take turns."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from cardhall.storage import SeatResult
from cardhall.storage.sql import SqlStore

T0 = datetime(2026, 1, 1, tzinfo=UTC)


@pytest.fixture
async def lite(tmp_path: Path) -> AsyncIterator[SqlStore]:
    store = SqlStore(f"sqlite+aiosqlite:///{tmp_path / 'e.db'}")
    await store.start()
    yield store
    await store.close()


def statements(store: SqlStore) -> list[str]:
    """Every SQL statement the engine sends from now on (first line of each)."""
    seen: list[str] = []

    def before(_conn: Any, _cursor: Any, sql: str, *_args: Any) -> None:
        seen.append(sql.strip().splitlines()[0])

    event.listen(store.engine.sync_engine, "before_cursor_execute", before)
    return seen


async def save(store: SqlStore, game_id: str) -> bool:
    return await store.save_game(game_id=game_id, game="blot", table_id="t", history={},
                                 outcome={}, results=[SeatResult(0, "a", 1), SeatResult(1, "b", -1)],
                                 started_at=T0, ended_at=T0)


async def test_sqlite_runs_in_wal_mode_with_synchronous_normal(lite: SqlStore) -> None:
    async with lite.engine.connect() as conn:
        assert (await conn.exec_driver_sql("PRAGMA journal_mode")).scalar() == "wal"
        assert (await conn.exec_driver_sql("PRAGMA synchronous")).scalar() == 1  # NORMAL
        assert (await conn.exec_driver_sql("PRAGMA foreign_keys")).scalar() == 1


async def test_a_single_save_is_two_inserts_and_no_ping(lite: SqlStore) -> None:
    await save(lite, "warm")  # the pool's first connection is made outside the count
    seen = statements(lite)
    await save(lite, "g1")
    await save(lite, "g2")
    assert len(seen) == 4, seen
    assert all(s.startswith("INSERT INTO games") for s in seen[0::2]), seen
    assert all(s.startswith("INSERT INTO game_results") for s in seen[1::2]), seen


async def test_sqlite_writes_take_turns(lite: SqlStore) -> None:
    """Concurrent saves and identity writes are serialised by the store (one writer), so none
    waits on SQLite's file lock or fails with ``database is locked``."""
    active, most = [0], [0]

    def begin(_conn: Any) -> None:
        active[0] += 1
        most[0] = max(most[0], active[0])

    def end(_conn: Any) -> None:
        active[0] -= 1

    sync = lite.engine.sync_engine
    event.listen(sync, "begin", begin)
    event.listen(sync, "commit", end)
    event.listen(sync, "rollback", end)
    saves = [save(lite, f"g{i}") for i in range(16)]
    players = [lite.create_player(f"p{i}") for i in range(4)]
    await asyncio.gather(*saves, *players)
    assert len(await lite.list_games(limit=100)) == 16
    assert most[0] == 1


def test_only_sqlite_and_postgresql_are_supported() -> None:
    with pytest.raises(ValueError, match="mysql"):
        SqlStore("mysql+aiomysql://u@h/db")


async def test_timeout_seconds_sets_sqlite_busy_timeout_and_pool_timeout(tmp_path: Path) -> None:
    store = SqlStore(f"sqlite+aiosqlite:///{tmp_path / 't.db'}", timeout_seconds=0.75)
    try:
        await store.start()
        async with store.engine.connect() as conn:
            assert (await conn.exec_driver_sql("PRAGMA busy_timeout")).scalar() == 750
        assert store.engine.pool.timeout() == 0.75  # type: ignore[attr-defined]
    finally:
        await store.close()


def test_timeout_args_per_driver() -> None:
    from cardhall.storage.sql import make_engine, timeout_args

    assert timeout_args("sqlite", 2) == {"timeout": 2}
    assert timeout_args("postgresql", 2) == {"timeout": 2, "command_timeout": 2}
    with pytest.raises(ValueError, match="above 0"):
        timeout_args("sqlite", 0)
    make_engine("sqlite+aiosqlite:///:memory:").sync_engine.dispose()  # old signature still works


async def test_the_pool_is_sized_per_back_end_and_a_storm_queues(tmp_path: Path) -> None:
    """Issue 26: SQLite 8 + 8, PostgreSQL 10 + 20 (the settings override them), and a checkout
    waits 30 s in the pool's queue rather than the 5 s of every other wait."""
    from cardhall.storage.factory import make_store

    def pool(store: Any) -> tuple[int, int, float]:
        p = store.engine.pool
        return p.size(), p._max_overflow, p.timeout()

    lite = make_store(f"sqlite+aiosqlite:///{tmp_path / 'p.db'}", timeout_seconds=5.0)
    pg = make_store("postgresql+asyncpg://u@127.0.0.1:1/db", timeout_seconds=5.0)
    sized = make_store("postgresql+asyncpg://u@127.0.0.1:1/db", pool_size=3, max_overflow=4,
                       pool_timeout_seconds=9.0)
    try:
        assert pool(lite) == (8, 8, 30.0)
        assert pool(pg) == (10, 20, 30.0)
        assert pool(sized) == (3, 4, 9.0)
    finally:
        for store in (lite, pg, sized):
            await store.close()
