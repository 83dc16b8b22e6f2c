"""The table actor on a fake clock: turns, deadlines, versions, retries, seats, leaks."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from tablekit import Harness, LeakCheckingConnection

from cardhall.engine import History, get_game, replay
from cardhall.protocol import messages as p
from cardhall.tables.messages import ClientRequest, Disconnected


async def full_table(h: Harness, game: str = "toy_duel", **kw: Any) -> tuple[Any, list[Any]]:
    table = await h.manager.create(game, num_seats=2, **kw)
    a, b = await h.player("ana"), await h.player("bob")
    await h.join(table, a, seat=0)
    await h.join(table, b, seat=1)
    return table, [a, b]


def to_play(table: Any) -> int:
    return table.seat_map[table.recorder.state.to_act()[0]]


async def test_game_starts_when_full_and_each_seat_sees_only_its_hand(h: Harness) -> None:
    table, conns = await full_table(h)
    assert table.status == "playing"
    for i, c in enumerate(conns):
        st = c.last("state")
        assert st.seat == i and st.view["hand"] is not None and len(st.view["hand"]) == 2
        other = conns[1 - i].last("state").view["hand"]
        assert not set(other) & set(st.view["hand"])
        assert st.seed_commitment == table.seed_commitment
    assert conns[to_play(table)].last("state").legal_actions
    assert conns[1 - to_play(table)].last("state").legal_actions == []


async def test_timeout_applies_the_games_timeout_action_logged_as_timeout(h: Harness) -> None:
    table, conns = await full_table(h)
    seat = to_play(table)
    expected = table.recorder.state.timeout_action(table.game_seat(seat))
    v = table.version
    assert conns[seat].last("state").deadline_ms == 10_000
    await h.advance(table, 9.999)
    assert table.version == v
    await h.advance(table, 0.001)
    assert table.version == v + 1
    last = table.recorder.history.actions[-1]
    assert last.action == expected and last.timeout and last.seat == table.game_seat(seat)
    ev = conns[1 - seat].last("events")
    assert ev.timeout and ev.seat == seat


async def test_move_just_before_the_deadline_wins_over_the_timer(h: Harness) -> None:
    table, conns = await full_table(h)
    seat = to_play(table)
    hand = conns[seat].last("state").view["hand"]
    best = max(hand, key=lambda c: int(c[0]))
    await h.advance(table, 9.999)
    v = table.version
    # the move is already in the inbox when the timer fires: the timer's message is stale
    act = p.Act(type="act", table_id=table.id, version=v, action_id="m",
              action={"type": "play", "card": best})
    table.post(ClientRequest(conns[seat], act))
    h.clock.advance(0.001)
    await h.settle(table)
    acts = [a for a in table.recorder.history.actions if a.seat is not None]
    assert len(acts) == 1 and acts[0].action["card"] == best and not acts[0].timeout
    assert table.version == v + 1


async def test_stale_version_is_refused_and_changes_nothing(h: Harness) -> None:
    table, conns = await full_table(h)
    seat = to_play(table)
    card = conns[seat].last("state").view["hand"][0]
    v = table.version
    await h.act(table, conns[seat], {"type": "play", "card": card}, version=v - 1)
    err = conns[seat].last("error")
    assert err.code == "table.stale_version" and err.request.action_id == "a1"
    assert table.version == v
    assert not [a for a in table.recorder.history.actions if a.seat is not None]


async def test_action_id_retry_is_answered_again_not_reapplied(h: Harness) -> None:
    table, conns = await full_table(h)
    seat = to_play(table)
    card = conns[seat].last("state").view["hand"][0]
    v = table.version
    await h.act(table, conns[seat], {"type": "play", "card": card}, version=v, action_id="x")
    await h.act(table, conns[seat], {"type": "play", "card": card}, version=v, action_id="x")
    acc = conns[seat].of_type("accepted")
    assert [a.duplicate for a in acc] == [False, True] and acc[0].version == acc[1].version
    assert table.version == v + 1
    assert len([a for a in table.recorder.history.actions if a.seat is not None]) == 1


async def test_errors_for_wrong_seat_out_of_turn_and_not_seated(h: Harness) -> None:
    table, conns = await full_table(h)
    seat = to_play(table)
    other = 1 - seat
    v = table.version
    card = conns[other].last("state").view["hand"][0]
    await h.act(table, conns[other], {"type": "play", "card": card})
    assert conns[other].last("error").code == "engine.not_your_turn"
    await h.act(table, conns[other], {"type": "play", "card": card}, seat=seat)
    assert conns[other].last("error").code == "table.not_your_seat"
    await h.act(table, conns[seat], {"type": "play", "card": "Zz"})
    assert conns[seat].last("error").code == "engine.malformed_action"
    await h.act(table, conns[seat], {"type": "play", "card": card})
    assert conns[seat].last("error").code == "engine.illegal_action"
    watcher = await h.player("eve")
    await h.join(table, watcher, spectate=True)
    await h.act(table, watcher, {"type": "play", "card": card})
    assert watcher.last("error").code == "table.not_seated"
    assert table.version == v


async def test_reconnect_resumes_the_seat_with_one_full_snapshot(h: Harness) -> None:
    table, conns = await full_table(h)
    table.post(Disconnected(conns[0]))
    await h.settle(table)
    assert table.seats[0].conn is None and table.seats[0].taken
    again = await h.player("ana-2")
    again.player = conns[0].player  # same identity, new socket
    await h.join(table, again)
    joined, st, missed = again.messages  # mid-game: the game's log follows (tables/handlog.py)
    assert joined.type == "joined" and joined.resumed and joined.seat == 0
    assert missed.type == "hand_log" and missed.seat == 0
    assert st.type == "state" and st.version == table.version
    assert st.view == table.recorder.state.view(table.game_seat(0))
    # or by seat token from another identity
    stranger = await h.player("mallory")
    await h.join(table, stranger, seat=1, seat_token="wrong")
    assert stranger.last("error").code == "table.bad_seat_token"
    await h.join(table, stranger, seat_token=table.seats[1].token)
    assert stranger.last("joined").seat == 1
    assert conns[1].last("error").code == "table.replaced"


async def test_disconnected_seat_is_moved_by_its_timer_then_its_stand_in(h: Harness) -> None:
    table, conns = await full_table(h)
    for c in conns:
        table.post(Disconnected(c))
    for _ in range(4):
        await h.advance(table, 10.0)
    assert table.status == "finished"
    moves = [a for a in table.recorder.history.actions if a.seat is not None]
    timed_out = [a.seat for a in moves if a.timeout]
    # each absent seat waits out one clock, then a stand-in plays it (tables/standin.py)
    assert len(timed_out) == len(set(timed_out)) and len(timed_out) < len(moves)
    assert len(h.store.games) == 1
    [(_summary, history)] = h.store.games.values()
    assert {d["reason"] for d in history["stand_ins"]} == {"timeouts"}
    assert h.clock.pending() == 1  # no deadline left, only the idle timer of a finished table


async def test_finished_game_is_saved_once_and_replays_to_its_outcome(h: Harness) -> None:
    table = await h.manager.create("toy_duel", num_seats=3, bots={0: "random", 1: "random",
                                                                2: "random"})
    for _ in range(20):
        await h.advance(table, 1.0)
    assert table.status == "finished"
    (summary, history), = h.store.games.values()
    assert len(summary.seats) == 3 and all(r.is_bot for r in summary.seats)
    state = replay(History.from_json(history))
    assert state.outcome.to_json() == history["outcome"] == summary.outcome
    from cardhall.engine import commitment
    assert commitment(bytes.fromhex(history["seed"])) == history["seed_commitment"]
    assert history["table_id"] == table.id and history["id"] == summary.id
    # the deal is recomputable from the revealed seed (and the seats' client seeds: none here)
    from toygame import DECK

    from cardhall.engine import SeededShuffler, game_seed
    deal = history["actions"][0]["action"]
    assert history["shuffle"] == "cardhall-shuffle/1" and history["client_seeds"] == [None] * 3
    redo = SeededShuffler(game_seed(bytes.fromhex(history["seed"]), [None] * 3))(list(DECK))
    assert deal["hands"][0] == redo[:2]


async def test_spectator_and_seats_never_receive_a_hidden_card(h: Harness) -> None:
    table = await h.manager.create("toy_duel", num_seats=4, bots={2: "random", 3: "random"},
                                   config={"cards_each": 3})
    players = [await h.player(n) for n in ("ana", "bob", "eve")]
    checked = [LeakCheckingConnection(c.player, table) for c in players]
    await h.join(table, checked[2], spectate=True)
    await h.join(table, checked[0], seat=0)
    await h.join(table, checked[1], seat=1)
    for _ in range(20):
        await h.advance(table, 10.0)
    assert table.status == "finished"
    for c in checked:
        assert c.violations == [] and c.checked > 5
    assert checked[2].last("state").view["hand"] is None
    watched = checked[2].last("game_over").history  # a spectator gets the table copy
    assert "seed" not in watched and watched["copy"] == "table" and watched["seed_commitment"]
    assert checked[0].last("game_over").history["seed"]  # each player its full copy


async def test_poker_table_carries_stacks_and_deals_the_next_hand(h: Harness) -> None:
    table = await h.manager.create("toy_stacks", num_seats=2, starting_stack=2,
                                   config={"stake": 1}, bots={1: "random"})
    await h.join(table, await h.player("ana"), seat=0)  # silent: her timer plays for her
    await h.advance(table, 5.0)
    assert table.hand >= 1
    for _ in range(2000):
        if table.status == "waiting" or (table.status == "between_hands" and table.hand >= 2):
            break
        await h.advance(table, 1.0)
    # the built-in bot is topped up to 2 whenever it goes broke, so only ana can run out
    assert table.seats[1].stack >= 1 and table.seats[0].stack >= 0
    assert table.status == "between_hands" or table.seats[0].stack == 0
    assert any(a.timeout for a in table.recorder.history.actions)
    assert len(h.store.games) == table.hand >= 2


async def test_leave_during_a_game_keeps_the_seat_in_play_until_it_ends(h: Harness) -> None:
    table, conns = await full_table(h)
    table.post(ClientRequest(conns[0], p.Leave(type="leave", table_id=table.id)))
    await h.settle(table)
    assert conns[0].last("left") and table.seats[0].leaving and table.seats[0].taken
    for _ in range(4):
        await h.advance(table, 10.0)
    assert table.status == "finished" and not table.seats[0].taken


async def test_admin_inspect_close_and_kick(h: Harness) -> None:
    table, conns = await full_table(h)
    snap = await table.call(lambda t: t.recorder.state.snapshot())
    assert snap["hands"] is not None
    assert await h.manager.kick(table.id, 1)
    assert conns[1].last("table_closed").reason == "kicked"
    assert await h.manager.close(table.id)
    assert conns[0].last("table_closed").reason == "closed"
    assert h.manager.get(table.id) is None and h.clock.pending() == 0


async def test_seats_changing_during_the_pause_do_not_stall_the_next_hand(h: Harness) -> None:
    table = await h.manager.create("toy_stacks", num_seats=3, starting_stack=50,
                                   bots={0: "random"})
    ana, bob = await h.player("ana"), await h.player("bob")
    await h.join(table, bob, seat=1)
    await h.join(table, ana, seat=2)
    for _ in range(100):
        if table.status == "between_hands":
            break
        await h.advance(table, 1.0)
    assert table.status == "between_hands" and table.hand == 1
    table.post(ClientRequest(ana, p.Leave(type="leave", table_id=table.id)))
    await h.settle(table)
    assert not table.seats[2].taken
    await h.advance(table, 2.0)  # the pause (2 s) ends: two seats with chips play on
    assert table.hand == 2 and table.status == "playing" and table.seat_map == [0, 1]


async def test_bots_alone_stop_after_a_hand_and_idle_tables_are_closed(h: Harness) -> None:
    poker = await h.manager.create("toy_stacks", num_seats=2, bots={0: "random", 1: "random"})
    duel = await h.manager.create("toy_duel", num_seats=2, bots={0: "random", 1: "random"})
    await h.manager.create("toy_duel", num_seats=2)  # nobody ever sits
    for _ in range(10):
        await h.advance(poker, 1.0)
        await h.settle(duel)
    assert poker.hand == 1 and poker.status == "waiting"
    assert duel.status == "finished"
    tasks = list(h.manager.tasks.values())
    h.clock.advance(300.0)
    await asyncio.wait_for(asyncio.gather(*tasks), 5)
    assert h.manager.list() == [] and h.clock.pending() == 0


async def test_a_player_holds_at_most_one_seat_per_table(h: Harness) -> None:
    table = await h.manager.create("toy_duel", num_seats=3)
    ana = await h.player("ana")
    await h.join(table, ana, seat=0)
    await h.join(table, ana, seat=1)
    assert ana.last("error").code == "table.already_seated"
    await h.join(table, ana, spectate=True)
    assert ana.last("error").code == "table.already_seated"
    await h.join(table, ana)  # no seat given: resumes her own
    assert ana.last("joined").resumed and ana.last("joined").seat == 0
    assert [s.taken for s in table.seats] == [True, False, False]


async def test_poker_seat_out_of_chips_is_flagged_and_leave_frees_it(h: Harness) -> None:
    """A person with fewer chips than the ante sits out: state and lobby flag the seat
    ``out_of_chips`` (the table waits), and ``leave`` frees the seat at once."""
    table = await h.manager.create("toy_stacks", num_seats=2, starting_stack=2,
                                   config={"stake": 1})
    ana, bob = await h.player("ana"), await h.player("bob")
    await h.join(table, ana, seat=0)
    await h.join(table, bob, seat=1)
    for _ in range(5000):
        if table.status == "waiting":
            break
        await h.advance(table, 1.0)
    assert table.status == "waiting"
    broke = next(s.index for s in table.seats if s.stack == 0)
    conn = (ana, bob)[broke]
    flags = [s.out_of_chips for s in conn.last("state").seats]
    assert flags == [i == broke for i in range(2)]
    summary = table.summary()
    assert summary["seats_out_of_chips"] == 1 and summary["seats"][broke]["out_of_chips"]
    table.post(ClientRequest(conn, p.Leave(type="leave", table_id=table.id)))
    await h.settle(table)
    assert conn.last("left") and not table.seats[broke].taken
    assert table.summary()["seats_taken"] == 1 and table.summary()["seats_out_of_chips"] == 0



async def test_builtin_bot_out_of_chips_is_topped_up_and_dealing_goes_on(h: Harness) -> None:
    """The house bankrolls its built-in bots: one without the chips to ante gets the starting
    stack again before the next hand, so a person playing built-in bots keeps being dealt."""
    table = await h.manager.create("toy_stacks", num_seats=2, starting_stack=50,
                                   config={"stake": 1}, bots={1: "random"})
    await h.join(table, await h.player("ana"), seat=0)
    for _ in range(100):
        if table.status == "between_hands":
            break
        await h.advance(table, 1.0)
    assert table.status == "between_hands" and table.hand == 1

    def broke(t: Any) -> None:
        t.seats[1].stack = 0

    await table.call(broke)
    await h.advance(table, 2.0)  # the pause ends
    assert table.hand == 2 and table.status == "playing" and table.seat_map == [0, 1]
    assert table.seats[1].stack == 50


async def test_quick_seat_prefers_the_fullest_open_table_else_seats_rule_bots(h: Harness) -> None:
    """``quick_seat`` answers a waiting table with a free seat (the most seats taken first);
    with none, a new table whose other seats are built-in rule bots, so a lone player starts
    a game at once."""
    table, seat = await h.manager.quick_seat("toy_duel")
    assert seat == 0 and [s.bot_kind for s in table.seats] == [None, "rule"]
    ana = await h.player("ana")
    await h.join(table, ana, seat=seat)
    assert table.status == "playing"
    empty = await h.manager.create("toy_duel", num_seats=3)
    half = await h.manager.create("toy_duel", num_seats=3, bots={0: "random"})
    again, seat = await h.manager.quick_seat("toy_duel")
    assert again is half and seat == 1 and empty.status == "waiting"


async def test_tables_everyone_left_after_a_game_close_within_a_second(h: Harness) -> None:
    """Abandoned tables (a game was played and every client has left) are reaped after
    ``abandoned_ttl_seconds`` (1 s), not the 300 s idle close: a finished match, and a poker
    table between hands whose only client left its built-in opponent."""
    duel, conns = await full_table(h)
    for _ in range(10):
        await h.advance(duel, 10.0)
    assert duel.status == "finished"
    poker = await h.manager.create("toy_stacks", num_seats=2, starting_stack=50,
                                   bots={1: "random"})
    ana = await h.player("ana")
    await h.join(poker, ana, seat=0)
    for _ in range(100):
        if poker.status == "between_hands":
            break
        await h.advance(poker, 1.0)
    assert poker.status == "between_hands"
    fresh = await h.manager.create("toy_duel", num_seats=2)  # nobody sat yet: not abandoned
    for table, conn in ((duel, conns[0]), (duel, conns[1]), (poker, ana)):
        table.post(ClientRequest(conn, p.Leave(type="leave", table_id=table.id)))
        await h.settle(table)
    tasks = [h.manager.tasks[duel.id], h.manager.tasks[poker.id]]
    h.clock.advance(1.0)
    await asyncio.wait_for(asyncio.gather(*tasks), 5)
    assert [t.id for t in h.manager.list()] == [fresh.id]
    assert conns[0].last("left") and ana.last("left")


async def test_quick_seat_never_offers_a_table_everyone_left(h: Harness) -> None:
    """A poker table between hands whose only person left is about to close (abandoned):
    quick seat makes a new table rather than send the next player to it, over the manager and
    over lobby summaries (the cluster's rule) alike."""
    from cardhall.cluster.hall import pick_quick_seat
    poker = await h.manager.create("toy_stacks", num_seats=2, starting_stack=50,
                                   bots={1: "rule"})
    ana = await h.player("ana")
    await h.join(poker, ana, seat=0)
    for _ in range(100):
        if poker.status == "between_hands":
            break
        await h.advance(poker, 1.0)
    assert poker.status == "between_hands"
    poker.post(ClientRequest(ana, p.Leave(type="leave", table_id=poker.id)))
    await h.settle(poker)
    assert poker.abandoned() and not poker.seats[0].taken  # a free seat ...
    assert h.manager.get(poker.id) is poker  # ... at a table not reaped yet
    assert pick_quick_seat([poker.summary()]) is None
    fresh, seat = await h.manager.quick_seat("toy_stacks")
    assert fresh is not poker and seat == 0


@pytest.mark.parametrize(("game", "config"), [
    ("palace_poker", {"small_bet": 10}),  # ante 5: the table used to close with reason error
    ("soldiers_bluff", {"ante": 3}),
])
async def test_a_seat_below_the_games_min_stack_sits_out_instead_of_breaking_the_table(
        h: Harness, game: str, config: dict[str, Any]) -> None:
    """The table asks the game (``min_stack``) what a seat needs: starting with exactly the
    ante, a hand leaves at least one seat below it, which then sits out while the table waits."""
    need = get_game(game).min_stack(get_game(game).config(config))
    table = await h.manager.create(game, num_seats=2, starting_stack=need, config=config)
    ana, bob = await h.player("ana"), await h.player("bob")
    await h.join(table, ana, seat=0)
    await h.join(table, bob, seat=1)
    for _ in range(5000):
        if table.status == "waiting" or table.stopped:
            break
        await h.advance(table, 1.0)
    assert not table.stopped and table.status == "waiting", table.status
    assert table.hand >= 1
    low = [s.index for s in table.seats if (s.stack or 0) < need]
    assert low and all(table.summary()["seats"][i]["out_of_chips"] for i in low)
