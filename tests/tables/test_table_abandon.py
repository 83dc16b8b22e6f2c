"""Tables that nobody plays end (``tables/abandon.py``): a table with no client connected for
``abandon_after_seconds`` (60 s here; the default is 300 s) ends its running game as ``abandoned``
(saved, ``game_over`` sent), closes with ``table_closed``/``abandoned`` and leaves the
registry. All on the fake clock."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from tablekit import Harness

from cardhall.engine import ABANDON, History, replay
from cardhall.protocol import messages as p
from cardhall.tables.actor import Table
from cardhall.tables.connections import RecordingConnection
from cardhall.tables.errors import TableLimitError
from cardhall.tables.messages import ClientRequest, Disconnected

ABANDON_AFTER = 60.0


async def seated(h: Harness, table: Table, n: int) -> list[RecordingConnection]:
    conns = [await h.player(f"p{i}") for i in range(n)]
    for i, c in enumerate(conns):
        await h.join(table, c, seat=i)
    return conns


async def disconnect(h: Harness, table: Table, conns: list[RecordingConnection]) -> None:
    for c in conns:
        c.closed = True
        table.post(Disconnected(c))
    await h.settle(table)


async def spectator(h: Harness, table: Table) -> RecordingConnection:
    watcher = await h.player("watcher")
    await h.join(table, watcher, spectate=True)
    return watcher


async def run_until_stopped(h: Harness, table: Table, step: float, limit: float) -> float:
    """Advance the clock by ``step`` until the table stops; returns the seconds it took
    (bounded by ``limit``)."""
    waited = 0.0
    while not table.stopped and waited < limit:
        await h.advance(table, step)
        waited += step
    return waited


async def gone(h: Harness, table: Table) -> bool:
    """Wait (bounded) for the table's task to end; True once the registry has dropped it."""
    task = h.manager.tasks.get(table.id)
    if task is not None:
        await asyncio.wait_for(asyncio.gather(task), 5)
    return h.manager.get(table.id) is None and table.id not in h.manager.tasks


def only_game(h: Harness) -> tuple[Any, dict[str, Any]]:
    (summary, history), = h.store.games.values()
    return summary, history


async def test_blot_whose_clients_all_left_is_abandoned_not_redealt_forever(h: Harness) -> None:
    """The issue's failing input: a Blot table with a 0.2 s turn timer whose four clients all
    close their sockets used to pass and redeal forever and never be reaped."""
    table = await h.manager.create("bazaar_blot", num_seats=4, turn_timeout_seconds=0.2)
    watcher = await spectator(h, table)
    conns = await seated(h, table, 4)
    assert table.status == "playing"
    await disconnect(h, table, conns)
    before = table.version
    waited = await run_until_stopped(h, table, 0.2, 200.0)
    assert table.stopped and table.status == "closed"
    assert ABANDON_AFTER <= waited <= ABANDON_AFTER + 0.2 + 1e-6
    # versions are bounded: at most one timer move (and a deal) per 0.2 s tick, then the end
    assert table.version - before <= 2 * (ABANDON_AFTER / 0.2) + 10
    assert await gone(h, table)
    summary, history = only_game(h)
    assert summary.outcome["reason"] == history["outcome"]["reason"] == "abandoned"
    assert history["actions"][-1]["seat"] is None and history["actions"][-1]["action"] == ABANDON
    state = replay(History.from_json(history))
    assert state.outcome is not None and state.outcome.to_json() == history["outcome"]
    totals = history["outcome"]["detail"]["totals"]
    assert history["outcome"]["returns"] == [totals[0], totals[1], totals[0], totals[1]]
    assert watcher.last("game_over").outcome["reason"] == "abandoned"
    assert watcher.last("table_closed").reason == "abandoned"
    kinds = [m.type for m in watcher.messages]
    assert kinds.index("game_over") < kinds.index("table_closed")
    h.clock.advance(600.0)  # nothing is left armed to fire
    assert h.clock.pending() == 0 and len(h.store.games) == 1


async def test_a_client_resuming_before_the_deadline_cancels_it(h: Harness) -> None:
    table = await h.manager.create("toy_duel", num_seats=2, config={"cards_each": 4},
                                   turn_timeout_seconds=30.0)
    ana, bob = await seated(h, table, 2)
    await disconnect(h, table, [ana, bob])
    await h.advance(table, ABANDON_AFTER - 1)
    again = RecordingConnection(ana.player)  # ana reconnects on a new socket
    await h.join(table, again)
    assert again.last("joined").resumed
    await h.advance(table, ABANDON_AFTER + 30)  # well past the first deadline
    assert not table.stopped and table.status == "playing"
    await disconnect(h, table, [again])  # a fresh timer starts from zero
    await h.advance(table, ABANDON_AFTER - 1)
    assert not table.stopped
    await h.advance(table, 1.0)
    assert table.stopped and await gone(h, table)
    summary, _ = only_game(h)
    assert summary.outcome["reason"] == "abandoned" and summary.outcome["returns"] == [0, 0]
    assert [r.result for r in summary.seats] == [0, 0]


