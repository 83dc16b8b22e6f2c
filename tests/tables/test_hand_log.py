"""``hand_log`` (``tables/handlog.py``, issue 28 item 2): a seat resuming mid-game gets the
game's log so far, exactly the events its live frames showed (never a card hidden from it),
and, when it takes the seat back from a stand-in, where the stand-in's moves begin."""

from __future__ import annotations

from typing import Any

from tablekit import Harness, LeakCheckingConnection

from cardhall.protocol import messages as p
from cardhall.tables.connections import RecordingConnection
from cardhall.tables.messages import ClientRequest


def _live_events(conn: RecordingConnection) -> list[dict[str, Any]]:
    """Every event the connection was sent, from the game's start."""
    out: list[dict[str, Any]] = []
    for m in conn.messages:
        if m.type == "events":
            out.extend(m.events)
    start = max(i for i, e in enumerate(out) if e["kind"] == "game_started")
    return out[start:]


async def _move(h: Harness, table: Any, conns: list[RecordingConnection]) -> None:
    """Whoever is to act (a connected person) plays its first legal card."""
    [gs] = table.recorder.state.to_act()
    ts = table.seat_map[gs]
    conn = conns[ts]
    entry = conn.states[table.id]["legal_actions"][0]
    await h.act(table, conn, {"type": "play", "card": entry["card"]},
                action_id=f"m{table.version}")


async def test_a_resumed_seat_gets_the_hand_log_it_saw_live_and_the_stand_ins_moves(
        h: Harness) -> None:
    table = await h.manager.create("toy_duel", num_seats=2, config={"cards_each": 4})
    conns = [await h.player("ana"), await h.player("bob")]
    for i, c in enumerate(conns):
        await h.join(table, c, seat=i)
    for _ in range(3):
        await _move(h, table, conns)
    # ana leaves; the stand-in plays her next turn at bot pace
    while table.seat_map[table.recorder.state.to_act()[0]] != 0:
        await _move(h, table, conns)
    table.post(ClientRequest(conns[0], p.Leave(type="leave", table_id=table.id)))
    await h.settle(table)
    assert table.seats[0].stand_in == "left"
    stood_at = len(table.recorder.history.actions)
    await h.advance(table, 1.01)
    assert len(table.recorder.history.actions) > stood_at  # the stand-in moved
    assert table.status == "playing"
    # ana comes back: the log of the hand, never bob's hidden cards
    back = LeakCheckingConnection(conns[0].player, table)
    await h.join(table, back)
    assert back.last("joined").resumed and table.seats[0].stand_in is None
    log = back.last("hand_log")
    assert back.violations == [] and log.seat == 0 and log.game_id == table.game_id
    assert log.steps[0].events[0]["kind"] == "game_started"
    dealt = [e for s in log.steps for e in s.events if e["kind"] == "dealt"]
    assert len(dealt) == 1  # her own cards only
    assert log.stand_in_from is not None and not log.truncated
    stood = log.steps[log.stand_in_from:]
    assert stood and stood[0].actor == 0
    assert not [s for s in log.steps[1:log.stand_in_from] if s.actor == 0 and s.timeout]
    # bob reloads: his log is exactly what his live frames showed him
    bob_again = RecordingConnection(conns[1].player)
    await h.join(table, bob_again)
    again = bob_again.last("hand_log")
    assert again.stand_in_from is None
    assert [e for s in again.steps for e in s.events] == _live_events(conns[1])
    assert [(s.actor, s.timeout) for s in again.steps[1:]] == [
        (m.seat, m.timeout) for m in conns[1].messages if m.type == "events"][-len(again.steps) + 1:]


async def test_no_hand_log_outside_a_game(h: Harness) -> None:
    table = await h.manager.create("toy_duel", num_seats=2)
    ana = await h.player("ana")
    await h.join(table, ana, seat=0)
    again = RecordingConnection(ana.player)
    await h.join(table, again)
    assert again.last("joined").resumed and not again.of_type("hand_log")


async def test_a_long_game_sends_its_start_and_the_latest_steps(
        h: Harness, monkeypatch: Any) -> None:
    from cardhall.tables import handlog
    monkeypatch.setattr(handlog, "MAX_STEPS", 3)
    table = await h.manager.create("toy_duel", num_seats=2, config={"cards_each": 4})
    conns = [await h.player("ana"), await h.player("bob")]
    for i, c in enumerate(conns):
        await h.join(table, c, seat=i)
    for _ in range(5):
        await _move(h, table, conns)
    again = LeakCheckingConnection(conns[0].player, table)
    await h.join(table, again)
    log = again.last("hand_log")
    assert log.truncated and len(log.steps) == 3 and again.violations == []
    assert [e["kind"] for e in log.steps[0].events] == ["game_started"]
    assert [e for s in log.steps[1:] for e in s.events] == _live_events(conns[0])[-2:]
