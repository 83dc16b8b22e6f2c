"""Matchpoints, standings and tiebreaks, and scoring a round (``tournaments/scoring.py``,
``tournaments/rounds.py``; ``docs/tournaments.md``)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from cardhall.engine import InvalidConfigError
from cardhall.tournaments.rounds import new_tournament, plan_round, public, score_round
from cardhall.tournaments.scoring import Meeting, board_scores, matchpoints, standings
from cardhall.tournaments.spec import TournamentRequest


def test_matchpoints_two_per_result_beaten_one_per_tie() -> None:
    assert matchpoints([10, 5, 5, -3]) == [6.0, 3.0, 3.0, 0.0]
    assert matchpoints([]) == []
    assert matchpoints([7]) == [0.0]


@given(st.lists(st.integers(-200, 200), max_size=12))
def test_matchpoints_share_n_times_n_minus_one_and_follow_the_order(results: list[int]) -> None:
    mp = matchpoints(results)
    n = len(results)
    assert sum(mp) == n * (n - 1)
    for i in range(n):
        for j in range(n):
            if results[i] > results[j]:
                assert mp[i] > mp[j]
            if results[i] == results[j]:
                assert mp[i] == mp[j]


def test_total_points_keeps_the_nets_and_an_unknown_scoring_is_refused() -> None:
    assert board_scores([10, -4], "total_points") == [10.0, -4.0]
    with pytest.raises(ValueError, match="unknown scoring"):
        board_scores([1], "imps")  # type: ignore[arg-type]


def test_standings_break_ties_by_buchholz_then_sonneborn_berger_then_seeding() -> None:
    # a beat b, c beat d (round 1); a drew d, b beat c (round 2)
    meetings = {
        "a": [Meeting("b", 3, 1), Meeting("d", 2, 2)],
        "b": [Meeting("a", 1, 3), Meeting("c", 4, 0)],
        "c": [Meeting("d", 3, 1), Meeting("b", 0, 4)],
        "d": [Meeting("c", 1, 3), Meeting("a", 2, 2)],
    }
    rows = standings(["a", "b", "c", "d"], meetings)
    by = {r.entrant: r for r in rows}
    assert by["a"].score == 5 and by["b"].score == 5 and by["c"].score == 3
    assert by["a"].buchholz == 5 + 3 and by["b"].buchholz == 5 + 3  # b's and d's; a's and c's
    assert by["a"].sonneborn_berger == 5 * 1 + 3 * 0.5 and by["b"].sonneborn_berger == 3
    assert [r.entrant for r in rows][:2] == ["a", "b"]  # equal Buchholz: SB decides
    assert [r.rank for r in rows] == [1, 2, 3, 4]
    tied = standings(["x", "y"], {"x": [Meeting(None, 1)], "y": [Meeting(None, 1)]})
    assert [r.entrant for r in tied] == ["x", "y"] and tied[0].buchholz == 0  # a bye adds none


def _doc(**kw: object) -> dict:
    req = TournamentRequest(game="bazaar_blot", bots=4, rounds=2, boards_per_round=2, **kw)
    return new_tournament("t1", req, None, datetime(2026, 12, 2, tzinfo=UTC))


def test_a_duplicate_round_shares_a_seed_per_board_and_rotates_seats() -> None:
    doc = _doc()
    seeds = iter([b"\x01" * 32, b"\x02" * 32])
    rnd = plan_round(doc, lambda: next(seeds))
    assert [b["seed"] for b in rnd["boards"]] == ["01" * 32, "02" * 32]
    assert len(rnd["tables"]) == 4
    for t in rnd["tables"]:
        home, away = rnd["pairs"][t["pair"]]
        flipped = (t["pair"] + t["board"] - 1) % 2 == 1
        assert t["seats"] == ([away, home] * 2 if flipped else [home, away] * 2)
    assert all(b["seed"] is None and b["commitment"] for b in public(doc)["rounds"][0]["boards"])


def test_scoring_a_round_compares_the_sides_that_held_the_same_cards() -> None:
    doc = _doc()
    rnd = plan_round(doc, lambda: b"\x03" * 32)
    # board 1: both tables' seats 0/2 side scored 20-0 and 10-0; board 2: 0-16 and 5-0
    results = {(1, 0): [20, 0, 20, 0], (1, 1): [10, 0, 10, 0],
               (2, 0): [0, 16, 0, 16], (2, 1): [5, 0, 5, 0]}
    for t in rnd["tables"]:
        t["returns"] = results[(t["board"], t["pair"])]
    rnd["tables"][0] |= {"game_id": "g1", "status": "finished"}
    shown = public(doc)["rounds"][0]["tables"][0]  # the others may still play that board
    assert (shown["game_id"], shown["returns"], shown["status"]) == (None, None, "finished")
    score_round(doc, rnd)
    assert public(doc)["rounds"][0]["tables"][0]["game_id"] == "g1"  # scored: told
    seat = {(t["board"], t["pair"]): t["seats"] for t in rnd["tables"]}
    expected: dict[str, float] = {}
    for board in (1, 2):
        ns = [seat[(board, p)][0] for p in (0, 1)]
        ew = [seat[(board, p)][1] for p in (0, 1)]
        nets = [results[(board, p)][0] - results[(board, p)][1] for p in (0, 1)]
        for who, mp in zip(ns, matchpoints(nets), strict=True):
            expected[who] = expected.get(who, 0) + mp
        for who, mp in zip(ew, matchpoints([-n for n in nets]), strict=True):
            expected[who] = expected.get(who, 0) + mp
    assert rnd["scores"] == expected
    assert rnd["status"] == "finished" and doc["status"] == "running"
    assert public(doc)["rounds"][0]["boards"][0]["seed"] == "03" * 32  # revealed after the round
    assert [r["rank"] for r in doc["standings"]] == [1, 2, 3, 4]


def test_a_bye_scores_the_average() -> None:
    req = TournamentRequest(game="bazaar_blot", bots=5, rounds=2, boards_per_round=1)
    doc = new_tournament("t2", req, None, datetime(2026, 12, 2, tzinfo=UTC))
    rnd = plan_round(doc, lambda: b"\x04" * 32)
    assert rnd["bye"] is not None and len(rnd["tables"]) == 2
    for t in rnd["tables"]:
        t["returns"] = [3, 1, 3, 1]
    score_round(doc, rnd)
    assert rnd["scores"][rnd["bye"]] == 1.0  # one board, two results compared: average 1


def test_a_knockout_keeps_the_winners_and_ends_with_one() -> None:
    doc = _doc(format="knockout")
    assert doc["rounds_total"] == 2
    for _ in range(2):
        rnd = plan_round(doc, lambda: b"\x05" * 32)
        for t in rnd["tables"]:
            t["returns"] = [9, 0, 9, 0]  # seats 0/2 win every board: ties by seeding
        score_round(doc, rnd)
    assert doc["status"] == "finished" and doc["alive"] == ["e1"]


def test_requests_are_checked() -> None:
    with pytest.raises(ValidationError, match="at most 3 rounds"):
        TournamentRequest(game="bazaar_blot", bots=4, rounds=4)
    with pytest.raises(ValidationError):
        TournamentRequest(game="palace_poker", bots=4)  # type: ignore[arg-type]
    with pytest.raises(ValidationError):
        TournamentRequest(game="bazaar_blot", bots=4, surprise=1)  # type: ignore[call-arg]
    with pytest.raises(InvalidConfigError, match="target_score"):
        TournamentRequest(game="bazaar_blot", bots=4, config={"target_score": 0}).board_config()
