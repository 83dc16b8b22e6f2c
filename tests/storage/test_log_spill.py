"""TableLog with a local spill (``storage/spill.py``, ``storage/spiller.py``) and its counters
after the row-by-row fallback, against the fake store of ``test_table_log.py`` (transactional,
refuses a duplicate ``(table_id, seq)`` unless the batch is a replay).

* degraded: a step's frames go out once it is in the spill file (never before), and a step in
  use of the spill is spilled before it is committed;
* a spill that fails holds the frames until the commit (nothing goes out undurable);
* close with the database down spills what is left; :func:`replay` writes it into a fresh
  store (idempotently, twice is the same as once) and empties the file;
* a chip move is counted once in the backlog after the one-by-one fallback (it was twice);
* a connection reset during ``COMMIT`` of a batch that landed is not logged as LOST.
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

from test_table_log import DEADLINE_SECONDS, FakeStore, Trace, append, no_sleep, record, rows, until

from cardhall.storage.interface import ChipMove, LogBatch, LogRow
from cardhall.storage.log import TableLog
from cardhall.storage.spill import Spill, database_key, default_path, replay


class ReplayStore(FakeStore):
    """The fake store, honouring ``LogBatch.idempotent`` like ``ON CONFLICT DO NOTHING``,
    with chip moves applied once per key."""

    def __init__(self) -> None:
        super().__init__()
        self.moves: dict[str, int] = {}

    async def write_log(self, batch: LogBatch) -> None:
        if batch.idempotent:
            batch = LogBatch(rows=[r for r in batch.rows if (r.table_id, r.seq) not in self.rows],
                             compact=batch.compact, drop=batch.drop, outbox=batch.outbox,
                             fences=batch.fences, chips=batch.chips)
        await super().write_log(batch)
        for m in batch.chips:
            self.moves.setdefault(m.key, m.delta)


def spill_at(tmp_path: Path) -> Spill:
    return Spill(tmp_path / "log.spill", "test-db")


def spilled(path: Path) -> list[int]:
    if not path.exists():
        return []
    with sqlite3.connect(path) as conn:
        return [n for (n,) in conn.execute("SELECT n FROM spill ORDER BY n")]


def make(store: FakeStore, tmp_path: Path, **kwargs: Any) -> TableLog:
    kwargs.setdefault("sync_timeout_seconds", 30.0)
    return TableLog(store, sleep=no_sleep, spill=spill_at(tmp_path),  # type: ignore[arg-type]
                    **kwargs)


async def test_degraded_frames_go_out_only_once_the_step_is_in_the_spill(tmp_path: Path) -> None:
    store, trace = ReplayStore(), Trace()
    store.down = True
    log = make(store, tmp_path)
    log.start()
    append(log, trace, "a1", "a", 1, outbox=[record("g1")])
    await until("the first failure", lambda: log.failures >= 1)
    await until("a1 spilled", lambda: trace.of("durable") == ["a1"])
    assert spilled(tmp_path / "log.spill") == [1]
    append(log, trace, "a2", "a", 2)
    assert trace.of("durable") == ["a1"]  # not before it is on disk
    await until("a2 spilled", lambda: trace.of("durable") == ["a1", "a2"])
    assert spilled(tmp_path / "log.spill") == [1, 2]
    assert not log.healthy and trace.of("commit") == [] and log.spiller is not None
    assert log.spiller.spilled == 2

    store.down = False
    assert await log.flush(DEADLINE_SECONDS)
    assert sorted(store.rows) == [("a", 1), ("a", 2)] and store.outbox == ["g1"]
    assert log.healthy and log.backlog == 0 and log.lost == 0
    await until("the spill is emptied", lambda: spilled(tmp_path / "log.spill") == [])
    assert await log.close(1.0)
    assert not (tmp_path / "log.spill").exists()  # an empty spill is removed at close


async def test_a_failing_spill_holds_the_frames_until_their_commit(tmp_path: Path) -> None:
    store, trace = ReplayStore(), Trace()
    store.down = True
    (tmp_path / "log.spill").mkdir()  # sqlite cannot open a directory: every write fails
    log = make(store, tmp_path)
    log.start()
    append(log, trace, "a1", "a", 1)
    assert log.spiller is not None
    await until("the spill failed", lambda: log.spiller is not None and log.spiller.failing)
    await until("a few commit failures", lambda: log.failures >= 3)
    assert trace.of("durable") == []  # neither committed nor spilled: nothing goes out
    store.down = False
    assert await log.flush(DEADLINE_SECONDS)
    assert trace.of("durable") == ["a1"] and sorted(store.rows) == [("a", 1)]
    await log.close(0.5)


async def test_close_during_an_outage_spills_and_the_next_start_replays_it(tmp_path: Path) -> None:
    store, trace = ReplayStore(), Trace()
    log = make(store, tmp_path, sync_timeout_seconds=0.05)
    log.start()
    append(log, trace, "a1", "a", 1, 2)
    assert await log.flush(DEADLINE_SECONDS)  # committed while healthy: never spilled
    store.down = True
    move = ChipMove("buyin:x", "p1", -100, "buy_in", "a")
    append(log, trace, "a2", "a", 3, 4, outbox=[record("g2")], chips=[move])
    append(log, trace, "b1", "b", 1)
    log.append("c", [LogRow("c", 1, "snapshot", {"v": 1})])
    log.append("c", [], drop=True)
    t0 = asyncio.get_running_loop().time()
    assert await log.close(timeout=2.0)  # nothing lost: what was not committed is spilled
    assert asyncio.get_running_loop().time() - t0 < 2.5
    assert log.unspilled_lost == 0 and spilled(tmp_path / "log.spill") == [2, 3, 4, 5]
    assert trace.of("durable") == ["a1", "a2", "b1"]

    store.down = False  # the next start: the same database, another process
    assert await replay(store, spill_at(tmp_path), timeout_seconds=5) == (4, 0)
    assert sorted(store.rows) == [("a", 1), ("a", 2), ("a", 3), ("a", 4), ("b", 1)]
    assert store.outbox == ["g2"] and store.moves == {"buyin:x": -100}
    assert spilled(tmp_path / "log.spill") == []
    assert await replay(store, spill_at(tmp_path), timeout_seconds=5) == (0, 0)


async def test_a_replay_of_steps_that_had_landed_changes_nothing(tmp_path: Path) -> None:
    store = ReplayStore()
    spill = spill_at(tmp_path)
    from cardhall.storage.spill import encode
    steps = [(1, encode("a", rows("a", 1, 2), None, False, [], [], None)),
             (2, encode("a", rows("a", 3), 3, False, [], [], None)),  # a new game compacts
             (3, encode("z", rows("z", 1), None, False, [], [], None)),
             (4, encode("z", [], None, True, [], [], None))]  # then z closed
    await asyncio.to_thread(spill.write, steps)
    await store.write_log(LogBatch(rows=rows("a", 1, 2)))  # step 1 had landed
    assert await replay(store, spill, timeout_seconds=5) == (4, 0)
    assert sorted(store.rows) == [("a", 3)]  # compacted, and no row of the closed table
    await asyncio.to_thread(spill.write, steps)
    assert await replay(store, spill, timeout_seconds=5) == (4, 0)
    assert sorted(store.rows) == [("a", 3)]


def test_the_default_spill_sits_next_to_a_sqlite_file_and_names_other_databases() -> None:
    assert default_path("sqlite+aiosqlite:////data/cardhall.db", None) == Path(
        "/data/cardhall.db.spill")
    pg = default_path("postgresql+asyncpg://u:secret@db:5432/hall", None)
    assert pg.name.startswith("cardhall-spill-") and pg.parent == Path(".")
    assert pg != default_path("postgresql+asyncpg://u:secret@db:5432/hall", "other")
    assert "secret" not in database_key("postgresql+asyncpg://u:secret@db:5432/hall", None)


# ----- counters after the row-by-row fallback (issue 27 case 7) --------------------------------
async def test_a_step_with_a_chip_move_is_counted_once_after_the_one_by_one_fallback() -> None:
    store, trace = FakeStore(), Trace()
    log = TableLog(store, sleep=no_sleep)  # type: ignore[arg-type]
    store.gate = asyncio.Event()
    log.start()
    append(log, trace, "first", "a", 1)
    await until("the first commit runs", lambda: store.calls == 1)
    move = ChipMove("buyin:y", "p1", -50, "buy_in", "b")
    append(log, trace, "good", "b", 1, chips=[move])
    log.append("c", [LogRow("c", 1, "bad", {"v": 1})])  # refused: the batch goes one by one
    store.gate.set()
    assert await log.flush(DEADLINE_SECONDS)
    assert log.lost == 1 and log.backlog == 0, (log.lost, log.backlog)
    await log.close()


class ResetDuringCommit(FakeStore):
    """The next ``write_log`` lands, then raises ``ConnectionResetError`` (the connection was
    lost while ``COMMIT`` was answered)."""

    def __init__(self) -> None:
        super().__init__()
        self.reset_next = False

    async def write_log(self, batch: LogBatch) -> None:
        await super().write_log(batch)
        if self.reset_next:
            self.reset_next = False
            raise ConnectionResetError("connection reset by peer")


async def test_a_reset_during_a_commit_that_landed_is_counted_committed_not_lost() -> None:
    store, trace = ResetDuringCommit(), Trace()
    log = TableLog(store, sleep=no_sleep)  # type: ignore[arg-type]
    log.start()
    store.reset_next = True
    append(log, trace, "a1", "a", 1, 2)
    append(log, trace, "b1", "b", 1, chips=[ChipMove("k", "p", -1, "buy_in", "b")])
    await until("the reset", lambda: log.failures >= 1)
    append(log, trace, "a2", "a", 3)
    assert await log.flush(DEADLINE_SECONDS)
    assert log.lost == 0 and log.backlog == 0, (log.lost, log.backlog)
    assert sorted(store.rows) == [("a", 1), ("a", 2), ("a", 3), ("b", 1)]
    assert trace.of("commit") == ["a1", "b1", "a2"]
    await log.close()
