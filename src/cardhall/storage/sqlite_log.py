"""The table log's group commit on a SQLite file in one hop to a thread (issue 26).

Through SQLAlchemy's aiosqlite adapter every statement of a group commit costs three round
trips to aiosqlite's thread (open a cursor, execute, close it) and the ``COMMIT`` a fourth;
each round trip resumes the log's task only at a later turn of the event loop, and under load
(``docs/performance.md``, "Closed loop on the default configuration") one turn runs the steps
of every busy table: a commit of 50 rows took 23 ms at 100 tables, most of it waiting for
those turns, and every step's frames wait for it (``storage/log.py``). This writer does the
whole transaction (``BEGIN IMMEDIATE``, the deletes of dropped and compacted tables, the
multi-row insert, the outbox insert, ``COMMIT``) in one call on a thread of its own, over its
own ``sqlite3`` connection to the same file: one round trip per commit.

It takes the batches it can write alone: no lease fences (cluster mode), no chip moves (they
go through :class:`~.sql_chips.SqlChips`), not a replay (``idempotent``); the others go the
SQLAlchemy way (:meth:`~.sql_log.SqlTableLog.write_log`). The caller holds the store's write
turn, as for every write. A failed transaction is rolled back and its connection closed (the
next commit opens a fresh one), so a transaction cut short never keeps SQLite's write lock.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import orjson
from sqlalchemy import exc as sa_exc

from .interface import LogBatch


def _json(value: Any) -> str:
    """The JSON columns' text, exactly as ``sql.json_dumps`` (the engine's serialiser) writes it."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def sqlite_file(url: Any) -> str | None:
    """The file of a SQLAlchemy SQLite URL (``sqlite+aiosqlite:///path``), or ``None`` for an
    in-memory database or one opened with URL options (another connection could not share
    those)."""
    if url.get_backend_name() != "sqlite" or url.query:
        return None
    db = url.database
    return None if not db or db == ":memory:" or db.startswith("file:") else str(db)


class SqliteLogWriter:
    """Writes :class:`~.interface.LogBatch` group commits to the SQLite file ``path`` in one
    call on its own thread (see the module docstring).

    Args:
        path: the database file (:func:`sqlite_file`).
        timeout_seconds: SQLite's busy timeout, seconds (the store's ``timeout_seconds``).
    """

    def __init__(self, path: str, timeout_seconds: float | None) -> None:
        self.path = path
        self.timeout_seconds = 5.0 if timeout_seconds is None else timeout_seconds
        self._pool: ThreadPoolExecutor | None = None
        self._conn: sqlite3.Connection | None = None
        self.commits = 0
        """Transactions this writer committed."""

    @staticmethod
    def takes(batch: LogBatch) -> bool:
        """Whether this writer writes ``batch`` (no fences, no chip moves, not a replay)."""
        return not batch.fences and not batch.chips and not batch.idempotent

    async def write(self, batch: LogBatch) -> None:
        """Commit ``batch`` in one transaction; on an error it is rolled back.

        Raises:
            sqlalchemy.exc.IntegrityError: a duplicate entry (or another constraint).
            sqlalchemy.exc.DataError: a value the database refuses.
            sqlalchemy.exc.OperationalError: any other database failure (a locked file).
            TypeError: a value that cannot be serialised.

        These are the SQLAlchemy path's errors, so the log (``storage/log.py``) tells a
        refused batch from one to retry alike. If the awaiting task is cancelled, this still
        waits for the thread to finish (commit or roll back) before the cancellation goes on,
        so the caller's write turn covers the whole transaction."""
        if self._pool is None:
            self._pool = ThreadPoolExecutor(1, thread_name_prefix="cardhall-log")
        fut = asyncio.get_running_loop().run_in_executor(self._pool, self._write, batch)
        try:
            await asyncio.shield(fut)
        except asyncio.CancelledError:
            with contextlib.suppress(BaseException):
                await fut
            raise
        except sqlite3.IntegrityError as e:
            raise sa_exc.IntegrityError("table log group commit", None, e) from e
        except sqlite3.DataError as e:
            raise sa_exc.DataError("table log group commit", None, e) from e
        except sqlite3.Error as e:
            raise sa_exc.OperationalError("table log group commit", None, e) from e

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=self.timeout_seconds, isolation_level=None,
                               check_same_thread=False)
        conn.execute("PRAGMA synchronous=NORMAL")  # as every connection of the store
        conn.execute("PRAGMA foreign_keys=ON")
        return conn

    def _write(self, batch: LogBatch) -> None:
        """The transaction, on the writer's thread (see :meth:`~.sql_log.SqlTableLog._write_batch`
        for what it holds)."""
        conn = self._conn = self._conn or self._connect()
        try:
            conn.execute("BEGIN IMMEDIATE")
            if batch.drop:
                marks = ",".join("?" * len(batch.drop))
                conn.execute(f"DELETE FROM table_log WHERE table_id IN ({marks})",
                             list(batch.drop))
                conn.execute(f"DELETE FROM table_fence WHERE table_id IN ({marks})",
                             list(batch.drop))
            conn.executemany("DELETE FROM table_log WHERE table_id = ? AND seq < ?",
                             [(t, before) for t, before in batch.compact.items()
                              if t not in batch.drop])
            conn.executemany(
                "INSERT INTO table_log (table_id, seq, kind, data) VALUES (?, ?, ?, ?)",
                [(r.table_id, r.seq, r.kind, _json(r.data)) for r in batch.rows
                 if r.table_id not in batch.drop])
            if batch.outbox:
                conn.executemany(
                    "INSERT INTO game_outbox (game_id, record) VALUES (?, ?) "
                    "ON CONFLICT (game_id) DO NOTHING",
                    [(r.game_id, _json(r.to_json())) for r in batch.outbox])
            conn.execute("COMMIT")
            self.commits += 1
        except BaseException:
            self._conn = None
            with contextlib.suppress(Exception):
                conn.rollback()
            with contextlib.suppress(Exception):
                conn.close()
            raise

    def close(self) -> None:
        """Close the connection and stop the thread (waits for a transaction running)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.close()
