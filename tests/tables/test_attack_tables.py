"""Adversarial table-runtime cases (fake clock): races with the timer, seats changing during a
hand, retried action ids, failing handlers, closing right at the end."""

from __future__ import annotations

import asyncio

from tablekit import Harness, LeakCheckingConnection

from cardhall.protocol import messages as p
from cardhall.tables.messages import ClientRequest, Close, Disconnected


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


async def test_an_action_id_reused_for_another_action_is_refused_not_reported_accepted(
        h: Harness) -> None:
    table = await h.manager.create("toy_duel", num_seats=2, config={"cards_each": 3})
    a, b = await h.player("ana"), await h.player("bob")
    await h.join(table, a, seat=0)
    await h.join(table, b, seat=1)
    conns = [a, b]
    seat = table.seat_map[table.recorder.state.to_act()[0]]
    hand = conns[seat].last("state").view["hand"]
    await h.act(table, conns[seat], {"type": "play", "card": hand[0]}, action_id="m1")
    assert conns[seat].last("accepted").version == table.version
    other = conns[1 - seat]
    ohand = other.last("state").view["hand"]
    await h.act(table, other, {"type": "play", "card": ohand[0]}, action_id="m1")  # other seat
    assert not other.last("accepted").duplicate
    v, n = table.version, len(table.recorder.history.actions)
    # the first seat re-uses "m1" (e.g. a client that restarted its counter) for a new move
    assert table.seat_map[table.recorder.state.to_act()[0]] == seat
    await h.act(table, conns[seat], {"type": "play", "card": hand[1]}, action_id="m1")
    err = conns[seat].last("error")
    assert err.code == "table.action_id_reused" and err.request.action_id == "m1"
    assert table.version == v and len(table.recorder.history.actions) == n
    # a true retry (same version and action) is still answered as a duplicate
    await h.act(table, conns[seat], {"type": "play", "card": hand[0]}, version=v - 2,
                action_id="m1")
    assert conns[seat].last("accepted").duplicate
    assert table.version == v and len(table.recorder.history.actions) == n


async def test_a_failing_handler_is_logged_and_closes_the_table(
        h: Harness, caplog: object) -> None:
    table = await h.manager.create("toy_duel", num_seats=2)
    a, b = await h.player("ana"), await h.player("bob")
    await h.join(table, a, seat=0)
    await h.join(table, b, seat=1)
    task = h.manager.tasks[table.id]

    def broken(*_args: object, **_kw: object) -> None:
        raise RuntimeError("bug in a game")

    table.recorder.act = broken  # type: ignore[method-assign]
    seat = table.seat_map[table.recorder.state.to_act()[0]]
    card = [a, b][seat].last("state").view["hand"][0]
    await h.act(table, [a, b][seat], {"type": "play", "card": card})
    await asyncio.wait_for(task, 2)
    assert task.exception() is None and table.status == "closed"
    for c in (a, b):
        assert c.last("table_closed").reason == "error"
    assert h.manager.get(table.id) is None and h.clock.pending() == 0
    assert "bug in a game" in caplog.text  # type: ignore[attr-defined]


async def test_game_seats_differ_from_table_seats_without_leaks(h: Harness) -> None:
    """Seat 0 leaves after hand 1: hand 2 is dealt to table seats 1 and 2 (game seats 0 and
    1); a newcomer sitting down at seat 0 mid-hand gets the spectator's view."""
    table = await h.manager.create("toy_stacks", num_seats=3, starting_stack=50)
    first = await h.player("ana")
    checked = [LeakCheckingConnection((await h.player(n)).player, table)
               for n in ("bob", "cy", "eve", "dan")]
    await h.join(table, checked[2], spectate=True)
    await h.join(table, first, seat=0)
    await h.join(table, checked[0], seat=1)
    await h.join(table, checked[1], seat=2)
    for _ in range(100):
        if table.status == "between_hands":
            break
        await h.advance(table, 1.0)
    table.post(ClientRequest(first, p.Leave(type="leave", table_id=table.id)))
    await h.advance(table, 2.0)
    assert table.hand == 2 and table.seat_map == [1, 2]
    await h.join(table, checked[3], seat=0)
    for c, gs in ((checked[0], 0), (checked[1], 1)):
        st = c.last("state")
        assert st.game_seat == gs and st.view["hand"] == sorted(table.recorder.state.hands[gs])
    assert checked[3].last("state").view["hand"] is None
    for _ in range(10):
        await h.advance(table, 10.0)
    assert table.hand >= 3
    for c in checked:
        assert c.violations == [] and c.checked > 3, c.violations[:3]


