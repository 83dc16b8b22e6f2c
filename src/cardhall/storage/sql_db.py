"""What the SQL store's role objects share (``sql.py``): the engine, the session factory and
the write turn."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker


class SqlDatabase:
    """One database of a :class:`~.sql.SqlStore`.

    Args:
        engine: the store's engine (``sql.make_engine``).
        backend: ``"sqlite"`` or ``"postgresql"``.
        timeout_seconds: bound of the wait for the SQLite write turn (:meth:`writing`), in
            seconds; ``None``: unbounded.
    """

    def __init__(self, engine: AsyncEngine, backend: str, timeout_seconds: float | None) -> None:
        self.engine = engine
        self.backend = backend
        self.timeout_seconds = timeout_seconds
        self.sessions = async_sessionmaker(engine, expire_on_commit=False)
        self._write_lock = asyncio.Lock() if backend == "sqlite" else None
        """SQLite has one writer at a time: writes queue here instead of spinning on the file
        lock (``busy_timeout``) when two transactions of this process would write at once."""

    @contextlib.asynccontextmanager
    async def writing(self) -> AsyncIterator[None]:
        """Hold the store's write turn (SQLite) for one write transaction; PostgreSQL: no-op.
        Waiting for the turn is bounded by ``timeout_seconds`` (``TimeoutError``)."""
        if self._write_lock is None:
            yield
            return
        async with asyncio.timeout(self.timeout_seconds):
            await self._write_lock.acquire()
        try:
            yield
        finally:
            self._write_lock.release()

    def insert(self) -> Any:
        """The dialect's ``insert`` (for ``ON CONFLICT``)."""
        return postgresql.insert if self.backend == "postgresql" else sqlite.insert


class SqlRole:
    """A role object of the SQL store (``interface.py``'s roles): its database's engine,
    sessions, back end and write turn, as its own attributes."""

    def __init__(self, db: SqlDatabase) -> None:
        self.db = db
        self.engine = db.engine
        self.sessions = db.sessions
        self.backend = db.backend
        self._writing = db.writing
