"""Chip balances (``chip_balances``/``chip_moves``): moves ride the log's group commit and
apply once per key; the free top-up is atomic and rate-limited; a hold is an atomic
conditional debit, settled or released exactly once (``storage/chips.py``). Every store."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from cardhall.storage.chips import ChipTake, settle_key
from cardhall.storage.interface import CHIPS_START, ChipMove, LogBatch, Store
from cardhall.storage.sql import SqlStore


async def test_a_new_player_holds_the_starting_balance(store: Store) -> None:
    assert await store.chip_balance("p-new") == CHIPS_START


async def test_a_move_applies_once_per_key(store: Store) -> None:
    buy = ChipMove("buyin:t1", "p1", -200, "buy_in", "table-1")
    await store.write_log(LogBatch(chips=[buy]))
    await store.write_log(LogBatch(chips=[buy]))  # a retried commit
    assert await store.chip_balance("p1") == CHIPS_START - 200
    await store.write_log(LogBatch(chips=[ChipMove("cashout:t1", "p1", 350, "cash_out",
                                                   "table-1")]))
    assert await store.chip_balance("p1") == CHIPS_START + 150


async def test_a_fenced_table_moves_no_chips(store: Store) -> None:
    epoch = await store.claim_table("table-f", "node-a")
    await store.claim_table("table-f", "node-b")  # taken over
    batch = LogBatch(chips=[ChipMove("buyin:f", "p2", -100, "buy_in", "table-f")],
                     fences={"table-f": epoch})
    assert await store.write_log(batch) == {"table-f"}
    assert await store.chip_balance("p2") == CHIPS_START


async def test_free_top_up_below_the_minimum_once_per_interval(store: Store) -> None:
    await store.write_log(LogBatch(chips=[ChipMove("buyin:x", "p3", -995, "buy_in", "t")]))
    t0 = datetime(2026, 1, 1, tzinfo=UTC)
    assert await store.chip_balance("p3", top_up_below=20, top_up_to=1000,
                                    top_up_every_seconds=600, now=t0) == 1000
    await store.write_log(LogBatch(chips=[ChipMove("buyin:y", "p3", -990, "buy_in", "t")]))
    later = t0 + timedelta(seconds=60)
    assert await store.chip_balance("p3", top_up_below=20, top_up_to=1000,
                                    top_up_every_seconds=600, now=later) == 10  # not yet
    after = t0 + timedelta(seconds=601)
    assert await store.chip_balance("p3", top_up_below=20, top_up_to=1000,
                                    top_up_every_seconds=600, now=after) == 1000


async def test_no_top_up_at_or_above_the_minimum(store: Store) -> None:
    assert await store.chip_balance("p4", top_up_below=1000, top_up_to=1000) == CHIPS_START
    await store.write_log(LogBatch(chips=[ChipMove("buyin:z", "p4", -100, "buy_in", "t")]))
    assert await store.chip_balance("p4", top_up_below=20, top_up_to=1000) == 900


async def test_holds_debit_atomically_and_never_below_zero(store: Store) -> None:
    """Eight holds of 300 at once on a balance of 1,000: three are taken, the balance is 100."""
    takes = await asyncio.gather(*(store.hold_chips("p-h", f"h{i}", asked=300, most=300,
                                                    table_id="t") for i in range(8)))
    assert sorted(t.taken for t in takes if t is not None) == [0] * 5 + [300] * 3
    assert await store.chip_balance("p-h") == 100


async def test_a_default_hold_takes_the_most_or_the_whole_balance(store: Store) -> None:
    first = await store.hold_chips("p-d", "d1", asked=None, most=800)
    second = await store.hold_chips("p-d", "d2", asked=None, most=800)
    assert (first, second) == (ChipTake(1000, 800), ChipTake(200, 200))
    assert await store.chip_balance("p-d") == 0


async def test_a_retried_hold_debits_once(store: Store) -> None:
    assert await store.hold_chips("p-r", "r1", asked=300, most=300) == ChipTake(1000, 300)
    assert await store.hold_chips("p-r", "r1", asked=300, most=300) == ChipTake(1000, 300)
    assert await store.chip_balance("p-r") == 700


async def test_a_settled_hold_gives_back_only_what_was_not_used(store: Store) -> None:
    await store.hold_chips("p-s", "s1", asked=300, most=300, table_id="t")
    settle = ChipMove(settle_key("s1"), "p-s", 100, "settle", "t")  # 200 went on a stack
    await store.write_log(LogBatch(chips=[settle]))
    await store.write_log(LogBatch(chips=[settle]))  # a retried commit
    assert await store.release_hold("p-s", "s1") == 0  # settled: a release gives nothing
    assert await store.release_stale_holds() == 0
    assert await store.chip_balance("p-s") == 800


async def test_a_released_hold_comes_back_once(store: Store) -> None:
    await store.hold_chips("p-v", "v1", asked=250, most=300)
    assert await store.release_hold("p-v", "v1") == 250
    assert await store.release_hold("p-v", "v1") == 0
    assert await store.chip_balance("p-v") == 1000


async def test_a_hold_released_before_it_was_written_takes_nothing(store: Store) -> None:
    """The lookup gave up on a slow hold and released it; the hold lands afterwards."""
    assert await store.release_hold("p-l", "l1") == 0
    assert await store.hold_chips("p-l", "l1", asked=300, most=300) == ChipTake(1000, 0)
    assert await store.chip_balance("p-l") == 1000


async def test_a_takeover_releases_the_tables_unsettled_holds(store: Store) -> None:
    epoch = await store.claim_table("t-x", "node-a")
    assert (await store.hold_chips("p-x", "x1", asked=300, most=300, table_id="t-x",
                                   epoch=epoch)) == ChipTake(1000, 300)
    await store.hold_chips("p-x", "x2", asked=100, most=300, table_id="t-other")
    assert await store.claim_table("t-x", "node-b") == epoch + 1  # x1's commit never landed
    assert await store.chip_balance("p-x") == 900  # x1 back; x2 (another table) still held
    assert await store.hold_chips("p-x", "x3", asked=300, most=300, table_id="t-x",
                                  epoch=epoch) is None  # the old owner holds nothing now
    assert await store.release_stale_holds() == 100
    assert await store.chip_balance("p-x") == 1000


@pytest.mark.postgres
async def test_two_nodes_holding_at_once_never_overdraw(pg_store: SqlStore) -> None:
    """Two stores (two nodes' connection pools) over one PostgreSQL schema, 20 holds of 300
    of one player at once: 900 taken in all, the balance 100."""
    other = SqlStore(pg_store.url, schema=pg_store.schema)
    await other.start()
    try:
        takes = await asyncio.gather(*((pg_store if i % 2 else other).hold_chips(
            "p-2", f"n{i}", asked=300, most=300) for i in range(20)))
        assert sum(t.taken for t in takes if t is not None) == 900
        assert await pg_store.chip_balance("p-2") == 100
    finally:
        await other.close()
