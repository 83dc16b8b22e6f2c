"""Tables of N and the arena's seating (``docs/tournaments.md``, "Tables of N", "Arena"):
pure functions."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from itertools import combinations

from cardhall.tournaments.arena import MAX_TABLES, arena_groups, is_open, next_board, seat_waiting
from cardhall.tournaments.boardtables import board_seed as _board_seed
from cardhall.tournaments.groups import meetings_of, repeats, seat_layout, side_nets, swiss_groups

IDS = [f"e{i}" for i in range(1, 13)]
SIXTEEN = [f"e{i}" for i in range(1, 17)]


def test_a_second_round_of_sixteen_at_tables_of_four_repeats_no_meeting() -> None:
    first = [SIXTEEN[i:i + 4] for i in range(0, 16, 4)]
    scores = {e: float(16 - i) for i, e in enumerate(SIXTEEN)}
    groups, byes = swiss_groups(SIXTEEN, scores, meetings_of(first), {}, 4)
    assert byes == [] and sorted(e for g in groups for e in g) == sorted(SIXTEEN)
    assert all(len(g) == 4 for g in groups)
    assert sum(repeats(g, meetings_of(first)) for g in groups) == 0
    assert groups[0][0] == "e1"  # the leader is its table's home entrant, its table first


def test_twelve_at_tables_of_four_repeat_only_the_unavoidable_meeting() -> None:
    """Four of three earlier tables: two of each new table met (pigeonhole), no more."""
    first = [IDS[0:4], IDS[4:8], IDS[8:12]]
    groups, _ = swiss_groups(IDS, {}, meetings_of(first), {}, 4)
    assert [repeats(g, meetings_of(first)) for g in groups] == [1, 1, 1]


def test_groups_keep_close_scores_together_in_the_first_round() -> None:
    groups, _ = swiss_groups(IDS, {}, set(), {}, 4)
    assert groups == [IDS[0:4], IDS[4:8], IDS[8:12]]


def test_the_byes_go_to_those_with_fewest_byes_then_the_lowest_scores() -> None:
    ten = IDS[:10]
    scores = {e: float(10 - i) for i, e in enumerate(ten)}
    _, byes = swiss_groups(ten, scores, set(), {}, 4)
    assert sorted(byes) == ["e10", "e9"]
    _, byes = swiss_groups(ten, scores, set(), {"e10": 1}, 4)
    assert sorted(byes) == ["e8", "e9"]


def test_two_a_table_is_the_maximum_weight_matching() -> None:
    groups, byes = swiss_groups(IDS[:5], {}, {frozenset(("e1", "e2"))}, {"e5": 1}, 2)
    assert len(groups) == 2 and len(byes) == 1 and byes != ["e5"]
    assert ["e1", "e2"] not in groups


def test_seat_rotation_gives_each_entrant_each_seat_once() -> None:
    group = ["a", "b", "c", "d"]
    layouts = [seat_layout(group, r, 4) for r in range(4)]
    for e in group:
        assert sorted(lay.index(e) for lay in layouts) == [0, 1, 2, 3]
    assert seat_layout(["h", "a"], 0, 4) == ["h", "a", "h", "a"]  # a team holds 0 and 2
    assert seat_layout(["h", "a"], 1, 4) == ["a", "h", "a", "h"]


def test_side_nets() -> None:
    assert side_nets([5, -5, 5, -5], 2) == [10.0, -10.0]  # a team: its return minus theirs
    assert side_nets([3, -1, -2], 3) == [3.0, -1.0, -2.0]  # one a seat: its own chips


def test_the_arena_avoids_an_immediate_rematch() -> None:
    last = {"a": frozenset("b"), "b": frozenset("a"), "c": frozenset("d"), "d": frozenset("c")}
    groups = arena_groups(["a", "b", "c", "d"], {}, last, 2, others_running=False)
    assert sorted(map(sorted, groups)) == [["a", "c"], ["b", "d"]]
    # only the two who just met are waiting: they wait while another table runs ...
    assert arena_groups(["a", "b"], {}, last, 2, others_running=True) == []
    # ... and are seated again when nobody else can come free
    assert arena_groups(["a", "b"], {}, last, 2, others_running=False) == [["a", "b"]]


def test_the_arena_seats_close_points_first_and_leaves_a_short_table_waiting() -> None:
    points = {"a": 3.0, "b": 0.0, "c": 2.9, "d": 0.1, "e": 1.0}
    groups = arena_groups(["a", "b", "c", "d", "e"], points, {}, 2, others_running=True)
    assert groups == [["a", "c"], ["e", "d"]]  # "b" waits for the next to come free


def test_an_arena_table_plays_the_first_board_none_of_its_entrants_played() -> None:
    doc = {"duplicate": True, "rounds": [{"boards": [{"board": b} for b in (1, 2, 3)],
                                          "tables": [{"board": 1, "seats": ["a", "b"]},
                                                     {"board": 2, "seats": ["c", "a"]}]}]}
    assert next_board(doc, ["c", "d"]) == 1
    assert next_board(doc, ["b", "d"]) == 2
    assert next_board(doc, ["a", "d"]) == 3
    assert next_board({**doc, "duplicate": False}, ["a", "d"]) is None


def test_only_a_boards_first_hand_gets_its_seed() -> None:
    """A poker table deals on while a person sits at it: its second hand must not deal the
    board's cards again."""
    seed = bytes(32)
    assert _board_seed(seed, 1) == seed
    assert len({_board_seed(seed, 2), _board_seed(seed, 3), seed}) == 3


def test_meetings_of_a_table_are_every_two_of_it() -> None:
    assert meetings_of([["a", "b", "c"]]) == {frozenset(p) for p in combinations("abc", 2)}


def test_an_arena_seats_no_table_past_its_window_or_its_table_cap() -> None:
    now = datetime(2026, 12, 1, tzinfo=UTC)
    doc = {"ends_at": (now + timedelta(seconds=60)).isoformat(), "duplicate": False,
           "scoring": "matchpoints", "game": "bazaar_blot", "entrants": [
               {"id": e} for e in ("a", "b", "c", "d")],
           "rounds": [{"boards": [], "groups": [], "tables": []}]}
    assert len(seat_waiting(doc, now)) == 2  # everyone waits at the start: two tables
    assert seat_waiting(doc, now) == []  # all seated
    for t in doc["rounds"][0]["tables"]:
        t["returns"] = [1, -1, 1, -1]
    assert seat_waiting(doc, now + timedelta(seconds=60)) == []  # the window has closed
    doc["rounds"][0]["tables"] += [doc["rounds"][0]["tables"][0]] * (MAX_TABLES - 3)
    assert len(seat_waiting(doc, now)) == 1  # room for one more table only
    assert not is_open(doc, now)
