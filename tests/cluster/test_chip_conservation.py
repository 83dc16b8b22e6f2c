"""Issue 24, row 8: chips are conserved across cluster nodes. One guest (balance 1,000) sends
``join`` with a ``buy_in`` to poker tables owned by node ``a`` and node ``b`` at the same
moment; then leaves them all. Before the fix both nodes read the whole balance and both
buy-ins were applied (the balance went below zero, and after the free top-up and the leaves
1,600 chips had been created). Now a buy-in is one conditional debit in the database
(``storage/sql_chips.py``): whatever the number of nodes, the balance is never below zero and
``balance + stacks at the tables (+ pots: no hand is dealt here) == what was granted``.

Two nodes in this process (``hallkit.InNode``), each with its own :class:`SqlStore` (its own
connection pool) over one PostgreSQL schema and a real :class:`ClusterNode` on the test
Redis; the guest's sockets alternate between the nodes, so half of its joins travel over the
bus to the other node. After the joins the guest's next sit-down reads the balance (with the
free top-up, as a join does); then it leaves every table. ``pytest -s`` prints the figures of
every round.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest
from hallkit import Inbox, InNode, until
from sqlalchemy import text

from cardhall.storage.sql import SqlStore
from cardhall.tables.connections import QueueConnection

POSTGRES_URL = os.environ.get("CARDHALL_TEST_POSTGRES_URL",
                              "postgresql+asyncpg://postgres@127.0.0.1:5432/test")
GRANTED = 1_000
"""A new guest's balance: the only chips granted in these rounds. No free top-up is due: what
is left of an honest balance after the buy-ins that fit (200, 100) is at least the tables'
``min_buy_in`` (80, 30); a top-up of an overdrawn balance is counted as chips created."""

pytestmark = pytest.mark.postgres


async def _execute(sql: str) -> None:
    import asyncpg

    try:
        conn = await asyncpg.connect(POSTGRES_URL.replace("postgresql+asyncpg://",
                                                          "postgresql://", 1), timeout=3)
    except Exception as exc:
        pytest.skip(f"PostgreSQL not reachable at {POSTGRES_URL} ({exc}); "
                    "set CARDHALL_TEST_POSTGRES_URL")
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@contextlib.asynccontextmanager
async def two_nodes(redis_url: str, prefix: str) -> AsyncIterator[tuple[InNode, InNode]]:
    """Nodes ``a`` and ``b``, each with its own store over one fresh PostgreSQL schema."""
    schema = f"cardhall_chips_{uuid.uuid4().hex[:10]}"
    await _execute(f'CREATE SCHEMA "{schema}"')
    stores = [SqlStore(POSTGRES_URL, schema=schema) for _ in range(2)]
    nodes: list[InNode] = []
    try:
        for s in stores:
            await s.start()
        nodes = [InNode(s, redis_url, prefix, name, chip_balances=True)  # type: ignore[arg-type]
                 for s, name in zip(stores, "ab", strict=True)]
        for node in nodes:
            await node.start()
        yield nodes[0], nodes[1]
    finally:
        for node in nodes:
            with contextlib.suppress(Exception):
                await node.stop()
        for s in stores:
            await s.close()
        await _execute(f'DROP SCHEMA "{schema}" CASCADE')


async def _balance(store: SqlStore, player_id: str) -> int:
    """The stored balance, read without writing (``GRANTED`` before the first move)."""
    async with store.engine.connect() as conn:
        found = (await conn.execute(text("SELECT balance FROM chip_balances WHERE player_id = "
                                         ":p"), {"p": player_id})).scalar()
    return GRANTED if found is None else int(found)


async def _ledger(store: SqlStore, player_id: str) -> int:
    """``GRANTED + sum(chip_moves.delta)``: what the balance must be by the ledger."""
    async with store.engine.connect() as conn:
        total = (await conn.execute(text("SELECT COALESCE(SUM(delta), 0) FROM chip_moves "
                                         "WHERE player_id = :p"), {"p": player_id})).scalar()
    return GRANTED + int(total or 0)


def _stacks(nodes: tuple[InNode, ...], table_ids: list[str], player_id: str) -> int:
    """The guest's chips on funded seats of the tables, wherever each runs."""
    total = 0
    for node in nodes:
        for tid in table_ids:
            table = node.manager.get(tid)
            if table is None:
                continue
            total += sum(s.stack or 0 for s in table.seats
                         if s.player_id == player_id and s.funded)
    return total


