"""Backup and restore of the embedded SQLite database (``cardhall db backup`` / ``db restore``).

SQLite's online backup API copies a live database page by page while the server keeps writing
(WAL mode: readers never block the writer), so a backup needs no downtime and is a consistent
snapshot of one moment. :func:`backup_sqlite` writes it to a new file; :func:`restore_sqlite`
puts a backup in place of a database that no server has open, keeping the file it replaces
beside it. PostgreSQL is backed up with its own tools (``pg_dump -Fc``, ``pg_restore``;
``docs/operations.md``, "Backup and restore").
"""

from __future__ import annotations

import dataclasses
import shutil
import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy.engine import make_url

from .sqlitefile import sqlite_file

PAGES_PER_STEP = 256
"""Pages copied per backup step (the writer may commit between steps)."""


class BackupError(Exception):
    """A backup or restore that cannot be done; the message says why (nothing was changed)."""


@dataclasses.dataclass(frozen=True, slots=True)
class BackupResult:
    """What a backup or restore wrote: the file, its size (bytes), the games it holds and the
    schema revision it is at."""

    path: Path
    bytes: int
    games: int
    revision: str | None


def sqlite_path(url: str) -> Path:
    """The file of a ``sqlite+aiosqlite:///...`` (or ``sqlite:///``) URL.

    Raises:
        BackupError: another back-end (PostgreSQL: use ``pg_dump``), or an in-memory database.
    """
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        raise BackupError(f"{parsed.get_backend_name()} is backed up with its own tools "
                          "(PostgreSQL: pg_dump -Fc; docs/operations.md, 'Backup and restore')")
    file = sqlite_file(parsed)
    if file is None:
        raise BackupError("an in-memory SQLite database has nothing to back up")
    return Path(file)


def _facts(path: Path) -> tuple[int, str | None]:
    """``(games, alembic revision)`` of a SQLite file, read-only."""
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        games = db.execute("SELECT COUNT(*) FROM games").fetchone()[0] if "games" in tables else 0
        revision = db.execute("SELECT version_num FROM alembic_version").fetchone()[0] \
            if "alembic_version" in tables else None
    return int(games), revision


def backup_sqlite(url: str, target: Path, *,
                  progress: Callable[[int, int], None] | None = None) -> BackupResult:
    """Copy the live SQLite database of ``url`` to the new file ``target`` with the online backup
    API (a consistent snapshot; the server may keep running). ``progress(done, total)`` gets
    pages after each step. The copy is checked with ``PRAGMA integrity_check``.

    Raises:
        BackupError: not a SQLite file URL, the database file is missing, ``target`` exists, or
            the copy fails its integrity check (the partial file is removed).
    """
    source = sqlite_path(url)
    if not source.exists():
        raise BackupError(f"no database at {source}")
    if target.exists():
        raise BackupError(f"{target} exists; a backup never overwrites a file")
    target.parent.mkdir(parents=True, exist_ok=True)

    def _step(status: int, remaining: int, total: int) -> None:
        if progress is not None:
            progress(total - remaining, total)

    try:
        with sqlite3.connect(source) as src, sqlite3.connect(target) as dst:
            src.backup(dst, pages=PAGES_PER_STEP, progress=_step)
            dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
            ok = dst.execute("PRAGMA integrity_check").fetchone()[0]
        if ok != "ok":
            raise BackupError(f"the copy failed its integrity check: {ok}")
    except (sqlite3.Error, BackupError) as exc:
        target.unlink(missing_ok=True)
        raise exc if isinstance(exc, BackupError) else BackupError(str(exc)) from exc
    games, revision = _facts(target)
    return BackupResult(target, target.stat().st_size, games, revision)


def _refuse_while_served(url: str) -> None:
    """Refuse while a server has the database open: each server holds its table-log spill's
    lock (``storage/spill.py``; ``<file>.spill.lock`` next to a SQLite file) while it runs.

    Raises:
        BackupError: the lock is held.
    """
    import fcntl
    import os

    from .spill import default_path

    lock = Path(f"{default_path(url, None)}.lock")
    if not lock.exists():
        return
    fd = os.open(lock, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        raise BackupError(f"a server is using {sqlite_path(url)} (it holds {lock}): stop it "
                          "first, then restore") from exc
    finally:
        os.close(fd)  # releases the lock if this process took it


def restore_sqlite(backup: Path, url: str) -> BackupResult:
    """Put the backup file ``backup`` in place of the SQLite database of ``url``. Stop every
    server using that database first. The database it replaces (with its ``-wal``/``-shm``
    files) is kept as ``<name>.replaced-<UTC time>``; a newer schema than the backup's is
    brought up by the next start (migrations run at start-up).

    Raises:
        BackupError: the backup is missing or fails its integrity check, the target is not
            a SQLite file URL, or a server has the database open (its spill lock is held);
            nothing is changed then.
    """
    target = sqlite_path(url)
    if not backup.exists():
        raise BackupError(f"no backup at {backup}")
    _refuse_while_served(url)
    try:
        with sqlite3.connect(f"file:{backup}?mode=ro", uri=True) as db:
            ok = db.execute("PRAGMA integrity_check").fetchone()[0]
    except sqlite3.Error as exc:
        raise BackupError(f"{backup} is not a SQLite database: {exc}") from exc
    if ok != "ok":
        raise BackupError(f"{backup} failed its integrity check: {ok}")
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    for suffix in ("", "-wal", "-shm"):
        old = Path(f"{target}{suffix}")
        if old.exists():
            old.rename(Path(f"{target}.replaced-{stamp}{suffix}"))
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(backup, target)
    games, revision = _facts(target)
    return BackupResult(target, target.stat().st_size, games, revision)
