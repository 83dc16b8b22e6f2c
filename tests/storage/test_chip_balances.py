"""Chip balances (``chip_balances``/``chip_moves``): moves ride the log's group commit and
apply once per key; the free top-up is atomic and rate-limited. Every store."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from cardhall.storage.interface import CHIPS_START, ChipMove, LogBatch, Store


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
