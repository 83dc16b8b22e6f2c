"""Cluster mode under attack (``docs/scaling.md``): hostile clients and bad days in production,
on in-process nodes over the test Redis (``hallkit``)."""

from __future__ import annotations

import asyncio

import orjson
import pytest
from hallkit import Inbox, hall, until

from cardhall.cluster.rpc import ClusterUnavailableError


async def test_sanity_a_socket_on_b_plays_at_a_table_of_a(redis_url: str,
                                                          redis_prefix: str) -> None:
    async with hall(redis_url, redis_prefix, 2) as (a, b):
        table = await a.manager.create("soldiers_bluff", num_seats=3, bots={1: "rule", 2: "rule"})
        conn = await b.socket("ana")
        box = Inbox(conn)
        await b.send(conn, {"type": "join", "table_id": table.id, "seat": 0})
        await until(lambda: box.got("joined"), what="joined")
        await until(lambda: box.got("state"), what="a state")
        assert a.node.peers.conns
        await b.gone(conn)
        await until(lambda: not a.node.peers.conns, what="the owner forgets the socket")


async def test_lobby_entries_come_back_after_redis_loses_them(redis_url: str,
                                                             redis_prefix: str) -> None:
    """Redis restarts (every key lost). Each owner takes its leases again; its tables must
    also be back in the lobby (``GET /api/tables``, quick seat, the table quota read it), even
    the ones whose summary did not change since (an idle waiting table). One node: with two,
    the other may take the table over (its lease is gone too), which lists it again."""
    async with hall(redis_url, redis_prefix, 1) as (a,):
        made = await a.hall.create("palace_poker", num_seats=3, created_by="ana")
        table = a.manager.tables[made["id"]]
        assert [s["id"] for s in await a.hall.summaries()] == [table.id]
        redis = a.node.redis
        keys = [k async for k in redis.scan_iter(match=f"{redis_prefix}:*")]
        await redis.delete(*keys)  # what a restart of Redis (no persistence) leaves
        await until(lambda: redis.get(a.node.keys.lease(table.id)), what="the lease again")
        await until(a.hall.summaries, timeout=3.0, what="the table listed again")
        assert await a.hall.summary(table.id) is not None


async def test_requests_to_a_table_never_joined_leave_no_stand_in_behind(
        redis_url: str, redis_prefix: str) -> None:
    """A hostile client sends ``resync``/``leave``/``act`` to a remote table it never joined
    (or a ``join`` refused), then closes; over and over. The owner must not keep a stand-in
    connection per such socket (``Peers.conns`` growing without bound)."""
    async with hall(redis_url, redis_prefix, 2) as (a, b):
        table = await a.manager.create("soldiers_bluff", num_seats=3, bots={1: "rule", 2: "rule"})
        for i in range(5):
            conn = await b.socket(f"mallory{i}")
            box = Inbox(conn)
            await b.send(conn, {"type": "resync", "table_id": table.id, "rid": "r"})
            await b.send(conn, {"type": "leave", "table_id": table.id, "rid": "l"})
            await b.send(conn, {"type": "act", "table_id": table.id, "version": 0,
                                "action_id": "x", "action": {"kind": "pass"}, "rid": "x"})
            await until(lambda box=box: len(box.got("error")) >= 3, what="the three errors")
            await b.gone(conn)
        await until(lambda: not a.node.peers.conns, timeout=3.0,
                    what=f"the owner forgets every socket (still {len(a.node.peers.conns)})")
        assert not b.node.sockets.local and not b.node.sockets.roles


async def test_an_empty_orphan_claim_is_not_taken_over_at_every_scan(
        redis_url: str, redis_prefix: str) -> None:
    """A claim row with no log (a node died between claiming a new table and its first log
    commit; or a table closed while another node's scan had listed it) must be cleaned up by
    the first takeover that finds the log empty, not claimed again by every node every scan."""
    async with hall(redis_url, redis_prefix, 2) as (a, b):
        store = a.store
        await store.claim_table("ghost", "dead-node")
        assert "ghost" in await store.claimed_tables()
        # bounded: dropped at the first takeover, or claimed again and again (epoch 1, 2, ...)
        await until(lambda: "ghost" not in store.fences or store.fences["ghost"] >= 4,
                    timeout=5.0, what="a takeover of the empty claim")
        assert "ghost" not in store.fences, f"claimed {store.fences['ghost'] - 1} times over"
        assert b.node.takeovers + a.node.takeovers == 0


async def test_a_ban_reaches_every_live_node_even_when_one_does_not_answer(
        redis_url: str, redis_prefix: str) -> None:
    """One node is frozen (its heartbeat still in Redis, it answers nothing). Banning a player
    must still kick its seats on every node that answers, and say that a node did not."""
    async with hall(redis_url, redis_prefix, 2) as (a, b):
        # a frozen node "0": sorted before the others, it is asked first
        await a.node.redis.set(a.node.keys.node("0"), orjson.dumps(
            {"node": "0", "incarnation": "x", "tables": 99, "sockets": 0, "owned": 0}),
            px=60_000)
        await a.node.redis.sadd(a.node.keys.nodes, "0")
        ana = await a.socket("ana")
        box = Inbox(ana)
        table = await b.manager.create("soldiers_bluff", num_seats=3, bots={1: "rule", 2: "rule"})
        await a.send(ana, {"type": "join", "table_id": table.id, "seat": 0})
        await until(lambda: box.got("joined"), what="joined")
        loop = asyncio.get_running_loop()
        start = loop.time()
        with pytest.raises(ClusterUnavailableError, match="node 0 did not answer"):
            await a.hall.kick_player(ana.player.id, reason="banned")
        assert loop.time() - start < 1.9  # one request timeout, not one per node
        assert table.seats[0].player_id != ana.player.id, "the seat on b was not kicked"
        await until(lambda: box.got("table_closed", reason="kicked"), what="told kicked")


