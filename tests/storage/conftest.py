"""Store fixtures: the one contract runs on MemoryStore, SqlStore/SQLite and SqlStore/PostgreSQL.

PostgreSQL comes from ``CARDHALL_TEST_POSTGRES_URL`` (default
``postgresql+asyncpg://postgres@127.0.0.1:5432/test``). Each test gets its own fresh schema
(dropped afterwards), so runs never see each other's rows and can be repeated; when the server
is unreachable the PostgreSQL cases are skipped with the reason.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from cardhall.storage import MemoryStore, Store
from cardhall.storage.sql import SqlStore

POSTGRES_URL = os.environ.get(
    "CARDHALL_TEST_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
)


_REACHABILITY: dict[str, str | None] = {}
"""Per-session cache of :func:`_postgres_unreachable` (one connection attempt per URL)."""


async def _postgres_unreachable(url: str) -> str | None:
    """``None`` when a connection to ``url`` succeeds within 2 s, else why it failed."""
    if url not in _REACHABILITY:
        _REACHABILITY[url] = await _try_connect(url)
    return _REACHABILITY[url]


async def _try_connect(url: str) -> str | None:
    import asyncpg

    dsn = url.replace("postgresql+asyncpg://", "postgresql://", 1)
    try:
        conn = await asyncpg.connect(dsn, timeout=2)
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"
    await conn.close()
    return None


async def _execute(url: str, sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://", 1),
                                 timeout=5)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


async def postgres_store(url: str = POSTGRES_URL) -> AsyncIterator[SqlStore]:
    """A started SqlStore in a fresh PostgreSQL schema; skips the test when unreachable."""
    why = await _postgres_unreachable(url)
    if why is not None:
        pytest.skip(f"PostgreSQL not reachable at {url} ({why}); set CARDHALL_TEST_POSTGRES_URL")
    schema = f"cardhall_test_{uuid.uuid4().hex[:12]}"
    await _execute(url, f'CREATE SCHEMA "{schema}"')
    store = SqlStore(url, schema=schema)
    try:
        await store.start()
        yield store
    finally:
        await store.close()
        await _execute(url, f'DROP SCHEMA "{schema}" CASCADE')


async def sqlite_store(tmp_path: Path) -> AsyncIterator[SqlStore]:
    """A started SqlStore on a fresh SQLite file."""
    store = SqlStore(f"sqlite+aiosqlite:///{tmp_path / 'cardhall.db'}")
    try:
        await store.start()
        yield store
    finally:
        await store.close()


@pytest.fixture(
    params=["memory", "sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    """Each implementation of the :class:`Store` contract, started and empty."""
    match request.param:
        case "memory":
            mem = MemoryStore()
            await mem.start()
            yield mem
            await mem.close()
        case "sqlite":
            async for s in sqlite_store(tmp_path):
                yield s
        case _:
            async for s in postgres_store():
                yield s


@pytest.fixture
async def pg_store() -> AsyncIterator[SqlStore]:
    """A started SqlStore in a fresh PostgreSQL schema (skips when unreachable)."""
    async for s in postgres_store():
        yield s


@pytest.fixture
async def fresh_pg_schema() -> AsyncIterator[str]:
    """The name of an empty PostgreSQL schema (no tables, not migrated), dropped afterwards;
    skips when PostgreSQL is unreachable."""
    why = await _postgres_unreachable(POSTGRES_URL)
    if why is not None:
        pytest.skip(f"PostgreSQL not reachable at {POSTGRES_URL} ({why}); "
                    "set CARDHALL_TEST_POSTGRES_URL")
    schema = f"cardhall_test_{uuid.uuid4().hex[:12]}"
    await _execute(POSTGRES_URL, f'CREATE SCHEMA "{schema}"')
    try:
        yield schema
    finally:
        await _execute(POSTGRES_URL, f'DROP SCHEMA "{schema}" CASCADE')
