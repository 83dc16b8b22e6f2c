"""The table log's group commit on a SQLite file in one hop to a thread (``storage/sqlite_log.py``):
the same rows, compactions, drops and outbox games as the SQLAlchemy path, one transaction
(all or nothing), the SQLAlchemy path's errors, and the batches it leaves to that path."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError

from cardhall.storage import GameRecord, SeatResult
from cardhall.storage.interface import LogBatch, LogRow
from cardhall.storage.sql import SqlStore
from cardhall.storage.sqlite_log import SqliteLogWriter, sqlite_file
from cardhall.storage.writer import record_error

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


def row(table: str, seq: int, kind: str = "act", key: object = 1) -> LogRow:
    """An entry with an integer key inside (JSON stores it as a string, as the engine does)."""
    return LogRow(table, seq, kind, {"seat": seq % 4, "v": seq, "k": {key: "int key"}})


def stored(table: str, seq: int, kind: str = "act") -> LogRow:
    return row(table, seq, kind, key="1")


def record(game_id: str) -> GameRecord:
    return GameRecord(game_id, "bazaar_blot", "t1", {"id": game_id}, {"reason": "target"},
                      [SeatResult(0, "a", 1)], T0, T0)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqlStore]:
    s = SqlStore(f"sqlite+aiosqlite:///{tmp_path / 'cardhall.db'}")
    await s.start()
    try:
        yield s
    finally:
        await s.close()


def writer(store: SqlStore) -> SqliteLogWriter:
    w = store._log._sqlite
    assert w is not None
    return w


async def test_a_group_commit_on_a_sqlite_file_goes_through_the_one_hop_writer(
        store: SqlStore) -> None:
    await store.write_log(LogBatch(rows=[row("t1", 1, "snapshot"), row("t1", 2), row("t2", 1)],
                                   outbox=[record("g1")]))
    assert writer(store).commits == 1
    assert await store.load_log() == [stored("t1", 1, "snapshot"), stored("t1", 2),
                                      stored("t2", 1)]
    assert [r.game_id for r in await store.load_outbox()] == ["g1"]


async def test_compactions_and_drops_are_written_like_the_sqlalchemy_path(
        store: SqlStore) -> None:
    await store.write_log(LogBatch(rows=[row("t1", s) for s in (1, 2, 3)]
                                   + [row("t2", s) for s in (1, 2)] + [row("t3", 1)]))
    await store.write_log(LogBatch(rows=[row("t1", 4), row("t3", 2)], compact={"t1": 3},
                                   drop={"t2"}))
    assert writer(store).commits == 2
    assert [(r.table_id, r.seq) for r in await store.load_log()] == [
        ("t1", 3), ("t1", 4), ("t3", 1), ("t3", 2)]


async def test_a_duplicate_entry_refuses_the_whole_batch_as_a_record_error(
        store: SqlStore) -> None:
    await store.write_log(LogBatch(rows=[row("t1", 1)]))
    with pytest.raises(IntegrityError) as caught:
        await store.write_log(LogBatch(rows=[row("t2", 1), row("t1", 1)],
                                       outbox=[record("g1")]))
    assert record_error(caught.value)  # the log splits the batch, as on the SQLAlchemy path
    assert [(r.table_id, r.seq) for r in await store.load_log()] == [("t1", 1)]
    assert await store.load_outbox() == []
    await store.write_log(LogBatch(rows=[row("t2", 1)]))  # a fresh connection: it goes on
    assert len(await store.load_log()) == 2


async def test_fences_chip_moves_and_replays_are_left_to_the_sqlalchemy_path(
        store: SqlStore) -> None:
    assert not SqliteLogWriter.takes(LogBatch(rows=[row("t1", 1)], idempotent=True))
    assert not SqliteLogWriter.takes(LogBatch(rows=[row("t1", 1)], fences={"t1": 1}))
    await store.write_log(LogBatch(rows=[row("t1", 1)], idempotent=True))
    await store.write_log(LogBatch(rows=[row("t1", 1), row("t1", 2)], idempotent=True))
    assert writer(store).commits == 0
    assert [(r.table_id, r.seq) for r in await store.load_log()] == [("t1", 1), ("t1", 2)]


def test_only_a_plain_sqlite_file_gets_the_writer() -> None:
    assert sqlite_file(make_url("sqlite+aiosqlite:////tmp/x/cardhall.db")) == "/tmp/x/cardhall.db"
    assert sqlite_file(make_url("sqlite+aiosqlite://")) is None
    assert sqlite_file(make_url("sqlite+aiosqlite:///:memory:")) is None
    assert sqlite_file(make_url("sqlite+aiosqlite:///file:x?mode=memory&uri=true")) is None
    assert sqlite_file(make_url("postgresql+asyncpg://u@h/db")) is None
