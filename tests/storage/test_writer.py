"""The game writer (``storage/writer.py``): batching, flush, retries and losses, close; the
same writer over SQLite and PostgreSQL, counting real transactions."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from cardhall.storage import GameRecord, GameWriter, MemoryStore, SeatResult
from cardhall.storage.sql import SqlStore
from cardhall.storage.writer import WriterClosedError

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


def record(game_id: str, *, seats: int = 2, bad: bool = False) -> GameRecord:
    """A finished game; ``bad`` gives two results for seat 0 (a constraint failure in SQL)."""
    results = [SeatResult(0 if bad else i, f"s{i}", 1 - 2 * (i % 2)) for i in range(seats)]
    return GameRecord(game_id, "blot", "t1", {"id": game_id, "actions": []}, {"winner": 0},
                      results, T0, T0)


class RecordingStore(MemoryStore):
    """A MemoryStore that records each ``save_games`` call; the first ``fail`` calls raise, and
    a batch holding a ``poison`` id always raises; ``gate`` (when set) holds every call."""

    def __init__(self, *, fail: int = 0, poison: str | None = None) -> None:
        super().__init__()
        self.calls: list[list[str]] = []
        self.fail = fail
        self.poison = poison
        self.gate: asyncio.Event | None = None

    async def save_games(self, records: Sequence[GameRecord]) -> list[bool]:
        self.calls.append([r.game_id for r in records])
        if self.gate is not None:
            await self.gate.wait()
        if self.fail > 0:
            self.fail -= 1
            raise ConnectionError("database went away")
        if self.poison in {r.game_id for r in records}:
            raise ValueError(f"bad record {self.poison}")
        return await super().save_games(records)


class FakeSleep:
    """Records the backoff delays instead of waiting."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)


async def test_many_submits_are_saved_in_few_transactions() -> None:
    store = RecordingStore()
    writer = GameWriter(store, batch_size=256)
    writer.start()
    for i in range(1000):
        writer.submit(record(f"g{i}"))
    assert writer.queued == 1000 and store.games == {}  # submit did no I/O
    await writer.flush()
    assert [len(c) for c in store.calls] == [256, 256, 256, 232]
    assert len(store.games) == 1000 and writer.saved == 1000 and writer.batches == 4
    assert writer.queued == 0 and writer.failed == 0
    await writer.close()


async def test_a_game_already_saved_counts_as_duplicate_not_saved() -> None:
    store = RecordingStore()
    writer = GameWriter(store)
    writer.start()
    for gid in ("a", "b", "a"):
        writer.submit(record(gid))
    await writer.flush()
    assert writer.saved == 2 and writer.duplicates == 1 and sorted(store.games) == ["a", "b"]
    await writer.close()


async def test_flush_waits_for_what_was_submitted_before_it() -> None:
    store = RecordingStore()
    store.gate = asyncio.Event()
    writer = GameWriter(store)
    await writer.flush()  # nothing submitted: returns at once
    writer.start()
    writer.submit(record("a"))
    flushing = asyncio.create_task(writer.flush())
    for _ in range(20):  # let the writer take the batch and block on the gate
        await asyncio.sleep(0)
    assert store.calls == [["a"]] and not flushing.done() and writer.queued == 1
    writer.submit(record("b"))  # after flush began: the flush need not wait for it
    store.gate.set()
    await flushing
    assert "a" in store.games
    await writer.flush()
    assert sorted(store.games) == ["a", "b"] and writer.queued == 0
    await writer.close()


async def test_flush_of_a_writer_that_never_started_raises() -> None:
    writer = GameWriter(MemoryStore())
    writer.submit(record("a"))
    with pytest.raises(RuntimeError, match="not running"):
        await writer.flush()


