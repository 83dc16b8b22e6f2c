"""Processes starting at once on a fresh SQLite file (``cardhall serve --workers N``) migrate
one after another: ``migrate`` holds an exclusive ``flock`` on ``<file>.migrate.lock``
(``storage/sql.py``). Before, two workers both created the tables and one crashed with
"table players already exists"."""

from __future__ import annotations

import asyncio
import fcntl
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cardhall.storage.sql import SqlStore


async def _start_and_close(url: str) -> None:
    store = SqlStore(url, timeout_seconds=5)
    try:
        await store.start()
        await store.ping()
    finally:
        await store.close()


async def test_a_migration_waits_for_the_file_lock(tmp_path: Path) -> None:
    db = tmp_path / "hall.db"
    fd = os.open(f"{db}.migrate.lock", os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)  # another process is migrating
    task = asyncio.create_task(_start_and_close(f"sqlite+aiosqlite:///{db}"))
    try:
        done, _ = await asyncio.wait({task}, timeout=0.5)
        assert not done, "migrated while another process held the migration lock"
    finally:
        os.close(fd)  # that process is done
    await asyncio.wait_for(task, 30)


MIGRATE = """
import asyncio, sys
from cardhall.storage.sql import SqlStore
async def main():
    store = SqlStore(sys.argv[1], timeout_seconds=5)
    await store.start()
    await store.close()
asyncio.run(main())
"""


def test_three_processes_migrating_one_fresh_file_all_succeed(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'hall.db'}"
    procs = [subprocess.Popen([sys.executable, "-c", MIGRATE, url], stderr=subprocess.PIPE)
             for _ in range(3)]
    for proc in procs:
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err.decode()[-2000:]


async def test_a_uri_filename_locks_next_to_its_file(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """``sqlite+aiosqlite:///file:/abs/hall.db?uri=true`` (SQLite's URI filenames): the lock
    was ``file:/abs/hall.db.migrate.lock``, a path relative to the working directory whose
    directory does not exist: the store failed to start (FileNotFoundError)."""
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "data" / "hall.db"
    db.parent.mkdir()
    await _start_and_close(f"sqlite+aiosqlite:///file:{db}?uri=true")
    assert (db.parent / "hall.db.migrate.lock").exists()
    await _start_and_close(f"sqlite+aiosqlite:///file:{db.parent / 'b.db'}?mode=rwc&uri=true")
    assert (db.parent / "b.db.migrate.lock").exists()


async def test_an_in_memory_uri_database_takes_no_lock_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for url in ("sqlite+aiosqlite:///file:mem1?mode=memory&cache=shared&uri=true",
                "sqlite+aiosqlite:///file::memory:?cache=shared&uri=true"):
        store = SqlStore(url)  # (SQLAlchemy's pool for these takes no pool_timeout)
        await store.start()
        await store.close()
    assert list(tmp_path.iterdir()) == []


def test_the_spill_of_a_uri_filename_lies_next_to_its_file() -> None:
    from cardhall.storage.spill import default_path

    assert default_path("sqlite+aiosqlite:///file:/data/hall.db?uri=true", None) == \
        Path("/data/hall.db.spill")  # was file:/data/hall.db.spill, under ./file:
    assert default_path("sqlite+aiosqlite:///file:/data/hall.db?uri=true", None, "a") == \
        Path("/data/hall.db-a.spill")
    assert default_path("sqlite+aiosqlite:///file:m?mode=memory&uri=true",
                        None).name.startswith("cardhall-spill-")
