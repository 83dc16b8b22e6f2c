"""People as entrants, the pure steps (``tournaments/entry.py``; ``docs/tournaments.md``,
"People as entrants")."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from cardhall.tournaments import TournamentRequest
from cardhall.tournaments.entry import (
    EntryError,
    begin,
    join_entrant,
    may_start,
    open_entry,
    tables_watchable,
    withdraw_entrant,
)
from cardhall.tournaments.rounds import new_tournament, plan_round, public

NOW = datetime(2026, 12, 4, 12, 0, tzinfo=UTC)


def _open(**body: object) -> dict:
    req = TournamentRequest(**{"game": "bazaar_blot", "format": "swiss", "rounds": 3,
                               "boards_per_round": 1, "bots": 2, "open": True, **body})
    doc = new_tournament("t1", req, "creator", NOW)
    open_entry(doc, req, NOW)
    return doc


def _plan(doc: dict) -> None:
    plan_round(doc, lambda: bytes(32))


def test_an_open_tournament_registers_until_it_starts() -> None:
    doc = _open(starts_in_seconds=60)
    assert doc["status"] == "registering" and doc["starts_at"] == "2026-12-04T12:01:00+00:00"
    assert "request" not in public(doc)
    ana = join_entrant(doc, "p-ana", "ana")
    assert ana == {"id": "e3", "name": "ana", "player_id": "p-ana", "bots": [None, "rule"]}
    assert doc["alive"] == ["e1", "e2", "e3"]
    with pytest.raises(EntryError) as err:
        join_entrant(doc, "p-ana", "ana")
    assert err.value.code == "tournament.already_entered"
    withdraw_entrant(doc, "p-ana")
    assert [e["id"] for e in doc["entrants"]] == ["e1", "e2"] and doc["alive"] == ["e1", "e2"]
    assert join_entrant(doc, "p-ana", "ana")["id"] == "e4"  # a withdrawn one's id is not reused
    assert join_entrant(doc, "p-bob", "bob")["id"] == "e5"


def test_a_single_entrant_game_seats_the_person_alone() -> None:
    doc = _open(game="palace_poker", table_size=3, rounds=1)
    assert join_entrant(doc, "p-ana", "ana")["bots"] == [None]


def test_a_full_or_started_tournament_refuses_a_join() -> None:
    doc = _open(max_entrants=3)
    join_entrant(doc, "p-ana", "ana")
    with pytest.raises(EntryError) as err:
        join_entrant(doc, "p-bob", "bob")
    assert err.value.code == "tournament.full"
    assert begin(doc, NOW, _plan) and doc["status"] == "running"
    with pytest.raises(EntryError) as err:
        join_entrant(doc, "p-cy", "cy")
    assert err.value.code == "tournament.closed"


def test_only_the_creator_starts_and_only_while_registering() -> None:
    doc = _open()
    for who, code in (("p-ana", "tournament.not_creator"), (None, "tournament.not_creator")):
        with pytest.raises(EntryError) as err:
            may_start(doc, who)
        assert err.value.code == code
    may_start(doc, "creator")
    begin(doc, NOW, _plan)
    with pytest.raises(EntryError) as err:
        may_start(doc, "creator")
    assert err.value.code == "tournament.closed"


def test_too_few_entrants_cancel_and_a_swiss_keeps_the_rounds_it_can() -> None:
    doc = _open(bots=0)
    join_entrant(doc, "p-ana", "ana")
    assert not begin(doc, NOW, _plan)
    assert doc["status"] == "cancelled" and "1 entrants" in doc["error"] and doc["rounds"] == []
    doc = _open(bots=2, rounds=3)  # 3 entrants: 2 rounds without a repeat opponent
    join_entrant(doc, "p-ana", "ana")
    assert begin(doc, NOW, _plan)
    assert doc["rounds_total"] == 2 and len(doc["rounds"]) == 1


def test_withdrawing_once_running_keeps_the_entrant_in_the_standings() -> None:
    doc = _open(bots=3)
    join_entrant(doc, "p-ana", "ana")
    begin(doc, NOW, _plan)
    doc["standings"] = [{"rank": 1, "entrant": "e4", "score": 2.0}]
    withdraw_entrant(doc, "p-ana")
    assert doc["alive"] == ["e1", "e2", "e3"] and doc["entrants"][-1]["withdrawn"] is True
    assert public(doc)["standings"][0]["withdrawn"] is True
    with pytest.raises(EntryError) as err:
        withdraw_entrant(doc, "p-ana")
    assert err.value.code == "tournament.closed"
    with pytest.raises(EntryError) as err:
        withdraw_entrant(doc, "p-bob")
    assert err.value.code == "tournament.not_entered"


def test_a_duplicate_tournament_with_people_cannot_be_watched() -> None:
    doc = _open()
    assert tables_watchable(doc)
    join_entrant(doc, "p-ana", "ana")
    assert not tables_watchable(doc)
    doc["duplicate"] = False
    assert tables_watchable(doc)


def test_the_request_fields_of_entry_are_for_open_tournaments_only() -> None:
    with pytest.raises(ValueError, match="open tournament"):
        TournamentRequest(game="bazaar_blot", bots=4, rounds=1, starts_in_seconds=60)
    with pytest.raises(ValueError, match="do not fill"):
        TournamentRequest(game="bazaar_blot", bots=1, rounds=1)
    with pytest.raises(ValueError, match="no room"):
        TournamentRequest(game="bazaar_blot", bots=8, open=True, max_entrants=4)
    TournamentRequest(game="bazaar_blot", bots=0, open=True, format="knockout")
