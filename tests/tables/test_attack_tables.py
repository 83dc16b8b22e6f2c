"""Adversarial table-runtime cases (fake clock): races with the timer, seats changing during a
hand, retried action ids, failing handlers, closing right at the end."""

from __future__ import annotations

from tablekit import Harness

from cardhall.server import protocol as p
from cardhall.tables.messages import ClientRequest


async def hand_two_with_a_free_seat(h: Harness) -> tuple[object, list[object]]:
    """A 3-seat poker table (toy_stacks) where seat 2 left after hand 1: hand 2 is dealt to
    seats 0 and 1 (both silent people), seat 2 is free."""
    table = await h.manager.create("toy_stacks", num_seats=3, starting_stack=50)
    conns = [await h.player(n) for n in ("ana", "bob", "cy")]
    for i, c in enumerate(conns):
        await h.join(table, c, seat=i)
    for _ in range(100):
        if table.status == "between_hands":
            break
        await h.advance(table, 1.0)
    table.post(ClientRequest(conns[2], p.Leave(type="leave", table_id=table.id)))
    await h.settle(table)
    await h.advance(table, 2.0)
    assert table.hand == 2 and table.status == "playing" and table.seat_map == [0, 1]
    return table, conns


async def test_a_seat_taken_during_a_hand_does_not_stall_the_turn_timer(h: Harness) -> None:
    table, _ = await hand_two_with_a_free_seat(h)
    n = len(table.recorder.history.actions)
    await h.advance(table, 5.0)
    await h.join(table, await h.player("dan"), seat=2)  # bumps the version mid-decision
    assert table.seats[2].taken
    await h.advance(table, 5.0)  # the deadline armed 10 s ago expires
    assert len(table.recorder.history.actions) == n + 1
    assert table.recorder.history.actions[-1].timeout
