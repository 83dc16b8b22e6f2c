"""Poker chips belong to the player (``tables/chips.py``): buy-in from the balance, cash-out
when the seat is freed, rebuy, typed refusals; the moves ride the table log's commits."""

from __future__ import annotations

import asyncio

from test_durable_restore import Node, joined, node, play, players

from cardhall.protocol import messages as p
from cardhall.storage.memory import MemoryStore
from cardhall.tables.actor import Table
from cardhall.tables.clock import FakeClock
from cardhall.tables.connections import RecordingConnection
from cardhall.tables.messages import ClientRequest


async def join(n: Node, table: Table, conn: RecordingConnection, **kw: object) -> None:
    """Post a join the way the socket side does (with the balance lookup) and settle."""
    n.manager.settings = n.manager.settings.model_copy(update={"chip_balances": True})
    n.manager.post_request(table, conn, p.Join(type="join", table_id=table.id, **kw))
    while n.manager._lookups:
        await asyncio.sleep(0)
    await n.settle(table)


async def seated_poker(n: Node, store: MemoryStore,
                       k: int = 3) -> tuple[Table, list[RecordingConnection]]:
    """A ``k``-seat Palace Poker table with ``k`` players seated on their default buy-in."""
    conns = await players(store, k)
    table = await n.manager.create("palace_poker", num_seats=k)
    for conn in conns:
        await join(n, table, conn)
    return table, conns


async def leave(n: Node, table: Table, conn: RecordingConnection) -> None:
    table.post(ClientRequest(conn, p.Leave(type="leave", table_id=table.id)))
    await n.settle(table)


def errors(conn: RecordingConnection) -> list[str]:
    return [m.code for m in conn.messages if isinstance(m, p.Error)]


async def test_buy_in_comes_from_the_balance_and_leaving_returns_it() -> None:
    store, clock = MemoryStore(), FakeClock()
    async with node(store, clock) as n:
        a, b = await players(store, 2)
        table = await n.manager.create("palace_poker", num_seats=3)
        assert table.buy_in_range() == (20, 200)
        await join(n, table, a, buy_in=150)
        assert table.seats[0].stack == 150 and table.seats[0].funded
        assert await store.chip_balance(a.player.id) == 850
        await join(n, table, b, buy_in=500)
        await join(n, table, b, buy_in=5)
        assert errors(b) == ["chips.bad_buy_in", "chips.bad_buy_in"]
        await leave(n, table, a)
        assert not table.seats[0].taken
        assert await store.chip_balance(a.player.id) == 1000
        await join(n, table, a)  # default: the table's max_buy_in
        assert table.seats[0].stack == 200
        assert await store.chip_balance(a.player.id) == 800


async def test_winnings_stay_with_the_player_after_a_hand() -> None:
    store, clock = MemoryStore(), FakeClock()
    async with node(store, clock) as n:
        table, conns = await seated_poker(n, store)
        assert table.status == "playing"
        await play(n, table, conns)
        assert table.status == "between_hands"
        stacks = [s.stack for s in table.seats]
        for conn in conns:
            await leave(n, table, conn)
        balances = [await store.chip_balance(c.player.id) for c in conns]
        assert balances == [800 + (s or 0) for s in stacks]
        assert sum(balances) == 3000  # hands move chips between players only
        keys = [k for k in store.chip_moves if k.startswith("cashout:")]
        assert len(keys) == 3


async def test_insufficient_balance_and_rebuy_rules() -> None:
    store, clock = MemoryStore(), FakeClock()
    async with node(store, clock) as n:
        (a,) = await players(store, 1)
        store.chips[a.player.id] = 50  # below max_buy_in, above min_buy_in: no top-up
        table = await n.manager.create("soldiers_bluff", num_seats=3)
        await join(n, table, a, buy_in=100)
        assert errors(a) == ["chips.insufficient"]
        await join(n, table, a)  # the whole balance
        assert table.seats[0].stack == 50 and await store.chip_balance(a.player.id) == 0
        await join(n, table, a, buy_in=10)  # a rebuy while the stack is above the ante
        assert errors(a)[-1] == "chips.no_rebuy"
        assert joined(a).seat == 0


async def test_a_dry_balance_is_topped_up_once() -> None:
    store, clock = MemoryStore(), FakeClock()
    async with node(store, clock) as n:
        (a,) = await players(store, 1)
        store.chips[a.player.id] = 3
        table = await n.manager.create("palace_poker", num_seats=3)
        await join(n, table, a)
        assert table.seats[0].stack == 200
        assert await store.chip_balance(a.player.id) == 800
