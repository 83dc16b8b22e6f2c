"""Stand-in bots (``tables/standin.py``): a seat kicked mid-game is played by a built-in bot
until the game ends, then freed; kicks answer what they did; a stand-in survives a restart."""

from __future__ import annotations

from typing import Any

from tablekit import Harness
from test_durable_restore import node, players, seat_all, step

from cardhall.storage.memory import MemoryStore
from cardhall.tables.clock import FakeClock


async def full_table(h: Harness, game: str = "toy_duel") -> tuple[Any, list[Any]]:
    table = await h.manager.create(game, num_seats=2)
    a, b = await h.player("ana"), await h.player("bob")
    await h.join(table, a, seat=0)
    await h.join(table, b, seat=1)
    return table, [a, b]


async def play_out(h: Harness, table: Any, conns: list[Any], seat: int) -> None:
    """The other seat plays its first legal move; the stand-in thinks 1 s (the bot delay)."""
    for _ in range(200):
        if table.status != "playing":
            return
        state = conns[1 - seat].states.get(table.id)
        gs = table.game_seat(1 - seat)
        if state and state["legal_actions"] and gs in table.recorder.state.to_act():
            entry = state["legal_actions"][0]
            action = {k: v for k, v in entry.items() if k in ("type", "card")}
            await h.act(table, conns[1 - seat], action, version=state["version"],
                        action_id=f"x{table.version}")
        else:
            await h.advance(table, 1.0)
    raise AssertionError("the game did not end")


async def test_a_kicked_seat_is_played_by_a_stand_in_to_the_end_without_timeouts(
        h: Harness) -> None:
    table, conns = await full_table(h)
    result = await h.manager.kick(table.id, 1)
    assert result.kicked and result.stand_in and result.reason is None
    assert conns[1].last("table_closed").reason == "kicked"
    seat = table.seats[1]
    assert seat.stand_in == "kicked" and seat.leaving and seat.taken
    public = table.summary()["seats"][1]
    # the seat's holder is not connected: the stand-in bot's connection is no holder's
    assert public["stand_in"] is True and public["connected"] is False
    # the gauge of connections counts people's sockets, not the stand-in bot's
    assert h.manager.stats()["connections"] == sum(
        1 for c in table.connections() if c is not seat.conn)
    again = await h.manager.kick(table.id, 1)
    assert not again.kicked and "already kicked" in (again.reason or "")
    await play_out(h, table, conns, 1)
    assert table.status == "finished"
    [saved] = h.store.games.values()
    history = saved[1]
    kicked_gs = history["seats"].index(next(s for s in history["seats"] if s["name"] == "bob"))
    assert not [a for a in history["actions"] if a.get("timeout")]
    assert [a for a in history["actions"] if a["seat"] == kicked_gs]  # the stand-in moved
    assert history["stand_ins"] == [{"seat": kicked_gs, "from_action": history["stand_ins"][0][
        "from_action"], "reason": "kicked"}]
    assert not table.seats[1].taken and table.seats[1].stand_in is None
    empty = await h.manager.kick(table.id, 1)
    assert (empty.kicked, empty.reason) == (False, "seat empty")


async def test_the_kicked_socket_can_no_longer_act(h: Harness) -> None:
    table, conns = await full_table(h)
    await h.manager.kick(table.id, 0)
    await h.act(table, conns[0], {"type": "play", "card": "x"}, action_id="late")
    assert conns[0].last("error").code == "table.not_seated"
    await h.join(table, conns[0])  # the kicked holder cannot resume the seat
    assert conns[0].last("error").code == "table.no_free_seat"


async def test_a_kick_outside_a_game_frees_the_seat_at_once(h: Harness) -> None:
    table = await h.manager.create("toy_duel", num_seats=2)
    ana = await h.player("ana")
    await h.join(table, ana, seat=0)
    result = await h.manager.kick(table.id, 0)
    assert result.kicked and not result.stand_in and not table.seats[0].taken


async def test_a_stand_in_survives_a_restart() -> None:
    store, clock = MemoryStore(), FakeClock()
    conns = await players(store, 4)
    async with node(store, clock) as n:
        table = await n.manager.create("bazaar_blot", num_seats=4,
                                       config={"target_score": 51})
        await seat_all(n, table, conns)
        for _ in range(3):
            await step(n, table, conns)
        assert (await n.manager.kick(table.id, 2)).stand_in
        await n.settle(table)
        await n.crash()
    async with node(store, clock) as n:
        [table] = n.manager.list()
        seat = table.seats[2]
        assert seat.stand_in == "kicked" and seat.leaving and seat.conn is not None
        assert table.summary()["seats"][2]["stand_in"] is True
        moved = len(table.recorder.history.actions)
        gs = table.game_seat(2)
        for _ in range(60):  # the absent clients time out; the stand-in moves in 0.5 s
            clock.advance(0.5)
            await n.settle(table)
        later = table.recorder.history.actions[moved:]
        assert [a for a in later if a.seat == gs and not a.timeout]
        assert not [a for a in later if a.seat == gs and a.timeout]
