"""``cardhall serve --workers N``: each worker takes a spill of its own, and a restarted
worker the one its predecessor left (server/lifespan.py ``_spills``, ``_acquire``)."""

from __future__ import annotations

from pathlib import Path

from cardhall.config import Settings
from cardhall.server.lifespan import _acquire, _spills


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
