"""The SQL :class:`~cardhall.storage.interface.Store`: SQLAlchemy 2 async, SQLite or PostgreSQL.

``SqlStore("sqlite+aiosqlite:///./cardhall.db")`` (the default: WAL journal,
``synchronous=NORMAL``, foreign keys on, one writer at a time) or
``SqlStore("postgresql+asyncpg://user@host/db")`` (a connection pool). :meth:`SqlStore.start`
applies the Alembic migrations shipped in ``migrations/`` up to head on the store's own engine, so
a fresh database needs no set-up.

The store is one object per role of :class:`~cardhall.storage.interface.Store` behind
:class:`~.composed.ComposedStore`, sharing one :class:`~.sql_db.SqlDatabase`:
:class:`~.sql_accounts.SqlPlayers`, :class:`~.sql_audit.SqlAudit`,
:class:`~.sql_archive.SqlArchive` (finished games, written with Core bulk inserts),
:class:`~.sql_ratings.SqlRatings`, :class:`~.sql_log.SqlTableLog` and
:class:`~.sql_chips.SqlChips`. This module also makes engines and runs the migrations.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import os
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
from alembic import command
from alembic.config import Config
from sqlalchemy import event, text
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from .composed import ComposedStore, StoreRoles
from .schema import schema_drift
from .sql_accounts import SqlPlayers
from .sql_archive import SqlArchive
from .sql_audit import SqlAudit
from .sql_chips import SqlChips
from .sql_db import SqlDatabase
from .sql_log import SqlTableLog
from .sql_ratings import SqlRatings
from .sqlitefile import sqlite_file

_log = logging.getLogger(__name__)

PING_TIMEOUT_SECONDS = 1.0
"""The default bound of :meth:`SqlStore.ping`, in seconds."""

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
"""The Alembic script directory, shipped inside the package."""


@dataclass(frozen=True, slots=True)
class PoolSizes:
    """A connection pool's bounds: ``size`` kept open, ``overflow`` more under load,
    ``timeout_seconds`` a checkout waits in the queue while every one is in use."""

    size: int
    overflow: int
    timeout_seconds: float


POOL_DEFAULTS = {"sqlite": (8, 8), "postgresql": (10, 20)}
"""``(size, overflow)`` per back-end: a SQLite file in WAL mode serves many readers at once
(each connection a thread of aiosqlite's) and one writer at a time; on PostgreSQL every node's
pool counts against ``max_connections`` (100 by default: three nodes of 10 + 20 fit)."""


def pool_sizes(backend: str, size: int | None = None, overflow: int | None = None,
               timeout_seconds: float = 30.0) -> PoolSizes:
    """The pool of ``backend`` (``sqlite`` or ``postgresql``): ``size`` and ``overflow``
    where given (``Settings.db_pool_size``, ``db_max_overflow``), else :data:`POOL_DEFAULTS`."""
    base_size, base_overflow = POOL_DEFAULTS.get(backend, (5, 10))
    return PoolSizes(base_size if size is None else size,
                     base_overflow if overflow is None else overflow, timeout_seconds)


def make_engine(url: str, *, schema: str | None = None,
                timeout_seconds: float | None = None,
                pool: PoolSizes | None = None) -> AsyncEngine:
    """An async engine for ``url`` with the default pool and no pre-ping (a checkout costs no
    round trip; a connection that died is replaced when it fails, and the writer retries).

    SQLite connections get ``journal_mode=WAL`` (readers never block the writer),
    ``synchronous=NORMAL`` (no fsync per commit; a power cut may lose the last commits, never
    corrupt the file) and ``foreign_keys=ON``. ``schema`` (PostgreSQL only) becomes the
    connections' ``search_path``, which keeps test runs in their own schema. JSON columns are
    written and read with orjson (:func:`json_dumps`).

    ``timeout_seconds`` bounds every wait on the database (:func:`timeout_args`): SQLite's busy
    timeout (how long a write waits for another connection's lock before ``database is
    locked``), asyncpg's connect and per-statement timeouts, and the pool's checkout wait.
    ``None`` keeps the drivers' defaults (SQLite 5 s, asyncpg 60 s to connect and no statement
    bound, the pool 30 s). ``pool`` sets the pool's size, overflow and checkout wait instead
    (its wait replaces ``timeout_seconds`` for the checkout: a storm of requests queues for a
    connection; issue 26); an in-memory SQLite database keeps its single shared connection.

    Raises:
        ValueError: ``schema`` for a back-end other than PostgreSQL, or ``timeout_seconds``
            not above 0.
    """
    backend = make_url(url).get_backend_name()
    connect_args: dict[str, Any] = {}
    if schema is not None:
        if backend != "postgresql":
            raise ValueError(f"schema={schema!r} needs PostgreSQL, not {backend!r}")
        connect_args["server_settings"] = {"search_path": schema}
    engine_args: dict[str, Any] = {}
    if timeout_seconds is not None:
        connect_args.update(timeout_args(backend, timeout_seconds))
        engine_args["pool_timeout"] = timeout_seconds
    database = make_url(url).database
    if pool is not None and not (backend == "sqlite" and database in (None, "", ":memory:")):
        engine_args.update(pool_size=pool.size, max_overflow=pool.overflow,
                           pool_timeout=pool.timeout_seconds)
    engine = create_async_engine(url, connect_args=connect_args, json_serializer=json_dumps,
                                 json_deserializer=orjson.loads, **engine_args)
    if backend == "sqlite":
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
    return engine


def timeout_args(backend: str, timeout_seconds: float) -> dict[str, float]:
    """The driver's ``connect_args`` that bound its waits by ``timeout_seconds`` (seconds):
    ``{"timeout": t}`` for SQLite (the busy timeout), ``{"timeout": t, "command_timeout": t}``
    for asyncpg (connecting; each statement). Raises ``ValueError`` for ``t <= 0``."""
    if not timeout_seconds > 0:
        raise ValueError(f"timeout_seconds must be above 0, got {timeout_seconds!r}")
    if backend == "postgresql":
        return {"timeout": timeout_seconds, "command_timeout": timeout_seconds}
    return {"timeout": timeout_seconds}


def json_dumps(value: Any) -> str:
    """The JSON columns' serialiser: orjson (UTF-8, integer keys as strings), about ten times
    faster than ``json.dumps`` on a history document, which was half the time of a batch."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