async def test_a_failed_batch_is_retried_with_bounded_backoff() -> None:
    store, sleep = RecordingStore(fail=4), FakeSleep()
    writer = GameWriter(store, max_attempts=6, backoff_seconds=0.1, max_backoff_seconds=0.3,
                        sleep=sleep)
    writer.start()
    for i in range(3):
        writer.submit(record(f"g{i}"))
    await writer.flush()
    assert sleep.delays == [0.1, 0.2, 0.3, 0.3]  # doubling, capped
    assert writer.retries == 4 and writer.saved == 3 and writer.failed == 0
    assert len(store.calls) == 5 and all(c == ["g0", "g1", "g2"] for c in store.calls)
    await writer.close()


async def test_a_batch_that_keeps_failing_is_counted_as_lost(
        caplog: pytest.LogCaptureFixture) -> None:
    store, sleep = RecordingStore(fail=10**6), FakeSleep()
    writer = GameWriter(store, max_attempts=3, sleep=sleep)
    writer.start()
    for i in range(3):
        writer.submit(record(f"g{i}"))
    with caplog.at_level(logging.ERROR, logger="cardhall.storage.writer"):
        await writer.flush()
    assert [len(c) for c in store.calls] == [3, 3, 3] and len(sleep.delays) == 2
    assert writer.failed == 3 and writer.saved == 0 and writer.queued == 0
    assert store.games == {}
    assert "LOST 3 finished game(s) (g0, g1, g2)" in caplog.text
    writer.submit(record("g3"))  # the writer goes on after a loss
    store.fail = 0
    await writer.flush()
    assert list(store.games) == ["g3"] and writer.saved == 1
    await writer.close()


async def test_one_bad_record_loses_only_itself_without_retries(
        caplog: pytest.LogCaptureFixture) -> None:
    store, sleep = RecordingStore(poison="g1"), FakeSleep()
    writer = GameWriter(store, sleep=sleep)
    writer.start()
    for i in range(4):
        writer.submit(record(f"g{i}"))
    with caplog.at_level(logging.ERROR, logger="cardhall.storage.writer"):
        await writer.flush()
    assert store.calls == [["g0", "g1", "g2", "g3"], ["g0"], ["g1"], ["g2"], ["g3"]]
    assert sleep.delays == []  # a record error is not retried: it cannot pass
    assert sorted(store.games) == ["g0", "g2", "g3"]
    assert writer.failed == 1 and writer.saved == 3
    assert "LOST 1 finished game(s) (g1): ValueError: bad record g1" in caplog.text
    await writer.close()


def test_record_errors_are_told_from_passing_failures() -> None:
    from sqlalchemy.exc import IntegrityError, OperationalError, StatementError

    from cardhall.storage.writer import record_error

    assert record_error(IntegrityError("INSERT", {}, Exception("UNIQUE constraint failed")))
    assert record_error(StatementError("bind", "INSERT", {}, TypeError("not JSON")))
    assert record_error(ValueError("bad"))
    assert not record_error(OperationalError("INSERT", {}, Exception("database is locked")))
    assert not record_error(ConnectionError("gone"))
    assert not record_error(TimeoutError())


async def test_close_saves_what_is_queued_and_refuses_more() -> None:
    store = RecordingStore()
    writer = GameWriter(store)
    writer.start()
    for i in range(10):
        writer.submit(record(f"g{i}"))
    await writer.close()
    assert len(store.games) == 10 and writer.saved == 10 and not writer.running
    with pytest.raises(WriterClosedError):
        writer.submit(record("late"))
    await writer.close()  # idempotent


async def test_close_of_a_writer_that_never_started_counts_its_records_lost() -> None:
    writer = GameWriter(MemoryStore())
    writer.submit(record("a"))
    await writer.close()
    assert writer.failed == 1 and writer.queued == 0


def test_settings_are_checked() -> None:
    with pytest.raises(ValueError):
        GameWriter(MemoryStore(), batch_size=0)
    with pytest.raises(ValueError):
        GameWriter(MemoryStore(), backoff_seconds=-1)