async def test_closing_right_after_the_last_move_saves_the_game_exactly_once(
        h: Harness) -> None:
    table = await h.manager.create("toy_duel", num_seats=2, config={"cards_each": 1})
    a, b = await h.player("ana"), await h.player("bob")
    await h.join(table, a, seat=0)
    await h.join(table, b, seat=1)
    task = h.manager.tasks[table.id]
    conns = [a, b]
    first = table.seat_map[table.recorder.state.to_act()[0]]
    await h.act(table, conns[first], {"type": "play",
                                      "card": conns[first].last("state").view["hand"][0]})
    last = conns[1 - first]
    act = p.Act(type="act", table_id=table.id, version=table.version, action_id="z",
                action={"type": "play", "card": last.last("state").view["hand"][0]})
    table.post(ClientRequest(last, act))  # the last move and the close arrive together
    table.post(Close("closed"))
    table.post(ClientRequest(last, act))  # a retry after the close is refused, not applied
    await asyncio.wait_for(task, 2)
    assert len(h.store.games) == 1 and table.games_saved == 1
    assert [m.type for m in last.messages[-4:]] == ["state", "game_over", "table_closed",
                                                    "error"]
    assert last.messages[-1].code == "table.not_found"
    assert h.clock.pending() == 0


async def test_a_poker_table_nobody_is_connected_to_stops_dealing_and_closes(
        h: Harness) -> None:
    table = await h.manager.create("toy_stacks", num_seats=2, starting_stack=1000,
                                   bots={1: "random"})
    ana = await h.player("ana")
    await h.join(table, ana, seat=0)
    table.post(Disconnected(ana))  # her timer plays this hand; no further hands are dealt
    for _ in range(60):
        await h.advance(table, 1.0)
    assert table.status == "waiting" and table.hand == 1 and len(h.store.games) == 1
    back = await h.player("ana-again")
    back.player = ana.player
    await h.join(table, back)  # she comes back: the table deals again
    assert back.last("joined").resumed and table.status == "playing" and table.hand == 2
    assert back.last("state").status == "playing"
    table.post(Disconnected(back))
    await h.settle(table)
    task = h.manager.tasks[table.id]
    for _ in range(400):
        if task.done():
            break
        await h.advance(table, 1.0)
    await asyncio.sleep(0)  # the registry's done-callback
    assert task.done() and h.manager.get(table.id) is None  # idle (300 s) after that hand
    assert table.hand == 2 and len(h.store.games) == 2 and h.clock.pending() == 0


async def test_a_waiting_table_whose_only_person_left_is_reaped(h: Harness) -> None:
    table = await h.manager.create("toy_duel", num_seats=2)
    ana = await h.player("ana")
    await h.join(table, ana, seat=0)
    table.post(Disconnected(ana))
    await h.settle(table)
    task = h.manager.tasks[table.id]
    await h.advance(table, 299.0)
    assert not task.done()
    await h.advance(table, 1.0)
    await asyncio.wait_for(task, 2)
    await asyncio.sleep(0)  # the registry's done-callback
    assert h.manager.get(table.id) is None


async def test_timer_first_then_the_move_of_the_same_version_is_stale(h: Harness) -> None:
    table = await h.manager.create("toy_duel", num_seats=2, config={"cards_each": 3})
    a, b = await h.player("ana"), await h.player("bob")
    await h.join(table, a, seat=0)
    await h.join(table, b, seat=1)
    conns = [a, b]
    seat = table.seat_map[table.recorder.state.to_act()[0]]
    v = table.version
    h.clock.advance(10.0)  # the deadline's message reaches the inbox first
    move = p.Act(type="act", table_id=table.id, version=v, action_id="late",
                 action={"type": "play", "card": conns[seat].last("state").view["hand"][-1]})
    table.post(ClientRequest(conns[seat], move))
    await h.settle(table)
    acts = [x for x in table.recorder.history.actions if x.seat is not None]
    assert len(acts) == 1 and acts[0].timeout and table.version == v + 1
    assert conns[seat].last("error").code == "table.stale_version"


