"""Play again (``tables/rematch.py``, ``docs/protocol.md`` "Play again"): a finished table's
people at one new table like it; refusals are typed; poker tables once they stop dealing."""

from __future__ import annotations

from typing import Any

import pytest
from tablekit import Harness

from cardhall.protocol import messages as p
from cardhall.tables.connections import RecordingConnection
from cardhall.tables.errors import TableQuotaError


async def rematch(h: Harness, table: Any, *conns: RecordingConnection) -> None:
    """Post one ``rematch`` per connection at once, then wait until all are served and the
    new tables have handled the joins posted for them."""
    for i, conn in enumerate(conns):
        h.manager.post_request(table, conn, p.Rematch(type="rematch", table_id=table.id,
                                                      rid=f"r{i}"))
    await h.settle(table)
    await h.manager.rematches.settle()
    for t in h.manager.list():
        await h.settle(t)


async def finished_duel(h: Harness, **kw: Any) -> tuple[Any, list[RecordingConnection]]:
    """A three-seat ``toy_duel`` (ana, bob, a random bot at seat 2) played to its end by the
    timers (every seat times out)."""
    table = await h.manager.create("toy_duel", num_seats=3, bots={2: "random"},
                                   config={"cards_each": 1}, turn_timeout_seconds=5.0, **kw)
    ana, bob = await h.player("ana"), await h.player("bob")
    code = table.spec.invite_code
    await h.join(table, ana, seat=0, invite_code=code)
    await h.join(table, bob, seat=1, invite_code=code)
    for _ in range(20):
        if table.status == "finished":
            break
        await h.advance(table, 5.0)
    assert table.status == "finished"
    return table, [ana, bob]


async def test_one_new_table_like_the_old_one_and_an_offer_to_the_other(h: Harness) -> None:
    old, (ana, bob) = await finished_duel(h)
    await rematch(h, old, ana)
    ready = ana.last("rematch_ready")
    assert ready.table_id == old.id and ready.created and ready.invite_code is None
    new = h.manager.get(ready.rematch_table_id)
    assert new is not None and new.id != old.id
    assert (new.rules.name, new.spec.num_seats, new.spec.bots, new.spec.config,
            new.spec.turn_timeout_seconds) == ("toy_duel", 3, {2: "random"},
                                               {"cards_each": 1}, 5.0)
    assert new.created_by == ana.player.id and not new.spec.private
    # the proposer is seated at once; the bot sits where it sat
    assert new.seats[0].player_id == ana.player.id and new.seats[2].bot_kind == "random"
    assert ana.last("joined").table_id == new.id and new.id in ana.tables
    offer = bob.last("rematch_offer")
    assert (offer.table_id, offer.rematch_table_id, offer.by_name, offer.by_player_id) == (
        old.id, new.id, "ana", ana.player.id)
    assert ana.of_type("rematch_offer") == []
    # bob asks too (or joins): the same table, and the game starts
    await rematch(h, old, bob)
    again = bob.last("rematch_ready")
    assert again.rematch_table_id == new.id and not again.created
    assert {s.player_id for s in new.seats[:2]} == {ana.player.id, bob.player.id}
    assert new.status == "playing" and len(h.manager.list()) == 2


async def test_requests_at_the_same_time_make_one_table(h: Harness) -> None:
    old, (ana, bob) = await finished_duel(h)
    await rematch(h, old, ana, bob)
    made = {ana.last("rematch_ready").rematch_table_id, bob.last("rematch_ready").rematch_table_id}
    assert len(made) == 1 and len(h.manager.list()) == 2
    assert [ana.last("rematch_ready").created, bob.last("rematch_ready").created].count(True) == 1
    new = h.manager.get(made.pop())
    assert new is not None and new.status == "playing"


async def test_a_private_tables_rematch_is_private_with_a_new_code(h: Harness) -> None:
    old, (ana, bob) = await finished_duel(h, private=True, invite_code="old-code")
    await rematch(h, old, ana)
    ready = ana.last("rematch_ready")
    new = h.manager.get(ready.rematch_table_id)
    assert new is not None and new.spec.private
    assert ready.invite_code == new.spec.invite_code and ready.invite_code not in (None, "old-code")
    assert bob.last("rematch_offer").invite_code == ready.invite_code
    # the offer is what lets bob in: a join without the code is refused
    carl = await h.player("carl")
    await h.join(new, carl)
    assert carl.last("error").code == "table.invite_required"
    await h.join(new, bob, invite_code=bob.last("rematch_offer").invite_code)
    assert new.seats[1].player_id == bob.player.id


