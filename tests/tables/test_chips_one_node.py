"""Chips are conserved on one node over SQLite (issue 24, row 8's single-node case): one
player's joins with a ``buy_in`` at many poker tables at once, some from sockets of two
browser tabs, then the next sit-down's balance read (free top-up) and a leave from every table.
The balance is never below zero and ``balance + stacks at the tables == granted`` (no hand is
dealt, so no pot). Also: a process that dies with a hold taken and its commit not landed gives
the hold back at its next start."""

from __future__ import annotations

import asyncio
from pathlib import Path

from cardhall.config import Settings
from cardhall.protocol import messages as p
from cardhall.storage.log import TableLog
from cardhall.storage.sql import SqlStore
from cardhall.tables.clock import FakeClock
from cardhall.tables.connections import RecordingConnection
from cardhall.tables.manager import TableManager

GRANTED = 1_000


async def _settled(m: TableManager, log: TableLog) -> None:
    while m._lookups:
        await asyncio.gather(*m._lookups.values(), return_exceptions=True)
    for t in m.tables.values():
        await t.inbox.join()
    assert await log.flush(5.0)


async def test_one_sqlite_node_never_overdraws_nor_creates_chips(tmp_path: Path) -> None:
    store = SqlStore(f"sqlite+aiosqlite:///{tmp_path / 'chips.db'}")
    await store.start()
    settings = Settings(database_url="sqlite://", chip_balances=True,
                        turn_timeout_seconds=60.0, next_hand_pause_seconds=60.0)
    log = TableLog(store)
    m = TableManager(settings, store, FakeClock(), log=log)
    log.start()
    await m.start()
    try:
        rec, _ = await store.create_player("ana")
        tables = [await m.create("palace_poker", num_seats=2, starting_stack=300)
                  for _ in range(8)]
        tabs = [RecordingConnection(rec) for _ in tables]
        for table, tab in zip(tables, tabs, strict=True):  # all posted in one loop turn
            m.post_request(table, tab, p.Join(type="join", table_id=table.id, seat=0,
                                              buy_in=300))
        await _settled(m, log)
        seated = [t for t in tables if t.seats[0].taken]
        balance = await store.chip_balance(rec.id, top_up_below=30, top_up_to=1000,
                                           top_up_every_seconds=600)  # the next sit-down
        stacks = sum(t.seats[0].stack or 0 for t in seated if t.seats[0].funded)
        assert (len(seated), balance, balance + stacks) == (3, 100, GRANTED)
        for table, tab in zip(tables, tabs, strict=True):
            if table.seats[0].taken:
                m.post_request(table, tab, p.Leave(type="leave", table_id=table.id))
        await _settled(m, log)
        assert await store.chip_balance(rec.id) == GRANTED
    finally:
        await m.stop()
        await log.close(2.0)
        await store.close()


async def test_a_hold_whose_commit_never_landed_comes_back_at_the_next_start(
        tmp_path: Path) -> None:
    """The chips were debited (a hold), the process died before the step that seated the
    player was committed: the next start gives the hold back before restoring the tables."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'chips.db'}"
    store = SqlStore(url)
    await store.start()
    rec, _ = await store.create_player("ana")
    took = await store.hold_chips(rec.id, "h1", asked=300, most=300, table_id="t-gone")
    assert took is not None and took.taken == 300
    assert await store.chip_balance(rec.id) == 700
    await store.close()
    store = SqlStore(url)  # the next process
    await store.start()
    log = TableLog(store)
    m = TableManager(Settings(database_url="sqlite://"), store, FakeClock(), log=log)
    log.start()
    await m.start()
    try:
        assert await store.chip_balance(rec.id) == GRANTED
        assert await store.release_stale_holds() == 0  # once
    finally:
        await m.stop()
        await log.close(2.0)
        await store.close()
