"""A closed table is freed by reference counting alone. The server's GC tuning freezes the
heap every ``gc_freeze_interval_seconds`` and collects frozen cycles only every
``gc_full_collect_seconds`` (an hour by default), so a closed table that is a
reference cycle (fan-out -> table, abandon timer -> table.post) stayed in memory that long:
some 400 KiB per finished Bazaar Blot match."""

from __future__ import annotations

import asyncio
import gc
import weakref

import pytest
from tablekit import Harness

from cardhall.protocol import messages as p
from cardhall.tables.messages import ClientRequest


@pytest.mark.parametrize("game,seats,bots", [
    ("toy_duel", 2, {1: "random"}),
    ("bazaar_blot", 4, {1: "random", 2: "random", 3: "random"}),
    ("palace_poker", 3, {1: "random", 2: "random"}),
])
async def test_a_closed_table_needs_no_cyclic_collection(h: Harness, game: str, seats: int,
                                                         bots: dict[int, str]) -> None:
    table = await h.manager.create(game, num_seats=seats, bots=bots, turn_timeout_seconds=1.0)
    ana = await h.player("ana")
    table.post(ClientRequest(ana, p.Join(type="join", table_id=table.id, seat=0)))
    await h.settle(table)
    for _ in range(30):
        await h.advance(table, 1.0)
    assert table.hand >= 1
    refs = [weakref.ref(o) for o in (table, table.fanout, table.recorder)]
    gc.collect()
    gc.disable()  # as if frozen: only reference counting frees what dies from here on
    try:
        await h.manager.close(table.id)
        h.clock.advance(1e6)  # the fake clock keeps cancelled timers' callbacks until they pop
        del table, ana
        for _ in range(3):
            await asyncio.sleep(0)
        alive = [r() for r in refs if r() is not None]
        assert alive == [], f"kept alive only by reference cycles: {alive}"
    finally:
        gc.enable()