async def test_refusals_are_typed(h: Harness) -> None:
    table = await h.manager.create("toy_duel", num_seats=2, config={"cards_each": 2})
    ana, bob, carl = await h.player("ana"), await h.player("bob"), await h.player("carl")
    await h.join(table, ana, seat=0)
    await rematch(h, table, ana)
    assert ana.last("error").code == "rematch.not_over"  # waiting: nothing played yet
    await h.join(table, bob, seat=1)
    await rematch(h, table, ana)
    assert ana.last("error").code == "rematch.not_over"  # the game runs
    await rematch(h, table, carl)
    err = carl.last("error")
    assert err.code == "rematch.not_a_player" and err.request.type == "rematch"
    assert err.table_id == table.id and len(h.manager.list()) == 1


async def test_a_closed_rematch_table_is_made_again(h: Harness) -> None:
    old, (ana, _bob) = await finished_duel(h)
    await rematch(h, old, ana)
    first = ana.last("rematch_ready").rematch_table_id
    assert await h.manager.close(first)
    await rematch(h, old, ana)
    second = ana.last("rematch_ready")
    assert second.created and second.rematch_table_id != first
    assert h.manager.get(second.rematch_table_id) is not None


async def test_poker_once_the_player_is_out_of_chips(h: Harness) -> None:
    table = await h.manager.create("toy_stacks", num_seats=2, starting_stack=2,
                                   config={"stake": 1}, bots={1: "random"})
    ana = await h.player("ana")
    await h.join(table, ana, seat=0)  # silent: her timer plays for her
    await h.advance(table, 5.0)
    assert table.hand >= 1 and table.seats[0].stack
    await rematch(h, table, ana)
    assert ana.last("error").code == "rematch.not_over"  # she still has chips
    for _ in range(200):  # to the end of a hand
        if table.status != "playing":
            break
        await h.advance(table, 1.0)
    assert table.status in ("between_hands", "waiting")
    # her bust, set rather than waited for: the house refills its bot, so her stack is a
    # random walk that need not reach 0 in any bounded time
    table.seats[0].stack = 0
    await rematch(h, table, ana)
    new = h.manager.get(ana.last("rematch_ready").rematch_table_id)
    assert new is not None and new.spec.starting_stack == 2 and new.spec.bots == {1: "random"}
    assert new.seats[0].player_id == ana.player.id and new.seats[0].stack == 2


async def test_poker_table_that_stopped_dealing_is_over_for_the_winner_too(h: Harness) -> None:
    table = await h.manager.create("toy_stacks", num_seats=2, starting_stack=2,
                                   config={"stake": 1})
    ana, bob = await h.player("ana"), await h.player("bob")
    await h.join(table, ana, seat=0)
    await h.join(table, bob, seat=1)  # both silent: their timers play
    for _ in range(2000):
        if table.status == "waiting":
            break
        await h.advance(table, 1.0)
    assert table.status == "waiting" and table.hand >= 1  # one of them holds every chip
    winner = ana if table.seats[0].stack else bob
    await rematch(h, table, winner)
    new = h.manager.get(winner.last("rematch_ready").rematch_table_id)
    assert new is not None and new.seats[0].player_id == winner.player.id
    loser = bob if winner is ana else ana
    assert loser.last("rematch_offer").rematch_table_id == new.id


async def test_a_failed_creation_is_answered_and_the_next_request_tries_again(
        h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    old, (ana, bob) = await finished_duel(h)
    real = h.manager.create

    async def full(*_a: Any, **_k: Any) -> Any:
        raise TableQuotaError("player ana already has 3 live tables")

    monkeypatch.setattr(h.manager, "create", full)
    await rematch(h, old, ana)
    assert ana.last("error").code == "quota.tables" and bob.of_type("rematch_offer") == []
    monkeypatch.setattr(h.manager, "create", real)
    await rematch(h, old, ana)
    assert ana.last("rematch_ready").created and bob.of_type("rematch_offer")
