"""Seats held for people who are not connected yet (``TableManager.create(held=...)``), and
tables nobody may watch (``watchable=False``): what a tournament's table with people
entrants needs (``docs/tournaments.md``, "People as entrants")."""

from __future__ import annotations

import pytest
from tablekit import Harness

from cardhall.engine import InvalidConfigError
from cardhall.tables.connections import RecordingConnection


async def test_a_held_seat_starts_the_game_and_its_person_resumes_it(h: Harness) -> None:
    ana = await h.player("ana")
    table = await h.manager.create("toy_duel", num_seats=2, config={"cards_each": 4},
                                   bots={1: "random"}, held={0: ana.player})
    await h.settle(table)
    seat = table.seats[0]
    assert table.status == "playing" and seat.player_id == ana.player.id and seat.conn is None
    assert table.summary()["seats"][0]["name"] == "ana"
    await h.join(table, ana)  # no seat named: the person's own seat
    joined = ana.last("joined")
    assert joined.role == "seat" and joined.seat == 0 and joined.resumed is True
    assert table.seats[0].conn is ana


async def test_a_no_show_gets_a_stand_in_at_the_first_timeout(h: Harness) -> None:
    ana = await h.player("ana")
    table = await h.manager.create("toy_duel", num_seats=2, config={"cards_each": 4},
                                   bots={1: "random"}, held={0: ana.player})
    for _ in range(3):  # the bot's turn (1 s), then the absent seat's clock (10 s)
        await h.advance(table, 10.01)
        if table.seats[0].stand_in is not None:
            break
    assert table.seats[0].stand_in == "timeouts"
    await h.join(table, ana)
    assert ana.last("joined").resumed is True and table.seats[0].stand_in is None


async def test_nobody_else_takes_or_watches_a_held_unwatchable_table(h: Harness) -> None:
    ana, eve = await h.player("ana"), await h.player("eve")
    table = await h.manager.create("toy_duel", num_seats=2, config={"cards_each": 4},
                                   bots={1: "random"}, held={0: ana.player}, watchable=False)
    await h.join(table, eve, seat=0)
    assert eve.last("error").code == "table.seat_taken"
    await h.join(table, eve, spectate=True)
    assert eve.last("error").code == "table.not_watchable"
    assert eve.id not in table.spectators and table.summary()["watchable"] is False
    await h.join(table, ana)
    assert ana.last("joined").seat == 0


async def test_a_watchable_table_still_lets_anyone_watch(h: Harness) -> None:
    eve = await h.player("eve")
    table = await h.manager.create("toy_duel", num_seats=2, config={"cards_each": 4},
                                   bots={0: "random", 1: "random"})
    await h.join(table, eve, spectate=True)
    assert eve.last("joined").role == "spectator" and table.summary()["watchable"] is True


async def test_a_held_seat_must_be_a_seat_no_bot_takes(h: Harness) -> None:
    ana = await h.player("ana")
    for held in ({1: ana.player}, {2: ana.player}):
        with pytest.raises(InvalidConfigError):
            await h.manager.create("toy_duel", num_seats=2, bots={1: "random"}, held=held)
    assert not h.manager.tables


async def test_only_the_holder_resumes_by_identity(h: Harness) -> None:
    ana = await h.player("ana")
    table = await h.manager.create("toy_duel", num_seats=2, config={"cards_each": 4},
                                   bots={1: "random"}, held={0: ana.player})
    other = RecordingConnection((await h.store.create_player("ana"))[0])  # same name, not her
    await h.join(table, other)
    assert other.last("error").code == "table.no_free_seat" and table.seats[0].conn is None


async def test_a_casual_table_hands_its_games_over_unrated(h: Harness) -> None:
    """``rated=False`` (a casual table, ``TableSpec.rated``) reaches the finished game's
    record, so the store changes no rating; a rated table's game does rate."""
    got: list[bool] = []
    submit = h.manager.writer.submit
    h.manager.writer.submit = lambda record: (got.append(record.rated), submit(record))[1]  # type: ignore[method-assign]
    for rated in (False, True):
        table = await h.manager.create("toy_duel", num_seats=2, config={"cards_each": 2},
                                       bots={0: "random", 1: "random"}, rated=rated)
        for _ in range(10):
            if table.status == "finished" or (table.hand > 0 and table.recorder is None):
                break
            await h.advance(table, 1.01)
        assert table.summary()["rated"] is rated
    assert got[:1] == [False] and True in got


async def test_an_unwatchable_table_tells_no_stack(h: Harness) -> None:
    """Attack29: ``GET /api/tables/{id}`` of a duplicate board's poker table showed its seats'
    stacks, so the hand's result (``between_hands``, 287 against 113) while another table
    still played the same cards; an unwatchable table's summary shows no chip count."""
    ana = await h.player("ana")
    hidden = await h.manager.create("soldiers_bluff", num_seats=2, bots={1: "rule"},
                                    held={0: ana.player}, watchable=False)
    shown = await h.manager.create("soldiers_bluff", num_seats=2, bots={1: "rule"},
                                   held={0: ana.player})
    assert [s["stack"] for s in shown.summary()["seats"]] == [200, 200]
    summary = hidden.summary()
    assert [(s["stack"], s["in_hand"], s["out_of_chips"]) for s in summary["seats"]] == \
        [(None, False, False)] * 2
    assert summary["seats_out_of_chips"] == 0
    assert [s["stack"] for s in hidden.summary(admin=True)["seats"]] == [200, 200]  # inspect
