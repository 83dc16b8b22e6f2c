"""Sitting out poker hands (``tables/sitout.py``) and rebuying (``tables/chips.py``) through
the table's requests: the seat keeps its stack and is left out of the hands that start, a
table with too few seats in waits, coming back in deals again; a rebuy below the ante."""

from __future__ import annotations

from test_chips import errors, join, leave, seated_poker
from test_durable_restore import Node, node, play, players

from cardhall.protocol import messages as p
from cardhall.storage.memory import MemoryStore
from cardhall.tables.actor import Table
from cardhall.tables.clock import FakeClock
from cardhall.tables.connections import RecordingConnection
from cardhall.tables.messages import ClientRequest


async def sit_out(n: Node, table: Table, conn: RecordingConnection, out: bool = True) -> None:
    table.post(ClientRequest(conn, p.SitOut(type="sit_out", table_id=table.id, sit_out=out)))
    await n.settle(table)


async def next_hand(n: Node, table: Table) -> None:
    """Let the pause between hands run out (the fake clock)."""
    n.clock.advance(n.manager.settings.next_hand_pause_seconds)
    await n.settle(table)


def seat_flags(conn: RecordingConnection, table: Table) -> list[bool]:
    return [s["sitting_out"] for s in conn.states[table.id]["seats"]]


async def test_a_seat_sitting_out_keeps_its_stack_and_is_not_dealt_in() -> None:
    store, clock = MemoryStore(), FakeClock()
    async with node(store, clock) as n:
        table, conns = await seated_poker(n, store)
        assert table.status == "playing" and table.seat_map == [0, 1, 2]
        await sit_out(n, table, conns[0])  # mid-hand: this hand is played to its end
        assert table.seat_map == [0, 1, 2] and table.status == "playing"
        assert seat_flags(conns[1], table) == [True, False, False]  # everyone sees it
        await play(n, table, conns)
        kept = table.seats[0].stack
        await next_hand(n, table)
        assert table.status == "playing" and table.seat_map == [1, 2]
        assert conns[0].states[table.id]["game_seat"] is None
        await play(n, table, conns)
        assert table.seats[0].stack == kept and table.seats[0].taken
        await sit_out(n, table, conns[0], out=False)
        await next_hand(n, table)
        assert table.seat_map == [s for s in (0, 1, 2) if not table.out_of_chips(s)]
        assert 0 in table.seat_map
        assert seat_flags(conns[0], table) == [False, False, False]


async def test_too_few_seats_in_make_the_table_wait_until_one_is_back() -> None:
    store, clock = MemoryStore(), FakeClock()
    async with node(store, clock) as n:
        table, conns = await seated_poker(n, store)
        await sit_out(n, table, conns[0])
        await sit_out(n, table, conns[1])
        await play(n, table, conns)
        await next_hand(n, table)
        assert table.status == "waiting"  # one seat in: no hand
        assert conns[2].states[table.id]["status"] == "waiting"
        await sit_out(n, table, conns[1], out=False)
        assert table.status == "playing" and table.seat_map == [1, 2]


async def test_sit_out_refusals_and_leaving_ends_it() -> None:
    store, clock = MemoryStore(), FakeClock()
    async with node(store, clock) as n:
        a, b = await players(store, 2)
        blot = await n.manager.create("bazaar_blot", num_seats=4)
        blot.post(ClientRequest(a, p.Join(type="join", table_id=blot.id)))
        await n.settle(blot)
        await sit_out(n, blot, a)
        assert errors(a) == ["table.not_poker"]
        poker = await n.manager.create("palace_poker", num_seats=3)
        await join(n, poker, b, spectate=True)
        await sit_out(n, poker, b)
        assert errors(b) == ["table.not_seated"]
        await join(n, poker, a)
        await sit_out(n, poker, a)
        assert poker.seats[0].sitting_out
        await sit_out(n, poker, a)  # again: nothing changes, the state is sent
        assert poker.seats[0].sitting_out and errors(a) == ["table.not_poker"]
        await leave(n, poker, a)
        await join(n, poker, a)
        assert not poker.seats[0].sitting_out  # a new take of the seat is dealt in


async def test_a_rebuy_below_the_ante_adds_chips_from_the_balance() -> None:
    store, clock = MemoryStore(), FakeClock()
    async with node(store, clock) as n:
        table, conns = await seated_poker(n, store)
        await play(n, table, conns)
        assert table.status == "between_hands"

        def broke(t: Table) -> None:  # as a lost hand leaves it: below the ante
            t.seats[0].stack = 0

        await table.call(broke)
        assert table.out_of_chips(0)
        before = await store.chip_balance(conns[0].player.id)
        await join(n, table, conns[0], buy_in=250)  # the stack may reach max_buy_in only
        assert errors(conns[0]) == ["chips.no_rebuy"]
        await join(n, table, conns[0], buy_in=150)
        assert table.seats[0].stack == 150 and not table.out_of_chips(0)
        assert await store.chip_balance(conns[0].player.id) == before - 150
        hold, settle = list(store.chip_moves.values())[-2:]  # the rebuy's hold, all used
        assert (hold.delta, settle.delta, settle.key) == (-150, 0, "settle:" + hold.key[5:])
        await next_hand(n, table)
        assert table.seat_map == [0, 1, 2]