# ----- on the SQL stores ---------------------------------------------------------------------
def count_commits(store: SqlStore) -> list[int]:
    """A one-element list counting the engine's committed transactions."""
    commits = [0]

    def on_commit(_conn: Any) -> None:
        commits[0] += 1

    event.listen(store.engine.sync_engine, "commit", on_commit)
    return commits


async def writer_saves_batches(store: SqlStore) -> None:
    commits = count_commits(store)
    writer = GameWriter(store, batch_size=100)
    writer.start()
    for i in range(250):
        writer.submit(record(f"g{i}", seats=4))
    writer.submit(record("g0"))  # a duplicate in the same run
    await writer.close()
    assert commits[0] == 3  # 100 + 100 + 51 records
    assert writer.saved == 250 and writer.duplicates == 1 and writer.failed == 0
    games = await store.list_games(limit=1000)
    assert len(games) == 250 and all(len(g.seats) == 4 for g in games)
    assert await store.get_game("g7") == {"id": "g7", "actions": []}


async def test_writer_batches_on_sqlite(tmp_path: Path) -> None:
    store = SqlStore(f"sqlite+aiosqlite:///{tmp_path / 'w.db'}")
    await store.start()
    try:
        await writer_saves_batches(store)
    finally:
        await store.close()


@pytest.mark.postgres
async def test_writer_batches_on_postgres(pg_store: SqlStore) -> None:
    await writer_saves_batches(pg_store)


async def test_a_bad_record_in_a_sql_batch_loses_only_itself(tmp_path: Path) -> None:
    store = SqlStore(f"sqlite+aiosqlite:///{tmp_path / 'w.db'}")
    await store.start()
    try:
        sleep = FakeSleep()
        writer = GameWriter(store, sleep=sleep)
        writer.start()
        for gid in ("a", "b", "c"):
            writer.submit(record(gid, bad=gid == "b"))  # b: two results for seat 0
        await writer.close()
        assert writer.failed == 1 and writer.saved == 2 and sleep.delays == []
        assert sorted(g.id for g in await store.list_games()) == ["a", "c"]
    finally:
        await store.close()


async def test_a_full_queue_refuses_and_counts_the_game_lost(
        caplog: pytest.LogCaptureFixture) -> None:
    store = RecordingStore()
    writer = GameWriter(store, max_queued=3)  # not started: the queue only fills
    for i in range(5):
        writer.submit(record(f"g{i}"))
    assert writer.submitted == 5 and writer.failed == 2 and writer.queued == 3
    assert "LOST" in caplog.text
    writer.start()
    await writer.flush()
    assert sorted(store.games) == ["g0", "g1", "g2"] and writer.saved == 3
    await writer.close()


async def test_a_refused_record_does_not_release_a_flush_early() -> None:
    # a record refused by the full queue is finished at once; it must not count towards the
    # records a flush waits for (submitted before the flush, still queued behind a slow
    # transaction)
    store = RecordingStore()
    store.gate = asyncio.Event()
    writer = GameWriter(store, batch_size=1, max_queued=1)
    writer.start()
    writer.submit(record("a"))
    for _ in range(20):  # the writer takes "a" and blocks on the gate
        await asyncio.sleep(0)
    writer.submit(record("b"))  # queued
    flushing = asyncio.create_task(writer.flush())  # must wait for a and b
    await asyncio.sleep(0)
    writer.submit(record("c"))  # the queue is full: refused, lost
    assert writer.failed == 1 and writer.queued == 2
    gate, store.gate = store.gate, asyncio.Event()  # "a" passes, "b" is held
    gate.set()
    for _ in range(20):
        await asyncio.sleep(0)
    assert store.calls == [["a"], ["b"]] and "b" not in store.games
    assert not flushing.done(), "flush returned while b, submitted before it, was unsaved"
    store.gate.set()
    await flushing
    assert sorted(store.games) == ["a", "b"] and writer.queued == 0
    await writer.close()
