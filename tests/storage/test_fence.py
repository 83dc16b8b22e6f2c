"""Cluster fencing at the store (``docs/scaling.md``): a log write fenced with an epoch that is
no longer the table's writes nothing of that table, in every store."""

from __future__ import annotations

import asyncio

from cardhall.storage.interface import GameRecord, LogBatch, LogRow, Store


def _rows(table_id: str, seqs: range) -> list[LogRow]:
    return [LogRow(table_id, s, "act", {"v": s}) for s in seqs]


async def test_a_claim_bumps_the_epoch_and_fences_the_older_writer(store: Store) -> None:
    assert await store.claim_table("t1", "node-a") == 1
    assert await store.write_log(LogBatch(rows=_rows("t1", range(1, 3)), fences={"t1": 1})) \
        in (None, set())
    assert await store.claim_table("t1", "node-b") == 2  # node b takes the table over
    assert await store.claimed_tables() == {"t1": 2}
    # node a, which lost the lease, tries to append, compact, drop and save: nothing lands
    game = GameRecord.from_json({"game_id": "g1", "game": "bazaar_blot", "table_id": "t1",
                                 "history": {}, "outcome": {}, "results": [],
                                 "started_at": "2026-12-01T00:00:00+00:00",
                                 "ended_at": "2026-12-01T00:01:00+00:00"})
    fenced = await store.write_log(LogBatch(rows=_rows("t1", range(3, 5)), compact={"t1": 2},
                                            drop={"t1"}, outbox=[game], fences={"t1": 1}))
    assert fenced == {"t1"}
    assert [r.seq for r in await store.load_log("t1")] == [1, 2]
    assert await store.load_outbox() == []
    assert await store.claimed_tables() == {"t1": 2}
    # node b appends with its epoch; a table nobody fences is written as before
    assert not await store.write_log(LogBatch(rows=_rows("t1", range(3, 4)) + _rows("t2", range(1, 2)),
                                              fences={"t1": 2}))
    assert [r.seq for r in await store.load_log("t1")] == [1, 2, 3]
    assert [r.table_id for r in await store.load_log()] == ["t1", "t1", "t1", "t2"]


async def test_a_fenced_table_does_not_stop_the_others_in_the_same_commit(store: Store) -> None:
    await store.claim_table("t1", "a")
    await store.claim_table("t2", "a")
    await store.claim_table("t1", "b")
    fenced = await store.write_log(LogBatch(rows=_rows("t1", range(1, 2)) + _rows("t2", range(1, 2)),
                                            fences={"t1": 1, "t2": 1}))
    assert fenced == {"t1"}
    assert [r.table_id for r in await store.load_log()] == ["t2"]


async def test_closing_a_table_deletes_its_claim(store: Store) -> None:
    await store.claim_table("t1", "a")
    await store.write_log(LogBatch(rows=_rows("t1", range(1, 2)), fences={"t1": 1}))
    await store.write_log(LogBatch(drop={"t1"}, fences={"t1": 1}))
    assert await store.claimed_tables() == {}
    assert await store.load_log() == []


async def test_concurrent_claims_get_distinct_epochs(store: Store) -> None:
    epochs = await asyncio.gather(*(store.claim_table("t1", f"n{i}") for i in range(5)))
    assert sorted(epochs) == [1, 2, 3, 4, 5]
