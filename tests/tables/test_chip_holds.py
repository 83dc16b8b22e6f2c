"""Holds on chip balances (``tables/balances.py``): a join's buy-in is debited before it
reaches the table, so two joins of one player at two tables cannot buy in the same chips
while the first buy-in waits for its commit; a join that takes nothing gives its hold back;
while the table log is degraded no hold is tried."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Any

from cardhall.config import Settings
from cardhall.protocol import messages as p
from cardhall.storage.interface import LogBatch
from cardhall.storage.log import TableLog
from cardhall.storage.memory import MemoryStore
from cardhall.tables.actor import Table
from cardhall.tables.clock import FakeClock
from cardhall.tables.connections import RecordingConnection
from cardhall.tables.manager import TableManager


class GatedStore(MemoryStore):
    """A memory store whose log commits wait for :attr:`gate` (the database is slow)."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = asyncio.Event()
        self.gate.set()
        self.balance_reads = 0

    async def write_log(self, batch: LogBatch) -> set[str]:
        await self.gate.wait()
        return await super().write_log(batch)

    async def hold_chips(self, player_id: str, hold_id: str, **kw: Any) -> Any:
        self.balance_reads += 1
        return await super().hold_chips(player_id, hold_id, **kw)


@asynccontextmanager
async def manager(store: GatedStore) -> AsyncIterator[tuple[TableManager, TableLog]]:
    """A manager with chip balances over a table log that never degrades by itself (a
    commit held at the gate stays a pending commit, however long the test takes)."""
    settings = Settings(database_url="memory://", chip_balances=True, bot_delay_seconds=0.5,
                        next_hand_pause_seconds=1.0, turn_timeout_seconds=10.0)
    log = TableLog(store, sync_timeout_seconds=3600.0, db_timeout_seconds=3600.0)
    m = TableManager(settings, store, FakeClock(), log=log)
    log.start()
    await m.start()
    try:
        yield m, log
    finally:
        store.gate.set()
        await m.stop()
        await log.close(5.0)


async def handled(m: TableManager, *tables: Table) -> None:
    """Until every lookup is done and each table handled its inbox (commits may wait)."""
    while m._lookups:
        await asyncio.gather(*m._lookups.values(), return_exceptions=True)
    for t in tables:
        await t.inbox.join()


def join(m: TableManager, table: Table, conn: RecordingConnection, **kw: Any) -> None:
    m.post_request(table, conn, p.Join(type="join", table_id=table.id, **kw))


def errors(conn: RecordingConnection) -> list[str]:
    return [m.code for m in conn.messages if isinstance(m, p.Error)]


async def test_two_tables_cannot_buy_in_the_same_chips() -> None:
    store = GatedStore()
    async with manager(store) as (m, log):
        rec, _ = await store.create_player("ana")
        store.chips[rec.id] = 300  # enough for one 200-chip buy-in, not two
        tab1, tab2 = RecordingConnection(rec), RecordingConnection(rec)  # two browser tabs
        t1 = await m.create("palace_poker", num_seats=3)
        t2 = await m.create("palace_poker", num_seats=3)
        store.gate.clear()  # the database stops committing
        join(m, t1, tab1)
        join(m, t2, tab2)  # posted at once: its lookup waits for the first one's
        await handled(m, t1, t2)
        assert t1.seats[0].stack == 200 and t2.seats[0].stack == 100
        assert store.chips[rec.id] == 0  # both debited already, their commits wait
        store.gate.set()
        assert await log.flush(5.0)
        assert await store.chip_balance(rec.id) == 0  # not -100
        assert sorted(m.delta for m in store.chip_moves.values()) == [-200, -100, 0, 0]


async def test_a_held_balance_below_the_minimum_is_refused() -> None:
    store = GatedStore()
    async with manager(store) as (m, log):
        rec, _ = await store.create_player("ana")
        store.chips[rec.id] = 210  # 10 left after one 200-chip buy-in: below min_buy_in 20
        store.topped_up[rec.id] = datetime.now(UTC)  # the free top-up is not due
        tab1, tab2 = RecordingConnection(rec), RecordingConnection(rec)
        t1 = await m.create("palace_poker", num_seats=3)
        t2 = await m.create("palace_poker", num_seats=3)
        store.gate.clear()
        join(m, t1, tab1)
        join(m, t2, tab2, buy_in=20)
        await handled(m, t1, t2)
        assert not t2.seats[0].taken
        assert store.chips[rec.id] == 10  # the refused join took nothing
        store.gate.set()
        assert await log.flush(5.0)
        assert errors(tab2) == ["chips.insufficient"]  # sent behind the commit it waited for
        assert await store.chip_balance(rec.id) == 10


async def test_a_join_that_takes_nothing_gives_its_hold_back() -> None:
    store = GatedStore()
    async with manager(store) as (m, log):
        rec, _ = await store.create_player("ana")
        conn = RecordingConnection(rec)
        table = await m.create("palace_poker", num_seats=3)
        store.gate.clear()
        join(m, table, conn, buy_in=5)  # below min_buy_in
        join(m, table, conn, seat=7)  # no such seat
        await handled(m, table)
        assert store.chips[rec.id] == 795  # both holds: given back with their steps' commits
        store.gate.set()
        assert await log.flush(5.0)
        assert errors(conn) == ["chips.bad_buy_in", "table.bad_seat"]
        assert store.chips[rec.id] == 1000 and not table.seats[0].taken


async def test_a_closed_table_releases_the_hold_of_a_join_it_never_handled() -> None:
    store = GatedStore()
    async with manager(store) as (m, _log):
        rec, _ = await store.create_player("ana")
        conn = RecordingConnection(rec)
        table = await m.create("palace_poker", num_seats=3)
        await m.close(table.id)
        join(m, table, conn)
        await handled(m)
        assert errors(conn) == ["table.not_found"]
        await m.balances.drain()
        assert store.chips[rec.id] == 1000  # debited, then released whole


async def test_no_balance_read_while_the_log_is_degraded() -> None:
    store = GatedStore()
    async with manager(store) as (m, log):
        rec, _ = await store.create_player("ana")
        conn = RecordingConnection(rec)
        table = await m.create("palace_poker", num_seats=3, starting_stack=500)
        assert await log.flush(5.0)  # no commit left to land and make it healthy again
        log.healthy = False  # what a failed or late commit leaves (storage/log.py)
        join(m, table, conn)
        await handled(m, table)
        assert store.balance_reads == 0
        seat = table.seats[0]
        assert seat.taken and seat.stack == 500 and not seat.funded  # the house's chips
        assert await store.chip_balance(rec.id) == 1000  # never moved
