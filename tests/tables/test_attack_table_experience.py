"""Attacks on the table-experience features (chips, sit out, rematch, chat) at the table
runtime: each test is an attack that must hold."""

from __future__ import annotations

import asyncio
from typing import Any

from tablekit import Harness

from cardhall.protocol import messages as p
from cardhall.tables.connections import RecordingConnection


async def handled(h: Harness, *tables: Any) -> None:
    m = h.manager
    while m._lookups:
        await asyncio.gather(*m._lookups.values(), return_exceptions=True)
    for t in tables:
        await h.settle(t)


def join(h: Harness, table: Any, conn: RecordingConnection, **kw: Any) -> None:
    h.manager.post_request(table, conn, p.Join(type="join", table_id=table.id, **kw))


def errors(conn: RecordingConnection) -> list[str]:
    return [m.code for m in conn.messages if isinstance(m, p.Error)]


async def balance(h: Harness, conn: RecordingConnection) -> int:
    """The stored balance (never topped up by reading it)."""
    return h.store.chips.get(conn.player.id, 1000)


async def test_a_rebuy_with_another_players_seat_token_is_not_charged_to_the_holder(
        h: Harness) -> None:
    """Bob holds Ana's seat token (shared, or leaked): his rebuy on her seat must not take
    chips from her balance after checking only his."""
    table = await h.manager.create("palace_poker", num_seats=3)
    ana, bob = await h.player("ana"), await h.player("bob")
    h.store.chips[ana.player.id] = 200
    join(h, table, ana, seat=0, buy_in=200)
    await handled(h, table)
    seat = table.seats[0]
    assert seat.funded and seat.stack == 200 and await balance(h, ana) == 0
    token = ana.last("joined").seat_token
    seat.stack = 0  # lost every chip (between hands: the table waits for a second seat)
    join(h, table, bob, seat_token=token, buy_in=150)
    await handled(h, table)
    assert await balance(h, ana) >= 0, "ana's balance was charged for bob's rebuy"
    total = await balance(h, ana) + await balance(h, bob) + (seat.stack or 0)
    assert total == 1000  # bob's 1,000, ana's 0, her seat's 0
    assert errors(bob) == ["chips.no_rebuy"] and seat.stack == 0
