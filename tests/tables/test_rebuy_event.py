"""A poker stack that grows between hands is said to the table (``docs/protocol.md``, the
``rebuy`` table event): a holder's rebuy from the chip balance, and the house's refill of a
built-in bot's stack. Both are public, as stacks are."""

from __future__ import annotations

from typing import Any

from test_attack_table_features import handled, join

from cardhall.tables.connections import RecordingConnection


def rebuys(conn: RecordingConnection) -> list[dict[str, Any]]:
    return [e for f in conn.frames if f.get("type") == "state"
            for e in f.get("events") or [] if e.get("kind") == "rebuy"]


async def test_a_holders_rebuy_is_sent_to_everyone_at_the_table(h: Any) -> None:
    table = await h.manager.create("palace_poker", num_seats=3)
    ana, watcher = await h.player("ana"), await h.player("watcher")
    join(h, table, ana, seat=0, buy_in=200)
    join(h, table, watcher, spectate=True)
    await handled(h, table)
    seat = table.seats[0]
    seat.stack = 0  # lost every chip (the table waits for more seats: between hands)
    join(h, table, ana, buy_in=150)
    await handled(h, table)
    assert seat.stack == 150
    said = {"kind": "rebuy", "seat": 0, "chips": 150, "stack": 150, "house": False}
    assert rebuys(ana) == [said] and rebuys(watcher) == [said]


async def test_the_houses_refill_of_a_bots_stack_is_said(h: Any) -> None:
    table = await h.manager.create("palace_poker", num_seats=2, bots={1: "rule"})
    table.seats[1].stack = 0  # the bot lost its chips
    ana = await h.player("ana")
    join(h, table, ana, seat=0, buy_in=200)  # the hand starts: the house refills the bot first
    await handled(h, table)
    start = table.spec.starting_stack
    assert table.seats[1].stack is not None and table.status == "playing"
    assert rebuys(ana) == [{"kind": "rebuy", "seat": 1, "chips": start, "stack": start,
                            "house": True}]
