"""TableLog (``storage/log.py``) against a fake store: group commits, release order, degraded
mode and its recovery, record errors, flush and close, and ``merge``.

The fake store is transactional (a batch lands whole or not at all) and refuses a duplicate
``(table_id, seq)`` like the real primary key. Retries use a fake sleep (no waiting); the one
real timer is the log's ``sync_timeout_seconds``, awaited by polling with a deadline.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

import pytest

from cardhall.storage.interface import GameRecord, LogBatch, LogRow, SeatResult
from cardhall.storage.log import TableLog, _Append, merge

DEADLINE_SECONDS = 10.0


class FakeStore:
    """``write_log`` only. ``script``: what the next calls do (``None`` succeed, an exception
    is raised); when it is empty, ``down`` decides (raise ``ConnectionRefusedError``).
    ``gate``: when set to an unset event, each call waits for it first."""

    def __init__(self) -> None:
        self.rows: dict[tuple[str, int], LogRow] = {}
        self.outbox: list[str] = []
        self.batches: list[LogBatch] = []
        self.script: list[Exception | None] = []
        self.down = False
        self.gate: asyncio.Event | None = None
        self.calls = 0
        self.during_write: Callable[[], None] | None = None
        """Run inside each successful write (a table stepping while the commit runs)."""

    async def load_log(self, table_id: str | None = None) -> list[LogRow]:
        return [r for k, r in sorted(self.rows.items()) if table_id in (None, k[0])]

    async def write_log(self, batch: LogBatch) -> None:
        self.calls += 1
        await asyncio.sleep(0)  # a real database call suspends the log's task
        if self.gate is not None:
            await self.gate.wait()
        outcome = self.script.pop(0) if self.script else (
            ConnectionRefusedError("database down") if self.down else None)
        if outcome is not None:
            raise outcome
        keys = [(r.table_id, r.seq) for r in batch.rows]
        if any(k in self.rows for k in keys) or len(set(keys)) != len(keys):
            raise ValueError(f"duplicate key in {keys}")  # a record error, like IntegrityError
        if any(r.kind == "bad" for r in batch.rows):
            raise ValueError("a value the database refuses")
        for table_id in batch.drop:
            self.rows = {k: v for k, v in self.rows.items() if k[0] != table_id}
        for table_id, before in batch.compact.items():
            self.rows = {k: v for k, v in self.rows.items() if k[0] != table_id or k[1] >= before}
        self.rows.update({(r.table_id, r.seq): r for r in batch.rows})
        self.outbox += [g.game_id for g in batch.outbox]
        self.batches.append(batch)
        if self.during_write is not None:
            self.during_write()


async def no_sleep(_seconds: float) -> None:
    await asyncio.sleep(0)


def rows(table_id: str, *seqs: int, kind: str = "act") -> list[LogRow]:
    return [LogRow(table_id, s, kind, {"v": s}) for s in seqs]


def record(game_id: str) -> GameRecord:
    now = datetime.now(UTC)
    return GameRecord(game_id, "palace_poker", "t", {}, {}, [SeatResult(0, "a", 0)], now, now)


async def until(what: str, pred: Callable[[], bool | Awaitable[bool]]) -> None:
    async with asyncio.timeout(DEADLINE_SECONDS):
        while True:
            ok = pred()
            if not isinstance(ok, bool):
                ok = await ok
            if ok:
                return
            await asyncio.sleep(0.001)  # polling a condition, bounded by the timeout


class Trace:
    """Callbacks that note ``("durable"|"commit", name)`` in call order."""

    def __init__(self) -> None:
        self.events: list[tuple[str, str]] = []

    def durable(self, name: str) -> Callable[[], None]:
        return lambda: self.events.append(("durable", name))

    def commit(self, name: str) -> Callable[[], None]:
        return lambda: self.events.append(("commit", name))

    def of(self, kind: str) -> list[str]:
        return [n for k, n in self.events if k == kind]


def make_log(store: FakeStore, **kwargs: Any) -> TableLog:
    kwargs.setdefault("sync_timeout_seconds", 30.0)
    return TableLog(store, sleep=no_sleep, **kwargs)  # type: ignore[arg-type]


def append(log: TableLog, trace: Trace, name: str, table_id: str, *seqs: int,
           **kwargs: Any) -> None:
    log.append(table_id, rows(table_id, *seqs), on_durable=trace.durable(name),
               on_commit=trace.commit(name), **kwargs)


# ----- group commit and order ---------------------------------------------------------------
async def test_steps_of_several_tables_ready_together_go_in_one_write_log_call() -> None:
    store, trace = FakeStore(), Trace()
    log = make_log(store)
    log.start()
    append(log, trace, "a1", "a", 1, 2)
    append(log, trace, "b1", "b", 1)
    append(log, trace, "a2", "a", 3, outbox=[record("g1")])
    append(log, trace, "c1", "c", 1)
    assert trace.events == [] and log.backlog == 6
    assert await log.flush(DEADLINE_SECONDS)
    assert len(store.batches) == 1 and store.calls == 1
    assert [(r.table_id, r.seq) for r in store.batches[0].rows] == [
        ("a", 1), ("a", 2), ("b", 1), ("a", 3), ("c", 1)]
    assert store.outbox == ["g1"]
    assert trace.of("durable") == trace.of("commit") == ["a1", "b1", "a2", "c1"]
    assert log.backlog == 0 and log.commits == 1 and log.healthy
    await log.close()


async def test_frames_wait_for_their_commit_and_are_released_in_append_order() -> None:
    store, trace = FakeStore(), Trace()
    store.gate = asyncio.Event()
    log = make_log(store)
    log.start()
    append(log, trace, "a1", "a", 1)
    await until("the first commit runs", lambda: store.calls == 1)
    append(log, trace, "b1", "b", 1)  # waits for the next group commit
    append(log, trace, "a2", "a", 2)
    await asyncio.sleep(0)
    assert trace.events == []  # nothing is released before its commit landed
    store.gate.set()
    assert await log.flush(DEADLINE_SECONDS)
    assert len(store.batches) == 2
    assert trace.events == [("durable", "a1"), ("commit", "a1"),
                            ("durable", "b1"), ("durable", "a2"),
                            ("commit", "b1"), ("commit", "a2")]
    await log.close()


# ----- outages ------------------------------------------------------------------------------
async def test_a_failed_commit_degrades_releases_at_once_and_recovers_when_flushed() -> None:
    store, trace = FakeStore(), Trace()
    store.down = True
    log = make_log(store)
    log.start()
    append(log, trace, "a1", "a", 1, outbox=[record("g1")])
    await until("the first failure", lambda: log.failures >= 1)
    assert not log.healthy and trace.of("durable") == ["a1"]
    append(log, trace, "a2", "a", 2)  # degraded: released inside append, before any I/O
    assert trace.of("durable") == ["a1", "a2"]
    assert trace.of("commit") == []  # the game writer gets nothing until the outbox has it
    assert log.backlog == 3
    assert not await log.flush(0.05)
    await until("a few retries", lambda: log.failures >= 3)

    store.down = False
    assert await log.flush(DEADLINE_SECONDS)
    assert log.healthy and log.backlog == 0 and log.lost == 0
    assert sorted(store.rows) == [("a", 1), ("a", 2)] and store.outbox == ["g1"]
    assert trace.of("commit") == ["a1", "a2"]
    append(log, trace, "a3", "a", 3)  # healthy again: waits for its commit
    assert trace.of("durable") == ["a1", "a2"]
    assert await log.flush(DEADLINE_SECONDS)
    assert trace.of("durable") == ["a1", "a2", "a3"]
    await log.close()


async def test_the_backoff_doubles_up_to_its_cap() -> None:
    store = FakeStore()
    store.down = True
    delays: list[float] = []

    async def sleep(seconds: float) -> None:
        delays.append(seconds)
        await asyncio.sleep(0)

    log = TableLog(store, backoff_seconds=0.1, max_backoff_seconds=0.5,  # type: ignore[arg-type]
                   sleep=sleep)
    log.start()
    log.append("a", rows("a", 1))
    await until("six retries", lambda: len(delays) >= 6)
    assert delays[:6] == [0.1, 0.2, 0.4, 0.5, 0.5, 0.5]
    store.down = False
    assert await log.flush(DEADLINE_SECONDS)
    await log.close()


async def test_a_late_commit_releases_the_waiting_frames_and_recovers_when_it_lands() -> None:
    store, trace = FakeStore(), Trace()
    store.gate = asyncio.Event()
    log = make_log(store, sync_timeout_seconds=0.01)
    log.start()
    append(log, trace, "a1", "a", 1)
    await until("the late commit degrades the log", lambda: not log.healthy)
    assert trace.of("durable") == ["a1"] and trace.of("commit") == []
    assert log.failures == 0  # late is not failed: the same commit goes on
    store.gate.set()
    assert await log.flush(DEADLINE_SECONDS)
    assert log.healthy and trace.of("commit") == ["a1"] and store.calls == 1


async def test_healthy_again_after_an_outage_while_tables_keep_stepping() -> None:
    """A busy server has steps waiting after every commit: recovery must not wait for an
    empty queue, or the log would stay degraded (frames undurable) for as long as it is busy."""
    store = FakeStore()
    store.down = True
    log = make_log(store)
    log.start()
    seq = iter(range(1, 1_000_000))
    log.append("a", rows("a", next(seq)))
    await until("the outage is seen", lambda: log.failures >= 1)
    store.during_write = lambda: log.append("a", rows("a", next(seq)))  # always one waiting
    store.down = False
    await until("five commits after the outage", lambda: len(store.batches) >= 5)
    assert log.healthy
    store.during_write = None
    assert await log.flush(DEADLINE_SECONDS)
    await log.close()


# ----- record errors ------------------------------------------------------------------------
async def test_a_record_error_drops_only_the_offending_step() -> None:
    store, trace = FakeStore(), Trace()
    log = make_log(store)
    log.start()
    append(log, trace, "a1", "a", 1)
    log.append("b", rows("b", 1, 2, kind="bad"), on_durable=trace.durable("b1"))
    append(log, trace, "c1", "c", 1)
    assert await log.flush(DEADLINE_SECONDS)
    assert sorted(store.rows) == [("a", 1), ("c", 1)]
    assert log.lost == 2 and log.backlog == 0 and log.failures == 0 and log.healthy
    assert trace.of("durable") == ["a1", "b1", "c1"]  # the table goes on
    await log.close()


async def test_an_outage_during_the_one_by_one_writes_does_not_lose_the_steps_written() -> None:
    store = FakeStore()
    # the batch is refused (c is bad); a alone lands; b alone meets the outage; then retried
    store.script = [ValueError("refused batch"), None, ConnectionRefusedError("down")]
    log = make_log(store)
    log.start()
    log.append("a", rows("a", 1))
    log.append("b", rows("b", 1))
    log.append("c", rows("c", 1, kind="bad"))
    assert await log.flush(DEADLINE_SECONDS)
    assert sorted(store.rows) == [("a", 1), ("b", 1)]
    assert log.lost == 1, "a step that was written counted as lost (written twice?)"
    assert log.backlog == 0 and log.healthy
    await log.close()


# ----- flush and close ----------------------------------------------------------------------
async def test_flush_with_nothing_appended_is_true_and_before_start_is_false() -> None:
    log = make_log(FakeStore())
    assert await log.flush(0)
    log.append("a", rows("a", 1))
    assert not await log.flush(0)  # not started: nothing can commit it
    log.start()
    assert await log.flush(DEADLINE_SECONDS)
    with pytest.raises(RuntimeError):
        log.start()
    await log.close()


async def test_flush_waits_only_for_what_was_appended_before_it() -> None:
    store = FakeStore()
    store.gate = asyncio.Event()
    log = make_log(store)
    log.start()
    log.append("a", rows("a", 1))
    flushed = asyncio.create_task(log.flush(DEADLINE_SECONDS))
    await asyncio.sleep(0)
    log.append("a", rows("a", 2))
    store.gate.set()
    assert await flushed
    assert len(store.batches) >= 1 and ("a", 1) in store.rows
    assert await log.flush(DEADLINE_SECONDS)
    await log.close()


async def test_close_commits_what_is_buffered_then_stops() -> None:
    store, trace = FakeStore(), Trace()
    log = make_log(store)
    log.start()
    append(log, trace, "a1", "a", 1)
    assert await log.close(DEADLINE_SECONDS)
    assert not log.running and sorted(store.rows) == [("a", 1)]
    assert trace.events == [("durable", "a1"), ("commit", "a1")]
    append(log, trace, "a2", "a", 2)  # after close: released at once, never written
    assert trace.of("durable") == ["a1", "a2"] and ("a", 2) not in store.rows


async def test_close_with_the_database_down_gives_up_after_its_timeout_and_releases_all() -> None:
    store, trace = FakeStore(), Trace()
    store.down = True
    log = make_log(store)
    log.start()
    append(log, trace, "a1", "a", 1)
    append(log, trace, "a2", "a", 2)
    assert not await log.close(0.05)
    assert not log.running and store.rows == {}
    assert trace.of("durable") == ["a1", "a2"]
    assert trace.of("commit") == ["a1", "a2"]  # the writer's last chance for their games


# ----- merge --------------------------------------------------------------------------------
def step(table_id: str, seqs: tuple[int, ...] = (), *, compact: int | None = None,
         drop: bool = False, outbox: tuple[str, ...] = ()) -> _Append:
    return _Append(table_id, rows(table_id, *seqs), compact, drop,
                   [record(g) for g in outbox], None)


def test_merge_keeps_order_and_the_latest_compaction_of_each_table() -> None:
    batch = merge([step("a", (1, 2, 3)), step("b", (1,)), step("a", (4, 5), compact=4),
                   step("a", (6,), compact=2), step("b", (2,), outbox=("g1",))])
    assert batch.compact == {"a": 4}
    assert [(r.table_id, r.seq) for r in batch.rows] == [("b", 1), ("a", 4), ("a", 5), ("a", 6),
                                                         ("b", 2)]
    assert [g.game_id for g in batch.outbox] == ["g1"]


def test_merge_of_a_dropped_table_writes_none_of_its_entries_but_keeps_its_outbox() -> None:
    batch = merge([step("a", (1, 2)), step("b", (1,)),
                   step("a", (3,), drop=True, outbox=("g1",))])
    assert batch.drop == {"a"}
    assert [(r.table_id, r.seq) for r in batch.rows] == [("b", 1)]
    assert [g.game_id for g in batch.outbox] == ["g1"]
    assert len(merge([])) == 0


@pytest.mark.parametrize("interval,most", [(0.0, None), (30.0, 2)])
async def test_steps_that_come_within_the_commit_interval_share_the_next_commit(
        interval: float, most: int | None) -> None:
    """``commit_interval_seconds``: a commit costs the server about the same however few
    steps it carries, so a busy log paces its commits and the steps that come meanwhile go
    together. One step a loop turn: without an interval nearly each one is its own commit;
    with one, the first commits at once and the other nine wait for the second (``close``
    ends the wait)."""
    store = FakeStore()
    tl = TableLog(store, sleep=no_sleep, commit_interval_seconds=interval)  # type: ignore[arg-type]
    tl.start()
    released: list[int] = []
    for seq in range(10):
        tl.append("t", rows("t", seq), on_durable=lambda seq=seq: released.append(seq))
        for _ in range(3):
            await asyncio.sleep(0)
    if most is None:
        assert await tl.flush(DEADLINE_SECONDS)
        assert store.calls >= 5, store.calls
    else:
        assert store.calls == 1 and released == [0]  # the rest wait for the interval
        assert await tl.close(DEADLINE_SECONDS)  # closing: no wait any more
        assert store.calls == most, store.calls
    assert released == list(range(10))
    await tl.close()


async def test_a_cancel_as_the_commit_interval_ends_stops_the_log() -> None:
    """``close()`` with a spill hurries the log (``flush``), then cancels its task: a task
    in the interval's wait must stop, not swallow the cancel and wait for steps forever
    (``close()`` would hang on it at shutdown)."""
    store = FakeStore()
    tl = TableLog(store, sleep=no_sleep, commit_interval_seconds=30.0)  # type: ignore[arg-type]
    tl.start()
    tl.append("t", rows("t", 0))
    for _ in range(5):
        await asyncio.sleep(0)
    assert store.calls == 1
    tl.append("t", rows("t", 1))  # waits for the interval
    for _ in range(3):
        await asyncio.sleep(0)
    await tl.flush(0)  # sets the hurry and yields: the wait ends
    assert tl._task is not None
    tl._task.cancel()
    done, _ = await asyncio.wait({tl._task}, timeout=DEADLINE_SECONDS)
    assert done, "the log's task swallowed the cancel"
    await tl.close()
