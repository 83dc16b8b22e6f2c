"""The seek matcher (``hall/seeks.py``): pools, the widening window, groups of N, the order."""

from __future__ import annotations

import doctest
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardhall.hall import seeks
from cardhall.hall.seeks import Seek, Window, match, match_with


def seek(player: str, rating: int, since: float = 0.0, *, seats: int = 2, rated: bool = True,
         game: str = "soldiers_bluff") -> Seek:
    return Seek(player, game, seats, rated, rating, since)


def names(groups: list[tuple[Seek, ...]]) -> list[list[str]]:
    return [[s.player for s in g] for g in groups]


def test_window_starts_narrow_widens_per_step_is_capped_then_opens() -> None:
    w = Window(start=100, widen_by=50, step_seconds=5, most=300, open_after_seconds=60)
    assert [w.half_width(t) for t in (0, 4.9, 5, 10, 14.9, 30, 59.9)] == [
        100, 100, 150, 200, 200, 300, 300]
    assert math.isinf(w.half_width(60))
    assert Window(open_after_seconds=None).half_width(1e6) == 500


def test_window_bounds_are_what_the_browser_shows() -> None:
    s = seek("a", 1500, since=10.0)
    assert Window().bounds(s, now=10.0) == (1400, 1600)
    assert Window().bounds(s, now=20.0) == (1300, 1700)
    assert Window().bounds(s, now=70.0) == (None, None)


def test_bad_window_is_refused() -> None:
    with pytest.raises(ValueError, match="step_seconds"):
        Window(step_seconds=0)
    with pytest.raises(ValueError, match="start"):
        Window(start=600, most=500)


def test_no_match_outside_the_window() -> None:
    assert match([seek("a", 1500), seek("b", 1601)], now=0.0) == []
    assert names(match([seek("a", 1500), seek("b", 1600)], now=0.0)) == [["a", "b"]]


def test_waiting_widens_the_window_until_far_apart_players_meet() -> None:
    far = [seek("a", 1000), seek("b", 1400)]
    assert match(far, now=14.9) == []          # +-200 after 10 s
    assert names(match(far, now=30.0)) == [["a", "b"]]  # +-400 after 30 s


def test_both_windows_must_hold_a_new_seek_is_narrow() -> None:
    old, new = seek("old", 1000, since=0.0), seek("new", 1250, since=29.0)
    assert match([old, new], now=29.0) == []    # old accepts 400, new only 100
    assert names(match([old, new], now=44.0)) == [["old", "new"]]  # new: +-250 after 15 s


def test_an_open_window_meets_any_rating() -> None:
    a, b = seek("a", 0, since=0.0), seek("b", 3000, since=0.0)
    assert names(match([a, b], now=60.0)) == [["a", "b"]]


def test_rated_and_unrated_do_not_mix_nor_games_nor_seat_counts() -> None:
    pool = [seek("a", 1500, rated=True), seek("b", 1500, rated=False),
            seek("c", 1500, game="palace_poker"), seek("d", 1500, seats=3)]
    assert match(pool, now=100.0) == []
    assert names(match([*pool, seek("e", 1500, rated=False)], now=0.0)) == [["b", "e"]]


def test_groups_of_n_need_every_pair_to_fit() -> None:
    three = [seek("a", 1500, seats=3), seek("b", 1590, seats=3), seek("c", 1410, seats=3)]
    assert match(three, now=0.0) == []          # b and c are 180 apart
    assert names(match([*three[:2], seek("c", 1550, seats=3)], now=0.0)) == [["a", "c", "b"]]
    four = [seek(p, 1500, seats=4) for p in "abcdefghi"]
    assert names(match(four, now=0.0)) == [list("abcd"), list("efgh")]  # i waits


def test_longest_waiting_anchors_and_takes_the_closest_rating() -> None:
    pool = [seek("late", 1530, since=9.0), seek("first", 1500, since=1.0),
            seek("near", 1510, since=5.0), seek("far", 1580, since=2.0)]
    assert names(match(pool, now=9.0)) == [["first", "near"], ["far", "late"]]


def test_a_player_never_meets_itself() -> None:
    assert match([seek("a", 1500), seek("a", 1500, since=1.0)], now=1.0) == []


def test_match_with_completes_a_group_with_the_longest_waiting() -> None:
    waiting = [seek("b", 1550, since=3.0), seek("a", 1450, since=1.0), seek("x", 1900)]
    quick = seek("q", 1500, since=10.0)
    assert [s.player for s in match_with(quick, waiting, now=10.0) or ()] == ["q", "a"]
    assert match_with(seek("q", 2500, since=10.0), waiting, now=10.0) is None
    assert match_with(seek("q", 1500, rated=False), waiting, now=10.0) is None


def test_doctests() -> None:
    assert doctest.testmod(seeks).failed == 0


def _reference(pool: list[Seek], now: float, window: Window) -> list[tuple[Seek, ...]]:
    """The rule as the module docstring states it, by brute force (every anchor sorts all)."""
    waiting = sorted(pool, key=lambda s: (s.since, s.player))
    used: set[str] = set()
    out = []
    for anchor in waiting:
        if anchor.player in used:
            continue
        rest = [s for s in waiting if s.player not in used and s is not anchor
                and seeks.pool_key(s) == seeks.pool_key(anchor)]
        group = [anchor]
        for cand in sorted(rest, key=lambda s: (abs(s.rating - anchor.rating), s.since, s.player)):
            if len(group) < anchor.seats and all(seeks.fits(cand, m, now, window) for m in group):
                group.append(cand)
        if len(group) == anchor.seats:
            used |= {s.player for s in group}
            out.append(tuple(group))
    return out


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 28).map(lambda r: r * 50), st.integers(0, 40), st.sampled_from([2, 3]),
                          st.booleans()), max_size=24),
       st.integers(0, 90))
def test_the_indexed_matcher_is_the_rule(rows: list[tuple[int, int, int, bool]],
                                         now: int) -> None:
    pool = [Seek(f"p{i:02}", "g", seats, rated, rating, float(since))
            for i, (rating, since, seats, rated) in enumerate(rows)]
    got = match(pool, float(now))
    assert got == sorted(_reference(pool, float(now), Window()),
                         key=lambda g: (g[0].since, g[0].player))
