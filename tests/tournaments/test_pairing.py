"""Swiss and knockout pairing (``tournaments/pairing.py``, ``docs/tournaments.md`` "Swiss")."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardhall.tournaments.pairing import knockout_pairs, swiss_pairs


def ids(n: int) -> list[str]:
    return [f"e{i}" for i in range(1, n + 1)]


def covers(entrants: list[str], pairs: list[tuple[str, str]], bye: str | None) -> bool:
    seen = [e for pair in pairs for e in pair] + ([bye] if bye is not None else [])
    return sorted(seen) == sorted(entrants)


def test_first_round_pairs_in_seeding_order_by_equal_scores() -> None:
    pairs, bye = swiss_pairs(ids(4), {})
    assert bye is None and len(pairs) == 2 and covers(ids(4), pairs, bye)


def test_pairs_by_score() -> None:
    scores = {"e1": 9, "e2": 0, "e3": 9, "e4": 0, "e5": 5, "e6": 5}
    pairs, _ = swiss_pairs(ids(6), scores)
    assert {frozenset(p) for p in pairs} == {frozenset(("e1", "e3")), frozenset(("e5", "e6")),
                                             frozenset(("e2", "e4"))}
    assert pairs[0] == ("e1", "e3")  # the home entrant is the better placed, pairs by rank


def test_never_repeats_while_a_fresh_pairing_exists() -> None:
    scores = {"e1": 9, "e2": 9, "e3": 0, "e4": 0}
    pairs, _ = swiss_pairs(ids(4), scores, played={frozenset(("e1", "e2"))})
    assert frozenset(("e1", "e2")) not in {frozenset(p) for p in pairs}


def test_repeats_only_when_it_must() -> None:
    everyone = {frozenset(p) for p in itertools.combinations(ids(4), 2)}
    pairs, bye = swiss_pairs(ids(4), {}, played=everyone)
    assert bye is None and covers(ids(4), pairs, bye)


def test_odd_count_gives_the_lowest_without_a_bye_the_bye() -> None:
    scores = {"e1": 6, "e2": 4, "e3": 2, "e4": 1, "e5": 0}
    assert swiss_pairs(ids(5), scores)[1] == "e5"
    assert swiss_pairs(ids(5), scores, byes={"e5"})[1] == "e4"


def test_refuses_fewer_than_two_or_duplicates() -> None:
    with pytest.raises(ValueError, match="at least two"):
        swiss_pairs(["e1"], {})
    with pytest.raises(ValueError, match="twice"):
        swiss_pairs(["e1", "e1"], {})
    with pytest.raises(ValueError, match="at least two"):
        knockout_pairs(["e1"])


def test_knockout_pairs_first_with_last_and_gives_the_top_seed_the_bye() -> None:
    assert knockout_pairs(ids(4)) == ([("e1", "e4"), ("e2", "e3")], None)
    assert knockout_pairs(ids(5)) == ([("e2", "e5"), ("e3", "e4")], "e1")


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 12), data=st.data())
def test_every_entrant_is_paired_or_the_one_bye_and_no_avoidable_repeat(n: int,
                                                                        data: st.DataObject) -> None:
    entrants = ids(n)
    scores = {e: data.draw(st.integers(0, 20), label=e) for e in entrants}
    all_pairs = [frozenset(p) for p in itertools.combinations(entrants, 2)]
    played = set(data.draw(st.lists(st.sampled_from(all_pairs), max_size=n), label="played"))
    pairs, bye = swiss_pairs(entrants, scores, played)
    assert covers(entrants, pairs, bye)
    assert (bye is None) == (n % 2 == 0)
    repeats = sum(frozenset(p) in played for p in pairs)
    if repeats:  # then no complete pairing avoids as many repeats: check by brute force
        assert repeats == _fewest_repeats(entrants, played)


def _fewest_repeats(entrants: list[str], played: set[frozenset[str]]) -> int:
    best = len(entrants)

    def walk(rest: list[str], repeats: int, bye_used: bool) -> None:
        nonlocal best
        if repeats >= best:
            return
        if not rest:
            best = repeats
            return
        first, others = rest[0], rest[1:]
        if len(rest) % 2 and not bye_used:
            walk(others, repeats, True)
        for i, other in enumerate(others):
            walk(others[:i] + others[i + 1:], repeats + (frozenset((first, other)) in played),
                 bye_used)

    walk(entrants, 0, len(entrants) % 2 == 0)
    return best


@settings(max_examples=20, deadline=None)
@given(n=st.sampled_from([4, 6, 8, 10]))
def test_a_swiss_of_n_entrants_has_no_repeat_in_its_first_n_over_2_rounds(n: int) -> None:
    """Past ``n / 2`` rounds a fresh pairing may not exist any more (the docstring's bound)."""
    entrants = ids(n)
    scores = dict.fromkeys(entrants, 0.0)
    played: set[frozenset[str]] = set()
    for r in range(n // 2):
        pairs, bye = swiss_pairs(entrants, scores, played)
        assert bye is None
        for i, (a, b) in enumerate(pairs):
            assert frozenset((a, b)) not in played, f"round {r + 1}"
            played.add(frozenset((a, b)))
            scores[a if (i + r) % 3 else b] += 1