@pytest.mark.parametrize("game", ["soldiers_bluff", "palace_poker"])
async def test_poker_hand_abandoned_mid_hand_gives_every_seat_back_its_chips(
        h: Harness, game: str) -> None:
    table = await h.manager.create(game, num_seats=3, starting_stack=100,
                                   turn_timeout_seconds=600.0)
    conns = await seated(h, table, 3)
    assert table.status == "playing" and table.hand == 1
    in_pot = table.recorder.state.view(None)["pot"]  # type: ignore[union-attr]
    assert in_pot > 0 and all(s.stack == 100 for s in table.seats)  # antes are in the pot
    await disconnect(h, table, conns)
    await run_until_stopped(h, table, 5.0, 200.0)
    assert table.stopped
    assert [s.stack for s in table.seats] == [100, 100, 100]  # antes refunded, none made
    summary, history = only_game(h)
    assert summary.outcome["reason"] == "abandoned"
    assert [r.result for r in summary.seats] == [0, 0, 0]
    assert history["stacks"] == [100, 100, 100]


async def test_poker_table_stopped_between_hands_is_reaped_as_abandoned(h: Harness) -> None:
    """Clients gone between hands: the table stops dealing (existing rule) and now closes as
    ``abandoned`` after ``abandon_after_seconds`` instead of idling 300 s; no hand is dealt."""
    table = await h.manager.create("toy_stacks", num_seats=2, starting_stack=50)
    watcher = await spectator(h, table)
    conns = await seated(h, table, 2)
    while table.status == "playing":
        await h.advance(table, 10.0)
    assert table.status == "between_hands" and table.hand == 1
    await disconnect(h, table, conns)
    await h.advance(table, 2.0)  # the pause ends: nobody connected, so no next hand
    assert table.status == "waiting" and table.hand == 1
    await h.advance(table, ABANDON_AFTER - 2.0)
    assert table.stopped and watcher.last("table_closed").reason == "abandoned"
    assert len(h.store.games) == 1 and await gone(h, table)
    assert sum(s.stack for s in table.seats) == 100


async def test_the_abandoned_table_frees_its_max_tables_slot(h: Harness) -> None:
    h.manager.settings = h.manager.settings.model_copy(update={"max_tables": 1})
    table = await h.manager.create("toy_duel", num_seats=2, config={"cards_each": 4},
                                   turn_timeout_seconds=30.0)
    conns = await seated(h, table, 2)
    with pytest.raises(TableLimitError):
        await h.manager.create("toy_duel", num_seats=2)
    await disconnect(h, table, conns)
    await h.advance(table, ABANDON_AFTER)
    assert table.stopped and await gone(h, table) and h.manager.list() == []
    assert (await h.manager.create("toy_duel", num_seats=2)).status == "waiting"


async def test_tables_with_a_client_connected_or_only_bots_are_never_abandoned(
        h: Harness) -> None:
    """A connected client who never acts keeps the table (the timer plays for it), a
    spectator alone does not count as a client, and bots-only tables are not watched."""
    poker = await h.manager.create("toy_stacks", num_seats=2, starting_stack=500,
                                   bots={1: "random"})
    ana = await h.player("ana")
    await h.join(poker, ana, seat=0)
    duel = await h.manager.create("toy_duel", num_seats=2, config={"cards_each": 4},
                                  turn_timeout_seconds=600.0, bots={0: "random", 1: "random"})
    for _ in range(30):
        await h.advance(poker, 10.0)
        await h.settle(duel)
    assert not poker.stopped and poker.hand > 3 and not poker.abandon_watch.armed
    assert not duel.stopped and not duel.abandon_watch.armed
    assert all(s["outcome"]["reason"] != "abandoned" for _, s in h.store.games.values())
    table = await h.manager.create("toy_duel", num_seats=2, turn_timeout_seconds=600.0)
    await spectator(h, table)
    conns = await seated(h, table, 2)
    await disconnect(h, table, conns)
    await h.advance(table, ABANDON_AFTER)
    assert table.stopped


async def test_a_stale_abandon_timer_is_ignored(h: Harness) -> None:
    """A timer cancelled by a resume whose message was already queued does nothing."""
    table = await h.manager.create("toy_duel", num_seats=2, config={"cards_each": 4},
                                   turn_timeout_seconds=600.0)
    ana, bob = await seated(h, table, 2)
    await disconnect(h, table, [ana, bob])
    h.clock.advance(ABANDON_AFTER - 1)
    table.post(ClientRequest(RecordingConnection(bob.player),
                             p.Join(type="join", table_id=table.id)))
    h.clock.advance(1.0)  # the expiry is queued behind the resume
    assert table.inbox.qsize() == 2
    await h.settle(table)
    assert not table.stopped and table.status == "playing"
    await h.advance(table, ABANDON_AFTER * 3)
    assert not table.stopped