async def one_round(a: InNode, b: InNode, *, per_node: int, buy_in: int) -> dict[str, Any]:
    """``per_node`` tables on each node, one guest joining all of them at once with
    ``buy_in``; then leaving them all. Returns the round's figures."""
    nodes = (a, b)
    player, _ = await a.store.create_player(f"guest-{uuid.uuid4().hex[:6]}")
    tables = [await n.manager.create("palace_poker", num_seats=2, starting_stack=buy_in)
              for n in nodes for _ in range(per_node)]
    conns: list[tuple[InNode, QueueConnection, Inbox, str]] = []
    for i, table in enumerate(tables):
        home = nodes[i % 2]  # the socket's node; the table's owner is the other one half the time
        conn = QueueConnection(player, 10_000)
        home.hall.watch(conn)
        conns.append((home, conn, Inbox(conn), table.id))
    low = GRANTED
    sampling = True

    async def sample() -> None:
        nonlocal low
        while sampling:
            low = min(low, await _balance(a.store, player.id))  # type: ignore[arg-type]
            await asyncio.sleep(0.002)

    sampler = asyncio.create_task(sample())
    await asyncio.gather(*(home.send(conn, {"type": "join", "table_id": tid, "seat": 0,
                                            "buy_in": buy_in, "rid": "j"})
                           for home, conn, _, tid in conns))
    await until(lambda: all(box.got("joined") or box.got("error") for _, _, box, _ in conns),
                what="every join answered")
    for n in nodes:
        assert await n.log.flush(5.0)
    accepted = [(home, conn, box, tid) for home, conn, box, tid in conns if box.got("joined")]
    store: Any = a.store
    balance = await _balance(store, player.id)
    seated = _stacks(nodes, [t.id for t in tables], player.id)
    figures = {"buy_ins": len(conns), "accepted": len(accepted), "balance_after_joins": balance,
               "stacks": seated, "total_after_joins": balance + seated,
               "refusals": sorted({box.got("error")[0]["code"] for _, _, box, _ in conns
                                   if box.got("error")})}
    least = tables[0].buy_in_range()[0]  # the next sit-down reads the balance, free top-up on
    figures["balance_at_next_sit_down"] = await store.chip_balance(
        player.id, top_up_below=least, top_up_to=a.settings.chips_top_up_to,
        top_up_every_seconds=a.settings.chips_top_up_every_seconds)
    for home, conn, _, tid in accepted:
        await home.send(conn, {"type": "leave", "table_id": tid, "rid": "l"})
    await until(lambda: all(box.got("left") for _, _, box, _ in accepted), what="every leave")
    for n in nodes:
        assert await n.log.flush(5.0)
    sampling = False
    await sampler
    figures.update(balance_after_leaves=await _balance(store, player.id),
                   ledger=await _ledger(store, player.id), lowest_balance=low,
                   stacks_after_leaves=_stacks(nodes, [t.id for t in tables], player.id))
    for home, conn, _, _ in conns:
        await home.gone(conn)
    for n in nodes:
        for table in tables:
            with contextlib.suppress(Exception):
                await n.manager.close(table.id)
    return figures


@pytest.mark.slow
@pytest.mark.parametrize(("per_node", "buy_in", "rounds"), [(1, 800, 6), (3, 300, 4)])
async def test_two_nodes_never_overdraw_nor_create_chips(
        redis_url: str, redis_prefix: str, per_node: int, buy_in: int, rounds: int) -> None:
    """(1, 800): the attacker's two tables, one per node, ``buy_in`` 800 on both; (3, 300):
    six tables, three per node, at most three buy-ins of 300 fit in 1,000."""
    async with two_nodes(redis_url, redis_prefix) as (a, b):
        results = [await one_round(a, b, per_node=per_node, buy_in=buy_in)
                   for _ in range(rounds)]
    for i, r in enumerate(results):
        print(f"round {i}: {r}")
    bad = [r for r in results if r["lowest_balance"] < 0
           or r["total_after_joins"] != GRANTED or r["balance_after_leaves"] != GRANTED
           or r["ledger"] != r["balance_after_leaves"] or r["stacks_after_leaves"] != 0]
    assert not bad, f"{len(bad)} of {rounds} rounds created, lost or overdrew chips: {bad}"
    assert all(r["accepted"] == GRANTED // buy_in for r in results)  # every fit buy-in taken
