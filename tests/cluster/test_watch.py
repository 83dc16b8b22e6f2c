"""The attachment watch (``cluster/watch.py``, ``docs/scaling.md`` "Faults"): a socket at a
table of another node counts as re-attached only once the full state reached it. On
in-process nodes over the test Redis (``hallkit``): node ``a`` owns the table, a socket of node
``b`` is seated there, and what b's subscriber would have missed is dropped on purpose."""

from __future__ import annotations

from collections.abc import Callable

import orjson
import pytest
from hallkit import LEASE_SECONDS, Inbox, InNode, hall, until

from cardhall.cluster.bus import Bus


async def _seated(a: InNode, b: InNode) -> tuple[Inbox, str]:
    """A socket of ``b`` seated at a Soldier's Bluff table of ``a`` (two rule bots)."""
    made = await a.hall.create("soldiers_bluff", num_seats=3, bots={1: "rule", 2: "rule"})
    conn = await b.socket("ana")
    box = Inbox(conn)
    await b.send(conn, {"type": "join", "table_id": made["id"], "seat": 0})
    await until(lambda: box.got("state", full=True), what="the first full state")
    box.all.clear()
    return box, str(made["id"])


def _deaf(b: InNode) -> tuple[list[str], Callable[[], None]]:
    """Drop every frame message reaching ``b`` (as a subscriber that is away would miss it),
    still passing the owners' ``K`` messages on. Returns what was dropped and the undo."""
    channel = b.node.keys.to_node(b.node.id)
    handler = b.node.bus.handlers[channel]
    dropped: list[str] = []

    def drop(data: str) -> None:
        if data.startswith("F"):
            dropped.append(data)
        else:
            handler(data)

    b.node.bus.handlers[channel] = drop
    return dropped, lambda: b.node.bus.handlers.__setitem__(channel, handler)


async def test_a_rejoin_answered_to_nobody_is_sent_again_when_the_bus_reads_again(
        redis_url: str, redis_prefix: str) -> None:
    """Issue 27 case 2, the race behind the Redis-cut process test: b's commands work again
    and its renewal re-attaches the socket while b's subscriber has not reconnected yet, so
    the owner's answer is lost, and the owner now lists the socket in its ``K``. The gap's
    end must re-attach it again (it was held back as "re-attached less than a lease ago":
    the socket got nothing, ever)."""
    async with hall(redis_url, redis_prefix, 2) as (a, b):
        box, table_id = await _seated(a, b)
        dropped, undo = _deaf(b)
        b.node._fault_here("test: its Redis link was down")
        await until(lambda: any('"rid":"cluster.resume"' in d for d in dropped),
                    what="the rejoin's answer, lost")
        undo()
        b.node.bus.on_gap()  # what the subscriber's first read after the gap calls
        await until(lambda: box.got("state", full=True, table_id=table_id),
                    timeout=3 * LEASE_SECONDS, what="a full state after the gap")
        assert not b.node.sockets.unanswered


async def test_a_rejoin_whose_answer_never_came_is_sent_again_after_a_lease(
        redis_url: str, redis_prefix: str) -> None:
    """The answer to a re-attach is lost and no gap is seen (nothing tells b): the owner
    lists the socket again, which is not proof that its client got the state; b sends the
    rejoin again once a lease passed without its ``joined``."""
    async with hall(redis_url, redis_prefix, 2) as (a, b):
        box, table_id = await _seated(a, b)
        dropped, undo = _deaf(b)
        b.node._fault_here("test: paused")
        await until(lambda: any('"rid":"cluster.resume"' in d for d in dropped),
                    what="the rejoin's answer, lost")
        undo()
        await until(lambda: box.got("state", full=True, table_id=table_id),
                    timeout=4 * LEASE_SECONDS, what="a full state a lease later")
        assert not b.node.sockets.unanswered


async def test_nothing_is_re_attached_while_the_subscriber_does_not_read(
        redis_url: str, redis_prefix: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """While b's subscriber is not reading, a fault's re-attach waits (its answer would reach
    nobody); it goes out once the subscriber reads again."""
    async with hall(redis_url, redis_prefix, 2) as (a, b):
        box, table_id = await _seated(a, b)
        reading = {"b": False}

        def listening(bus: Bus) -> bool:
            return reading["b"] if bus is b.node.bus else not bus._broken

        monkeypatch.setattr(Bus, "listening", property(listening))
        ticks = b.node._last_tick
        b.node._fault_here("test: its Redis link was down")
        await until(lambda: b.node._last_tick != ticks, what="a renewal")
        ticks = b.node._last_tick
        await until(lambda: b.node._last_tick != ticks, what="another renewal")
        assert b.node.reattached == 0 and not b.node.sockets.unanswered
        assert not box.got("state", full=True)
        reading["b"] = True
        b.node.bus.on_gap()
        await until(lambda: box.got("state", full=True, table_id=table_id),
                    timeout=3 * LEASE_SECONDS, what="a full state once reading")
        assert b.node.reattached == 1


async def test_a_socket_that_just_joined_is_not_re_attached_before_its_owner_lists_it(
        redis_url: str, redis_prefix: str) -> None:
    """A renewal of b that comes between the socket's ``joined`` and the owner's first ``K``
    listing it must not re-attach it (its client would get a second full state at once,
    logged as "their owner stopped listing them"): a socket gets a lease from first sight."""
    async with hall(redis_url, redis_prefix, 2) as (a, b):
        box, table_id = await _seated(a, b)
        (key,) = b.node.sockets.roles
        b.node._attested.pop(key, None)  # the owner's K has not listed it yet
        await b.node._watch_remote({table_id: a.node.id})
        assert b.node.reattached == 0 and not b.node.sockets.unanswered
        await until(lambda: b.node._owners.get(table_id) == a.node.id, what="the owner seen")
        b.node._on_attested("K " + orjson.dumps({"n": a.node.id, "t": {}}).decode())  # left out
        await b.node._watch_remote({table_id: a.node.id})
        assert b.node.reattached == 1
        await until(lambda: box.got("state", full=True, table_id=table_id),
                    what="the full state of the re-attach")