SQLITE_PRAGMAS = ("PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL", "PRAGMA foreign_keys=ON")
"""Run on every new SQLite connection (see :func:`make_engine`)."""


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    for pragma in SQLITE_PRAGMAS:
        cursor.execute(pragma)
    cursor.close()


def alembic_config(url: str | None = None) -> Config:
    """A programmatic Alembic config for the packaged migrations (``url`` optional)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    if url is not None:
        cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


def upgrade_connection(connection: Connection, revision: str = "head") -> None:
    """Run the migrations up to ``revision`` on a live (sync) connection."""
    cfg = alembic_config()
    cfg.attributes["connection"] = connection
    command.upgrade(cfg, revision)


def downgrade_connection(connection: Connection, revision: str = "base") -> None:
    """Run the migrations down to ``revision`` on a live (sync) connection."""
    cfg = alembic_config()
    cfg.attributes["connection"] = connection
    command.downgrade(cfg, revision)


MIGRATION_LOCK_KEY = int.from_bytes(b"cardhall", "big")
"""The ``pg_advisory_lock`` key held while migrating (the bytes of ``cardhall``, a bigint):
processes starting at once on one PostgreSQL database migrate one after the other."""


async def migrate(engine: AsyncEngine, revision: str = "head") -> None:
    """Run the migrations up to ``revision`` on one connection of ``engine``.

    On PostgreSQL the connection holds ``pg_advisory_lock(MIGRATION_LOCK_KEY)`` meanwhile, so a
    second process starting at the same time waits, then finds the schema at head and does
    nothing (instead of both creating the tables and one crashing); on a SQLite file the same
    is done by an exclusive ``flock`` on ``<file>.migrate.lock`` (:func:`_sqlite_migration_lock`:
    the workers of ``cardhall serve --workers N`` start at once, and Alembic's DDL is not one
    SQLite transaction). Raises what Alembic or the driver raise.
    """
    async with _sqlite_migration_lock(engine), engine.connect() as conn:
        locking = conn.dialect.name == "postgresql"
        if locking:
            await conn.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK_KEY})
            await conn.commit()
        try:
            await conn.run_sync(upgrade_connection, revision)
            await conn.commit()
        finally:
            if locking:
                await conn.execute(text("SELECT pg_advisory_unlock(:key)"),
                                   {"key": MIGRATION_LOCK_KEY})
                await conn.commit()


@contextlib.asynccontextmanager
async def _sqlite_migration_lock(engine: AsyncEngine) -> AsyncIterator[None]:
    """Hold an exclusive ``flock`` on ``<file>.migrate.lock`` of a SQLite file database (waited
    for in a thread, so the event loop runs on); nothing for other databases and in-memory
    SQLite. Closing the descriptor releases the lock."""
    path = sqlite_file(engine.url)
    if path is None:
        yield
        return
    fd = os.open(f"{path}.migrate.lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        await asyncio.to_thread(fcntl.flock, fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


async def upgrade_database(url: str, revision: str = "head") -> None:
    """Apply the migrations to the database at ``url`` (``cardhall db upgrade``), under the
    migration lock of :func:`migrate`."""
    engine = make_engine(url)
    try:
        await migrate(engine, revision)
    finally:
        await engine.dispose()


def stamp_connection(connection: Connection, revision: str) -> None:
    """Record ``revision`` as the database's on a live (sync) connection, running nothing
    (Alembic's ``stamp``: the runbook's repair of a database stamped at a revision it never
    ran, ``docs/operations.md`` "Schema drift")."""
    cfg = alembic_config()
    cfg.attributes["connection"] = connection
    command.stamp(cfg, revision, purge=True)


async def stamp_database(url: str, revision: str) -> None:
    """``cardhall db stamp REVISION``: :func:`stamp_connection` on the database at ``url``.
    Raises what Alembic raises for an unknown revision, and what the driver raises."""
    engine = make_engine(url)
    try:
        async with engine.begin() as conn:
            await conn.run_sync(stamp_connection, revision)
    finally:
        await engine.dispose()


class SqlStore(ComposedStore):
    """Identities, finished games and live tables in a SQL database (see the module docstring).

    Raises:
        ValueError: a back-end other than SQLite or PostgreSQL (the bulk save uses their
            ``ON CONFLICT``), or ``schema`` on SQLite.
    """

    def __init__(self, url: str, *, schema: str | None = None,
                 timeout_seconds: float | None = None, migrate_on_start: bool = True,
                 pool: PoolSizes | None = None) -> None:
        backend = make_url(url).get_backend_name()
        if backend not in ("sqlite", "postgresql"):
            raise ValueError(f"the SQL store supports SQLite and PostgreSQL, not {backend!r}")
        self.url = url
        self.schema = schema
        self.timeout_seconds = timeout_seconds
        self.migrate_on_start = migrate_on_start
        """``False``: :meth:`start` only checks the schema (a one-shot ``cardhall db upgrade``
        migrates, ``docs/storage.md`` "Expand and contract")."""
        """Bound of every wait on the database (:func:`make_engine`) and on the SQLite write
        turn, in seconds; ``None``: the drivers' defaults and no bound on the turn."""
        self.engine = make_engine(url, schema=schema, timeout_seconds=timeout_seconds,
                                  pool=pool)
        self.backend = backend
        db = SqlDatabase(self.engine, backend, timeout_seconds)
        self.sessions = db.sessions
        chips, ratings = SqlChips(db), SqlRatings(db)
        self._log = SqlTableLog(db, chips)
        super().__init__(StoreRoles(players=SqlPlayers(db), audit=SqlAudit(db),
                                    archive=SqlArchive(db, ratings, self._log), ratings=ratings,
                                    log=self._log, chips=chips))
        self.schema_drift: list[str] = []
        """What :meth:`start` found different between the migrated database and the models
        (:func:`~cardhall.storage.schema.schema_drift`); ``/readyz`` is not ready while any."""

    async def start(self) -> None:
        """Apply the migrations up to head (idempotent; :func:`migrate`, which on PostgreSQL
        holds the migration lock), then compare the schema with the models into
        :attr:`schema_drift` (logged as an error when not empty; the server still starts, and
        ``/readyz`` reports it). With ``migrate_on_start`` off it only checks. PostgreSQL migrates on an engine of its own without the
        statement timeout (a migration may take longer than a request may)."""
        if not self.migrate_on_start:
            pass
        elif self.backend != "postgresql":
            await migrate(self.engine)
        else:
            engine = make_engine(self.url, schema=self.schema)
            try:
                await migrate(engine)
            finally:
                await engine.dispose()
        async with self.engine.connect() as conn:
            self.schema_drift = await conn.run_sync(schema_drift)
        if self.schema_drift:
            _log.error("database schema differs from this release's models after migrating "
                       "(docs/operations.md, 'Schema drift'): %s", "; ".join(self.schema_drift))

    async def close(self) -> None:
        await self._log.close_log()
        await self.engine.dispose()

    async def ping(self) -> None:
        """Check that the database answers ``SELECT 1`` (connecting if needed) within
        ``timeout_seconds``, or :data:`PING_TIMEOUT_SECONDS` when that is unset. Raises
        ``TimeoutError`` past the bound, or the driver's error
        (``sqlalchemy.exc.OperationalError``, ``OSError`` ...)."""
        async with asyncio.timeout(self.timeout_seconds or PING_TIMEOUT_SECONDS), \
                self.engine.connect() as conn:
            await conn.execute(text("SELECT 1"))