async def test_a_seat_taken_outside_the_hand_does_not_make_a_move_stale(h: Harness) -> None:
    table, conns = await hand_two_with_a_free_seat(h)
    seat = table.seat_map[table.recorder.state.to_act()[0]]
    mover = conns[seat]
    seen = mover.last("state")
    assert seen.version == table.version
    await h.join(table, await h.player("dan"), seat=2)  # bumps the version, not the game
    await h.join(table, await h.player("eli"), seat=2)  # refused: changes nothing
    assert table.version == seen.version + 1
    await h.act(table, mover, {"type": "play", "card": seen.view["hand"][0]},
                version=seen.version - 1, action_id="old")
    assert mover.last("error").code == "table.stale_version"
    await h.act(table, mover, {"type": "play", "card": seen.view["hand"][0]},
                version=seen.version, action_id="ok")
    assert mover.last("accepted").action_id == "ok"
    assert table.recorder.history.actions[-1].action == {"type": "play",
                                                         "card": seen.view["hand"][0]}


async def test_seat_churn_does_not_keep_a_bot_from_moving(h: Harness) -> None:
    table = await h.manager.create("toy_stacks", num_seats=3, starting_stack=50,
                                   bots={1: "random"}, turn_timeout_seconds=10.0)
    ana, cy = await h.player("ana"), await h.player("cy")
    await h.join(table, ana, seat=0)
    await h.join(table, cy, seat=2)
    for _ in range(100):
        if table.status == "between_hands":
            break
        await h.advance(table, 1.0)
    table.post(ClientRequest(cy, p.Leave(type="leave", table_id=table.id)))
    await h.advance(table, 2.0)
    assert table.hand == 2 and table.seat_map == [0, 1]
    for _ in range(20):  # until it is the bot's turn (ana's timer plays for her)
        if table.seat_map[table.recorder.state.to_act()[0]] == 1:
            break
        await h.advance(table, 10.0)
    n = len(table.recorder.history.actions)
    griefer = await h.player("griefer")
    for _ in range(8):  # sit down and stand up every 0.25 s (the bot thinks 1 s)
        await h.join(table, griefer, seat=2)
        await h.advance(table, 0.25)
        table.post(ClientRequest(griefer, p.Leave(type="leave", table_id=table.id)))
        await h.advance(table, 0.25)
    moved = table.recorder.history.actions[n]
    assert moved.seat == 1 and not moved.timeout and moved.t_ms is not None


async def test_a_seat_token_does_not_give_a_seated_player_a_second_seat(h: Harness) -> None:
    table = await h.manager.create("toy_duel", num_seats=2)
    ana, bob = await h.player("ana"), await h.player("bob")
    await h.join(table, ana, seat=0)
    await h.join(table, bob, seat=1)
    token = table.seats[1].token
    ana2 = await h.player("ana-2")
    ana2.player = ana.player  # ana's second socket
    for conn in (ana, ana2):
        await h.join(table, conn, seat_token=token)
        assert conn.last("error").code == "table.already_seated"
    assert table.seats[0].conn is ana and table.seats[1].conn is bob
    # a socket holding a seat through its token cannot also watch or take another seat
    eve = await h.player("eve")
    await h.join(table, eve, seat_token=token)
    assert eve.last("joined").seat == 1 and table.seats[1].conn is eve
    await h.join(table, eve, spectate=True)
    assert eve.last("error").code == "table.already_seated"
    await h.join(table, eve)  # no seat given: resumes the one it holds
    assert eve.last("joined").resumed and eve.last("joined").seat == 1
    assert eve.id not in table.spectators and table.seats[1].conn is eve


async def test_a_non_ascii_seat_token_is_a_bad_token_not_a_crash(h: Harness) -> None:
    table = await h.manager.create("toy_duel", num_seats=2)
    ana, eve = await h.player("ana"), await h.player("eve")
    await h.join(table, ana, seat=0)
    await h.join(table, eve, seat_token="s\u00e9same")
    assert eve.last("error").code == "table.bad_seat_token"
    assert table.status == "waiting" and not table.stopped and table.seats[0].conn is ana
