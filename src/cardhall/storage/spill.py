"""The table log's local spill: steps whose frames go out before their database commit.

While the database does not take the table log's commits in time (an outage: refused
connections, a lock, a full disk), a step's frames may not wait for its commit: the tables would
stop. They wait instead for the step to be written to the *spill*, a SQLite file on the local
disk (``PRAGMA synchronous=FULL`` in WAL mode: each write is fsync'd before it returns), which
takes a few milliseconds. So whatever a client was sent is either in the database or in the
spill, and a process that dies during an outage (``SIGKILL``, OOM, a deploy) loses nothing: at
the next start, before any table is restored, :func:`replay` writes the spilled steps into the
database in their order, idempotently (log entries are inserted with ``ON CONFLICT DO NOTHING``
on ``(table_id, seq)``; finished games by id; chip moves by key; compactions and drops again),
and then empties the spill.

The file holds one row per step: ``n`` (the step's place in its process's append order) and
the step as JSON (:func:`encode`). A step committed to the database is deleted from the spill
(:meth:`Spill.forget`, everything up to the latest committed ``n``). The table log writes a step
to the spill *before* it may commit it, as long as the spill is in use, so that every committed
step later than a spilled one is in the spill too: replaying the spill in order then ends in
the same database as the steps' own commits, whichever of them had landed
(``storage/log.py``). The file is created on first use and deleted when a clean shutdown leaves
it empty.

Only the standard library's :mod:`sqlite3` is used (called on one worker thread by the log):
it is the local, crash-safe, fsync'd store Python already ships, and the spill needs nothing
more (an append-only journal of our own would have to get torn writes and fsync right itself).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import logging
import os
import re
import sqlite3
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson
from sqlalchemy.engine import make_url

from .interface import ChipMove, GameRecord, LogBatch, LogRow
from .sqlitefile import sqlite_file

if TYPE_CHECKING:
    from .interface import TableLogStore

log = logging.getLogger(__name__)

SCHEMA = ("CREATE TABLE IF NOT EXISTS spill (n INTEGER PRIMARY KEY, step BLOB NOT NULL)",
          "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
REPLAY_CHUNK = 500
"""Spilled steps merged into one transaction at replay."""


class SpillMismatchError(RuntimeError):
    """The spill file was written for another database (its ``meta.database`` differs)."""


class SpillBusyError(RuntimeError):
    """Another process holds the spill (two servers on one database and one spill)."""


def database_key(database_url: str, schema: str | None) -> str:
    """The database a spill belongs to: its URL without the password, plus the schema."""
    url = make_url(database_url).set(password=None) if "://" in database_url else database_url
    return f"{url}#{schema or ''}"


def default_path(database_url: str, schema: str | None, node_id: str | None = None) -> Path:
    """Where the spill goes unless ``CARDHALL_LOG_SPILL_PATH`` says: next to a SQLite file
    (``<file>.spill``); else ``cardhall-spill-<hash>.db`` in the working directory, the hash
    naming the database (URL without password, and schema), so two databases never share one.
    A ``CARDHALL_NODE_ID`` (cluster mode) is part of the name: each node has its own."""
    node = "" if not node_id else "-" + re.sub(r"[^A-Za-z0-9_.-]", "_", node_id)[:64]
    if "://" in database_url:
        file = sqlite_file(make_url(database_url))
        if file is not None:
            return Path(f"{file}{node}.spill")
    digest = hashlib.sha256(database_key(database_url, schema).encode()).hexdigest()[:12]
    return Path(f"cardhall-spill-{digest}{node}.db")


def encode(table_id: str, rows: list[LogRow], compact: int | None, drop: bool,
           outbox: list[GameRecord], chips: list[ChipMove], epoch: int | None) -> bytes:
    """One step as JSON bytes (what :func:`decode` reads back)."""
    return orjson.dumps({"table_id": table_id,
                         "rows": [[r.seq, r.kind, r.data] for r in rows],
                         "compact": compact, "drop": drop,
                         "outbox": [g.to_json() for g in outbox],
                         "chips": [asdict(m) for m in chips], "epoch": epoch},
                        option=orjson.OPT_NON_STR_KEYS)


def decode(doc: bytes) -> LogBatch:
    """A spilled step as a one-step :class:`LogBatch` (``idempotent``). Raises ``ValueError``
    or ``KeyError`` for bytes :func:`encode` did not write."""
    step: dict[str, Any] = orjson.loads(doc)
    table_id = step["table_id"]
    batch = LogBatch(rows=[LogRow(table_id, int(s), k, d) for s, k, d in step["rows"]],
                     outbox=[GameRecord.from_json(g) for g in step["outbox"]],
                     chips=[ChipMove(**m) for m in step["chips"]], idempotent=True)
    if step["drop"]:
        batch.drop.add(table_id)
    if step["compact"] is not None:
        batch.compact[table_id] = int(step["compact"])
    if step["epoch"] is not None:
        batch.fences[table_id] = int(step["epoch"])
    return batch


class Spill:
    """The spill file (see the module docstring). Every method is blocking (disk I/O): call
    them from one worker thread, one at a time.

    Args:
        path: the SQLite file (created, with its directory, on first write).
        database: :func:`database_key` of the database this process writes; a file written
            for another is refused (:class:`SpillMismatchError`) instead of replayed there.
    """

    def __init__(self, path: Path, database: str) -> None:
        self.path = path
        self.database = database
        self._conn: sqlite3.Connection | None = None
        self._lock: int | None = None

    def acquire(self) -> None:
        """Take the spill for this process (an exclusive ``flock`` on ``<path>.lock``, held
        until :meth:`close`), so that no second server replays or writes it meanwhile.

        Raises:
            SpillBusyError: another process (or another app of this one) holds it.
        """
        if self._lock is not None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(f"{self.path}.lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            os.close(fd)
            raise SpillBusyError(
                f"the table log spill {self.path} is in use by another server: two processes "
                "must not serve one database's live tables (cluster mode: give each node its "
                "own CARDHALL_NODE_ID or CARDHALL_LOG_SPILL_PATH)") from exc
        self._lock = fd

    def _open(self) -> sqlite3.Connection:
        if self._conn is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False,
                                   timeout=5.0)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            for stmt in SCHEMA:
                conn.execute(stmt)
            found = conn.execute("SELECT value FROM meta WHERE key='database'").fetchone()
            if found is None:
                conn.execute("INSERT INTO meta VALUES ('database', ?)", (self.database,))
            elif found[0] != self.database:
                conn.close()
                raise SpillMismatchError(
                    f"{self.path} holds steps of database {found[0]!r}, not {self.database!r}; "
                    "start the server on that database to replay them, or move the file away")
            self._conn = conn
        return self._conn

    def write(self, steps: list[tuple[int, bytes]]) -> None:
        """Store ``(n, step)`` pairs in one fsync'd transaction (a step already there is
        replaced). Raises ``sqlite3.Error``/``OSError`` (disk full, permissions)."""
        conn = self._open()
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.executemany("INSERT OR REPLACE INTO spill (n, step) VALUES (?, ?)", steps)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    def forget(self, through: int) -> int:
        """Delete the steps with ``n <= through`` (committed to the database); returns how
        many are left."""
        conn = self._open()
        conn.execute("DELETE FROM spill WHERE n <= ?", (through,))
        return int(conn.execute("SELECT COUNT(*) FROM spill").fetchone()[0])

    def exists(self) -> bool:
        return self.path.exists()

    def load(self) -> list[tuple[int, bytes]]:
        """Every spilled step, in order (none when there is no file)."""
        if self._conn is None and not self.exists():
            return []
        conn = self._open()
        return [(int(n), bytes(doc)) for n, doc in
                conn.execute("SELECT n, step FROM spill ORDER BY n").fetchall()]

    def clear(self) -> None:
        """Delete every step (after a replay committed them)."""
        if self._conn is None and not self.exists():
            return
        self._open().execute("DELETE FROM spill")

    def close(self, *, remove_if_empty: bool = False) -> bool:
        """Close the file; with ``remove_if_empty`` delete it (and its WAL) when it holds no
        step. Returns whether it was removed."""
        conn, self._conn = self._conn, None
        empty = conn is None and not self.exists()
        if conn is not None:
            try:
                empty = conn.execute("SELECT COUNT(*) FROM spill").fetchone()[0] == 0
            finally:
                conn.close()
        removed = False
        if remove_if_empty and empty:
            for suffix in ("", "-wal", "-shm", ".lock"):
                with contextlib.suppress(FileNotFoundError):
                    os.remove(f"{self.path}{suffix}")
            removed = True
        lock, self._lock = self._lock, None
        if lock is not None:
            os.close(lock)  # releases the flock
        return removed


async def replay(store: TableLogStore, spill: Spill, *, timeout_seconds: float) -> tuple[int, int]:
    """Write every spilled step into ``store`` (in order, :data:`REPLAY_CHUNK` steps per
    transaction, each bounded by ``timeout_seconds``), then empty the spill. A chunk the
    database refuses for a record is written step by step and a step refused alone is logged
    as LOST and skipped. Returns ``(steps replayed, steps lost)``.

    Raises:
        SpillMismatchError: the file belongs to another database.
        Exception: the database failed otherwise (nothing is emptied; the next start replays
            again: replaying is idempotent).
    """
    import asyncio

    from .log_steps import merge_batches
    from .writer import record_error

    steps = await asyncio.to_thread(spill.load)
    if not steps:
        return 0, 0
    log.warning("table log spill %s: %d step(s) not committed before the last stop; "
                "writing them into the database before any table is restored",
                spill.path, len(steps))
    batches = [(n, decode(doc)) for n, doc in steps]
    lost = 0
    for i in range(0, len(batches), REPLAY_CHUNK):
        chunk = batches[i:i + REPLAY_CHUNK]
        try:
            async with asyncio.timeout(timeout_seconds):
                await store.write_log(merge_batches([b for _, b in chunk]))
            continue
        except Exception as exc:
            if not record_error(exc):
                raise
        for n, b in chunk:
            try:
                async with asyncio.timeout(timeout_seconds):
                    await store.write_log(b)
            except Exception as exc:
                if not record_error(exc):
                    raise
                lost += 1
                log.error("table log spill: step %d of table %s was refused (%s: %s); LOST",
                          n, next(iter({r.table_id for r in b.rows} or {"?"})),
                          type(exc).__name__, exc)
    await asyncio.to_thread(spill.clear)
    log.info("table log spill: %d step(s) replayed into the database", len(steps) - lost)
    return len(steps) - lost, lost
