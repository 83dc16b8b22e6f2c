"""``cardhall serve --workers N``: each worker takes a spill of its own, and a restarted
worker the one its predecessor left (server/lifespan.py ``_spills``, ``_acquire``)."""

from __future__ import annotations

from pathlib import Path

from cardhall.config import Settings
from cardhall.server.lifespan import _acquire, _spills, _take_spill
from cardhall.storage.interface import LogBatch, LogRow
from cardhall.storage.spill import encode


def _settings(tmp_path: Path, **extra: object) -> Settings:
    return Settings(database_url=f"sqlite+aiosqlite:///{tmp_path / 'hall.db'}",
                    durable_tables=True, **extra)  # type: ignore[arg-type]


def test_workers_take_numbered_spills_and_a_restart_takes_the_freed_one(
        tmp_path: Path) -> None:
    settings = _settings(tmp_path, redis_url="redis://127.0.0.1:6379/0")
    first, second = _acquire(_spills(settings)), _acquire(_spills(settings))
    assert first is not None and second is not None
    assert first.path.name == "hall.db.spill"  # where one process keeps it
    assert second.path.name == "hall.db.spill-worker0"
    first.close()  # the worker dies; the supervisor starts another
    again = _acquire(_spills(settings))
    assert again is not None and again.path == first.path
    again.close()
    second.close()


def test_one_process_and_a_named_node_keep_their_one_spill(tmp_path: Path) -> None:
    plain = _spills(_settings(tmp_path))
    named = _spills(_settings(tmp_path, redis_url="redis://127.0.0.1:6379/0", node_id="a"))
    assert [s.path.name for s in plain] == ["hall.db.spill"]
    assert [s.path.name for s in named] == ["hall.db-a.spill"]
    held = _acquire(plain)
    assert held is not None
    assert _acquire(_spills(_settings(tmp_path))) is None  # a second server: no spill
    held.close()


class _Recording:
    """A table log store that records the steps written into it."""

    def __init__(self) -> None:
        self.tables: list[str] = []

    async def write_log(self, batch: LogBatch) -> None:
        self.tables += sorted({r.table_id for r in batch.rows})


async def test_a_slot_left_by_a_run_with_more_workers_is_replayed(tmp_path: Path) -> None:
    """Three workers, a database outage at the stop: the third worker's spill keeps a step.
    The next run has two workers, which take the first two slots; the third slot's step must
    still reach the database (and the file go), not wait for a run of three workers."""
    settings = _settings(tmp_path, redis_url="redis://127.0.0.1:6379/0")
    third = _spills(settings)[2]
    third.acquire()
    third.write([(1, encode("t3", [LogRow("t3", 1, "snapshot", {"v": 1})], None, False,
                              [], [], None))])
    third.close()
    store = _Recording()
    first = await _take_spill(_spills(settings), store, 5.0)  # type: ignore[arg-type]
    second = await _take_spill(_spills(settings), store, 5.0)  # type: ignore[arg-type]
    assert first is not None and second is not None
    assert {first.path.name, second.path.name} == {"hall.db.spill", "hall.db.spill-worker0"}
    assert store.tables == ["t3"]  # replayed once, by the first worker that found it free
    assert not third.exists()
    first.close()
    second.close()
