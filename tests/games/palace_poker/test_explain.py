"""Why a hand won (issue 28 item 7): each side's best five cards and what decided, carried by
the battle's ``battle_reveal`` (to the two battlers only) and the showdown's ``compared``."""

from __future__ import annotations

import pytest

from cardhall.engine.events import filter_events
from cardhall.games.palace_poker.explain import best_five, decided

from .helpers import CALL, battle, make, play


def test_best_five_of_more_than_five_and_all_of_an_incomplete_hand() -> None:
    assert sorted(best_five(["Ks", "Kd", "2c", "3h", "Qs", "9c", "Kh"])) == sorted(
        ["Ks", "Kd", "Kh", "Qs", "9c"])
    assert best_five(["Ah", "2c"]) == ["Ah", "2c"]
    # a flush among seven cards is picked over the pair
    assert sorted(best_five(["2h", "5h", "9h", "Jh", "Kh", "Ks", "Kd"])) == sorted(
        ["2h", "5h", "9h", "Jh", "Kh"])


@pytest.mark.parametrize(("cards", "expected"), [
    ({0: ["Ks", "Kd", "3c"], 1: ["Qs", "Qc", "4h"]},
     {"by": "rank", "seats": [0, 1], "ranks": {"0": "K", "1": "Q"}}),
    ({0: ["Ks", "Kd", "3c"], 1: ["Qs", "Qc", "Qh"]}, {"by": "category", "seats": [1, 0]}),
    ({0: ["Ks", "Kd", "3c"], 1: ["Kh", "Kc", "9h"]},
     {"by": "rank", "seats": [1, 0], "ranks": {"1": "9", "0": "3"}}),
    ({0: ["Ks", "Kd"], 1: ["Kh", "Kc", "2h"]}, {"by": "cards", "seats": [1, 0]}),
    ({0: ["Ks", "Kd"], 1: ["Kh", "Kc"]}, {"by": "tie", "seats": [0, 1]}),
])
def test_decided_names_category_rank_cards_or_tie(cards: dict[int, list[str]],
                                                  expected: dict[str, object]) -> None:
    assert decided(cards) == expected


def test_decided_by_the_own_suit_count_and_bad_input() -> None:
    assert decided({0: ["Ks", "Kd"], 1: ["Kh", "Kc"]}, own_suit_counts={0: 1, 1: 2}) == {
        "by": "own_suit", "seats": [1, 0]}
    with pytest.raises(ValueError, match="two or more"):
        decided({0: ["Ks"]})


def test_the_battle_reveal_carries_best_five_and_decider_to_the_battlers_only() -> None:
    # HC-1's deal: Kd (vs ♦) and 4h (vs ♥) do not count; the queens beat the lone king
    state = make(["5h", "9d", "Jc"], [["Ks", "Kd", "3c"], ["Qs", "Qc", "4h"], ["2s", "3s", "4s"]])
    events = play(state, (0, battle(1)), (1, CALL))
    [reveal] = [e for e in filter_events(events, 0) if e["kind"] == "battle_reveal"]
    assert reveal["best"] == {"0": ["Ks", "3c", "5h"], "1": ["Qs", "Qc", "9d"]}
    assert reveal["decided"] == {"by": "category", "seats": [1, 0]}
    assert reveal["excluded"] == {"0": "d", "1": "h"}
    for seat in (2, None):  # nothing of it reaches the others (HC-9)
        assert not [e for e in filter_events(events, seat) if "decided" in e or "best" in e]


def test_best_five_is_always_a_best_five_of_the_cards() -> None:
    import random
    from itertools import combinations

    from cardhall.games.palace_poker.cards import CANONICAL, ids
    from cardhall.games.palace_poker.evaluation import hand_key

    rng = random.Random(28)
    for _ in range(300):
        cards = rng.sample(CANONICAL, rng.randint(6, 9))
        best = best_five(cards)
        assert len(best) == 5 and set(best) <= set(cards)
        assert hand_key(ids(best)) == max(hand_key(ids(c)) for c in combinations(cards, 5))
    assert best_five(["Ah", "2c", "3d", "4s", "5h", "Kc", "Kd"]) == ["5h", "4s", "3d", "2c", "Ah"]
