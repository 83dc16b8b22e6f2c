"""Issue 27 case 7 on PostgreSQL: the table log's counters are right after the row-by-row
fallback, and a connection reset during ``COMMIT`` of a transaction that landed is not logged
as LOST. The runbook's "backlog back to 0, safe to restart" must be true
(``docs/operations.md``).

The log writes through a TCP proxy (``dbproxy.py``) that can reset the connection right after
PostgreSQL answered ``COMMIT``, before the answer reaches the client.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator

import asyncpg
import pytest
from dbproxy import db_proxy

from cardhall.storage.interface import ChipMove, LogBatch, LogRow
from cardhall.storage.log import TableLog
from cardhall.storage.sql import SqlStore

pytestmark = pytest.mark.postgres

URL = os.environ.get("CARDHALL_TEST_POSTGRES_URL",
                     "postgresql+asyncpg://postgres@127.0.0.1:5432/test")
DSN = URL.replace("postgresql+asyncpg://", "postgresql://", 1)


@pytest.fixture
async def store() -> AsyncIterator[tuple[SqlStore, str]]:
    """A migrated store in a fresh schema, and that schema's name."""
    try:
        conn = await asyncpg.connect(DSN, timeout=3)
    except Exception as exc:
        pytest.skip(f"PostgreSQL not reachable at {URL} ({type(exc).__name__}: {exc})")
    name = f"cardhall_test_{uuid.uuid4().hex[:12]}"
    await conn.execute(f'CREATE SCHEMA "{name}"')
    s = SqlStore(URL, schema=name, timeout_seconds=2)
    try:
        await s.start()
        yield s, name
    finally:
        await s.close()
        await conn.execute(f'DROP SCHEMA "{name}" CASCADE')
        await conn.close()


async def test_a_step_with_a_chip_move_counts_once_after_the_row_by_row_fallback(
        store: tuple[SqlStore, str]) -> None:
    s, _ = store
    player, _ = await s.create_player("ana")
    await s.write_log(LogBatch(rows=[LogRow("taken", 1, "snapshot", {"v": 1})]))
    log = TableLog(s, backoff_seconds=0.01)
    log.start()
    log.append("t", [LogRow("t", 1, "snapshot", {"v": 1})],
               chips=[ChipMove(f"buyin:{uuid.uuid4().hex}", player.id, -100, "buy_in", "t")])
    log.append("taken", [LogRow("taken", 1, "snapshot", {"v": 2})])  # a duplicate: refused
    assert await log.flush(20)
    assert (log.lost, log.backlog) == (1, 0)  # before: lost 1, backlog -1
    assert await s.chip_balance(player.id) == 900
    await log.close(5)


async def test_a_reset_during_commit_of_a_batch_that_landed_is_committed_not_lost(
        store: tuple[SqlStore, str]) -> None:
    s, schema = store
    player, _ = await s.create_player("bob")
    async with db_proxy("127.0.0.1", 5432) as proxy:
        proxied = SqlStore(URL.replace("127.0.0.1:5432", f"127.0.0.1:{proxy.port}"),
                           schema=schema, timeout_seconds=2)
        await proxied.start()
        log = TableLog(proxied, backoff_seconds=0.01)
        log.start()
        try:
            log.append("t1", [LogRow("t1", 1, "snapshot", {"v": 1})])
            assert await log.flush(20)
            proxy.cut_after_reply_to(b"COMMIT")
            log.append("t1", [LogRow("t1", 2, "act", {"v": 2})],
                       chips=[ChipMove(f"buyin:{uuid.uuid4().hex}", player.id, -100, "buy_in",
                                       "t1")])
            log.append("t2", [LogRow("t2", 1, "snapshot", {"v": 1})])
            assert await log.flush(20)
            assert proxy.cuts == 1 and log.failures >= 1
            assert (log.lost, log.backlog) == (0, 0)  # before: lost 3 (UniqueViolation), -1
            assert [(r.table_id, r.seq) for r in await s.load_log()] == [
                ("t1", 1), ("t1", 2), ("t2", 1)]
            assert await s.chip_balance(player.id) == 900  # the move landed once
        finally:
            await log.close(5)
            await proxied.close()
