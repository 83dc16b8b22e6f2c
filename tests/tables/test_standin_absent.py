"""A disconnected player does not make everyone wait (issue 28, item 4; ``tables/standin.py``):
a seat whose holder has no connection is played by the stand-in from its first timeout, and
handed back when the holder resumes it; a connected holder still gets three timeouts."""

from __future__ import annotations

from typing import Any

from tablekit import Harness

from cardhall.tables.connections import RecordingConnection
from cardhall.tables.messages import Disconnected


async def _duel(h: Harness) -> tuple[Any, list[RecordingConnection]]:
    table = await h.manager.create("toy_duel", num_seats=2, config={"cards_each": 4})
    conns = [await h.player("ana"), await h.player("bob")]
    for i, c in enumerate(conns):
        await h.join(table, c, seat=i)
    assert table.status == "playing"
    return table, conns


def _to_act(table: Any) -> int:
    [gs] = table.recorder.state.to_act()
    return int(table.seat_map[gs])


async def test_an_absent_holder_gets_a_stand_in_at_the_first_timeout_and_takes_it_back(
        h: Harness) -> None:
    table, conns = await _duel(h)
    absent = _to_act(table)
    table.post(Disconnected(conns[absent]))
    await h.settle(table)
    assert table.seats[absent].conn is None and table.seats[absent].stand_in is None
    await h.advance(table, 10.01)  # one turn clock
    seat = table.seats[absent]
    assert seat.stand_in == "timeouts" and seat.taken and not seat.leaving
    assert table.summary()["seats"][absent]["stand_in"] is True
    timed_out = [a for a in table.recorder.history.actions if a.timeout]
    assert len(timed_out) == 1
    # the stand-in answers the seat's next turn at bot pace (1 s), not after the clock (10 s)
    for _ in range(12):
        if _to_act(table) == absent:
            break
        other = conns[1 - absent]
        entry = other.states[table.id]["legal_actions"][0]
        await h.act(table, other, {"type": "play", "card": entry["card"]},
                    action_id=f"o{table.version}")
    moved = len(table.recorder.history.actions)
    await h.advance(table, 1.01)
    later = table.recorder.history.actions[moved:]
    gs = table.game_seat(absent)
    assert [a for a in later if a.seat == gs and not a.timeout]
    # the holder comes back: the seat is theirs again, the stand-in stops
    back = RecordingConnection(conns[absent].player)
    await h.join(table, back)
    assert back.last("joined").resumed is True
    assert table.seats[absent].stand_in is None and table.seats[absent].conn is back


async def test_a_connected_holder_still_gets_three_timeouts(h: Harness) -> None:
    table, _conns = await _duel(h)
    slow = _to_act(table)
    await h.advance(table, 10.01)
    seat = table.seats[slow]
    assert seat.timeouts == 1 and seat.stand_in is None


async def test_a_holder_who_timed_out_still_sees_their_own_cards_while_the_stand_in_plays(
        h: Harness) -> None:
    """Issue 28 (trial finding): the holder's socket watches while the stand-in plays the seat
    (``seat: null``, no legal moves), yet with that seat's own cards face up."""
    table, conns = await _duel(h)
    slow = _to_act(table)
    other = conns[1 - slow]
    for _ in range(20):
        if table.seats[slow].stand_in is not None:
            break
        if _to_act(table) == slow:
            await h.advance(table, 10.01)
        else:
            entry = other.states[table.id]["legal_actions"][0]
            await h.act(table, other, {"type": "play", "card": entry["card"]},
                        action_id=f"o{table.version}")
    assert table.seats[slow].stand_in == "timeouts"
    gs = table.game_seat(slow)
    checked = 0
    while table.status == "playing" and checked < 3:  # the holder's cards stay in sight
        if _to_act(table) == slow:
            await h.advance(table, 1.01)
        else:
            entry = other.states[table.id]["legal_actions"][0]
            await h.act(table, other, {"type": "play", "card": entry["card"]},
                        action_id=f"o{table.version}")
        state = conns[slow].states[table.id]
        assert state["seat"] is None and state["legal_actions"] == []
        assert state["game_seat"] == gs
        assert state["view"]["hand"] == sorted(table.recorder.state.hands[gs])
        checked += 1
    assert checked
    # the other seat and a spectator see no more than before
    assert other.states[table.id]["view"]["hand"] == sorted(
        table.recorder.state.hands[table.game_seat(1 - slow)])


async def test_a_kick_while_a_stand_in_plays_for_an_absent_holder_keeps_the_holder_out(
        h: Harness) -> None:
    """Found by an attack: an admin kick of a seat a stand-in played because its holder was
    away answered ``kicked: false`` and changed nothing; the holder took the seat back."""
    table, conns = await _duel(h)
    absent = _to_act(table)
    table.post(Disconnected(conns[absent]))
    await h.settle(table)
    await h.advance(table, 10.01)
    assert table.seats[absent].stand_in == "timeouts"
    result = await h.manager.kick(table.id, absent)
    assert result.kicked and result.stand_in
    seat = table.seats[absent]
    assert seat.stand_in == "kicked" and seat.leaving
    back = RecordingConnection(conns[absent].player)
    await h.join(table, back)
    assert not any(j.resumed for j in back.of_type("joined")), back.messages
    assert table.seats[absent].conn is not back and table.seats[absent].stand_in == "kicked"