async def test_a_bots_only_table_of_a_crashed_node_comes_back_and_plays_on(
        redis_url: str, redis_prefix: str) -> None:
    from cardhall.tables.restore import RESTORE_VERSION_GAP

    async with hall(redis_url, redis_prefix, 3) as (a, b, c):
        made = await a.hall.create("bazaar_blot", bots={0: "rule", 1: "rule", 2: "rule",
                                                        3: "rule"})
        table_id = made["id"]
        watcher = await c.socket("watcher")
        box = Inbox(watcher)
        await c.send(watcher, {"type": "join", "table_id": table_id, "spectate": True})
        await until(lambda: len(box.got("state")) > 3, what="a few steps")
        await a.crash()
        owner = await until(lambda: next((n for n in (b, c) if table_id in n.manager.tables),
                                         None), timeout=10.0, what="a takeover")
        restored = owner.manager.tables[table_id]
        await until(lambda: restored.version > RESTORE_VERSION_GAP + 5, what="play goes on")
        await until(lambda: [f for f in box.got("state")
                             if f["version"] > RESTORE_VERSION_GAP + 5], what="watched")
        assert not box.got("table_closed")


async def test_a_new_table_is_made_here_when_the_least_loaded_node_does_not_answer(
        redis_url: str, redis_prefix: str) -> None:
    """A node died a moment ago: its heartbeat (no tables: the least loaded) lives on for up to
    two leases. Creating a table (REST, quick seat) must not fail for that long everywhere."""
    async with hall(redis_url, redis_prefix, 2) as (a, b):
        await a.node.redis.set(a.node.keys.node("0"), orjson.dumps(
            {"node": "0", "incarnation": "x", "tables": 0, "sockets": 0, "owned": 0}),
            px=60_000)
        await a.node.redis.sadd(a.node.keys.nodes, "0")
        for node in (a, b):  # one table each: node 0 is the least loaded
            await node.manager.create("soldiers_bluff", num_seats=3)
        await a.node.presence.heartbeat(), await b.node.presence.heartbeat()
        made = await a.hall.create("soldiers_bluff", num_seats=3, created_by="ana")
        assert made["id"] in a.manager.tables
        assert [s["id"] for s in await b.hall.summaries() if s["id"] == made["id"]]


async def test_a_kicked_or_closed_seat_is_not_resumed_when_the_table_moves(
        redis_url: str, redis_prefix: str) -> None:
    """The holder forgets a socket's seat at a table that told it ``table_closed`` (kicked, or
    the table closed): a later move of the table must not send a resume for it (its client
    would get an error answering a join it never sent), and the note must not stay."""
    async with hall(redis_url, redis_prefix, 2) as (a, b):
        made = await a.hall.create("soldiers_bluff", num_seats=3, bots={1: "rule"})
        conn = await b.socket("ana")
        box = Inbox(conn)
        await b.send(conn, {"type": "join", "table_id": made["id"], "seat": 0})
        await until(lambda: box.got("joined"), what="joined")
        assert b.node.sockets.roles
        await b.hall.kick(made["id"], 0)
        await until(lambda: box.got("table_closed", reason="kicked"), what="kicked")
        assert not b.node.sockets.roles


async def test_a_request_of_this_node_s_own_socket_via_the_bus_uses_the_socket_itself(
        redis_url: str, redis_prefix: str) -> None:
    """A socket's request published while its table ran elsewhere reaches this node after
    the table moved here (a takeover between publish and delivery). It must be served with
    the socket's own connection, not a second stand-in for the same socket (the seat would
    then hold a connection that no disconnect ever removes, and each frame come twice)."""
    from cardhall.cluster.remote import header

    async with hall(redis_url, redis_prefix, 1) as (a,):
        made = await a.hall.create("soldiers_bluff", num_seats=3, bots={1: "rule"})
        conn = await a.socket("ana")
        box = Inbox(conn)
        join = orjson.dumps({"type": "join", "table_id": made["id"], "seat": 0,
                             "rid": "j"}).decode()
        await a.node.redis.publish(
            a.node.keys.inbox(made["id"]),
            f"Q {header(a.node.id, a.node.sockets.wire_id(conn), conn)}\n{join}")
        await until(lambda: box.got("joined", rid="j"), what="joined")
        table = a.manager.tables[made["id"]]
        assert table.seats[0].conn is conn
        assert not a.node.peers.conns
        await a.gone(conn)
        await until(lambda: table.seats[0].conn is None, what="the seat disconnected")


async def test_a_cancellation_turned_into_an_error_still_ends_the_node_s_loops() -> None:
    """redis-py may raise ``TimeoutError`` instead of ``CancelledError`` when a command is
    cancelled (its own timeout around the read). The node's tick and scan loops must end at
    their cancellation all the same, or a graceful stop waits for them forever (seen as a
    hang of the node's stop after a takeover)."""
    from cardhall.cluster.node import ClusterNode

    async def step() -> None:
        try:
            await asyncio.sleep(10)
        except asyncio.CancelledError:
            raise TimeoutError("a library's timeout") from None

    task = asyncio.get_running_loop().create_task(ClusterNode._loop(step, 0.001))
    await asyncio.sleep(0.05)  # inside step
    task.cancel()
    done, _ = await asyncio.wait({task}, timeout=2.0)
    assert done, "the loop went on after its cancellation"
    assert task.cancelled()
