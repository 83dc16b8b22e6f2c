"""Two processes starting at once on a fresh PostgreSQL database both come up: migrations run
under ``pg_advisory_lock(MIGRATION_LOCK_KEY)`` (``storage/sql.py``, :func:`migrate`)."""

from __future__ import annotations

import asyncio
import os
import time

import asyncpg
import pytest

from cardhall.storage.sql import MIGRATION_LOCK_KEY, SqlStore

pytestmark = pytest.mark.postgres

POSTGRES_URL = os.environ.get(
    "CARDHALL_TEST_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test")
DSN = POSTGRES_URL.replace("postgresql+asyncpg://", "postgresql://", 1)


async def _start_and_close(schema: str) -> None:
    store = SqlStore(POSTGRES_URL, schema=schema, timeout_seconds=5)
    try:
        await store.start()
        await store.ping()
    finally:
        await store.close()


async def _versions(schema: str) -> list[str]:
    conn = await asyncpg.connect(DSN, timeout=5)
    try:
        rows = await conn.fetch(f'SELECT version_num FROM "{schema}".alembic_version')
    finally:
        await conn.close()
    return [r[0] for r in rows]


async def test_two_stores_starting_at_once_on_a_fresh_pg_schema_both_succeed(
        fresh_pg_schema: str) -> None:
    await asyncio.wait_for(asyncio.gather(*(_start_and_close(fresh_pg_schema) for _ in range(3))),
                           timeout=60)
    assert len(await _versions(fresh_pg_schema)) == 1


async def _wait_for_a_waiter(conn: asyncpg.Connection, bound_seconds: float = 10) -> None:
    """Return once some session waits for the migration lock; fail after ``bound_seconds``."""
    deadline = time.monotonic() + bound_seconds
    key_low = MIGRATION_LOCK_KEY & 0xFFFFFFFF
    while time.monotonic() < deadline:
        waiting = await conn.fetchval(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted "
            "AND objid = $1", key_low)
        if waiting:
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"no session waited for the migration lock within {bound_seconds} s")


async def test_start_waits_while_another_process_holds_the_migration_lock(
        fresh_pg_schema: str) -> None:
    holder = await asyncpg.connect(DSN, timeout=5)
    try:
        await holder.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK_KEY)
        starting = asyncio.create_task(_start_and_close(fresh_pg_schema))
        await _wait_for_a_waiter(holder)
        assert not starting.done()
        assert await holder.fetchval(
            "SELECT to_regclass($1) IS NULL", f'"{fresh_pg_schema}".alembic_version')
        await holder.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK_KEY)
        await asyncio.wait_for(starting, timeout=30)
    finally:
        await holder.close()
    assert len(await _versions(fresh_pg_schema)) == 1
