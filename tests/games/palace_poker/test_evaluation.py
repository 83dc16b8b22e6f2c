"""Hand evaluation (rule 12): published category counts, cross-checks between our pure-Python
fallback, phevaluator and eval7 (8 and 9 cards in one eval7 call against the best 7-card subset
through phevaluator), and properties of the incomplete-hand rules."""

from __future__ import annotations

import random
from itertools import combinations, pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardhall.evaluators import (
    category_of_phevaluator_rank,
    eval7_rank_function,
    install,
    phevaluator_rank_function,
)
from cardhall.games.palace_poker import evaluation
from cardhall.games.palace_poker.cards import CANONICAL, ids
from cardhall.games.palace_poker.evaluation import hand_key, set_rank_function, strengths

PUBLISHED = [1302540, 1098240, 123552, 54912, 10200, 5108, 3744, 624, 40]
"""Five-card hands per category, high card .. straight flush (royal flushes included)."""


def test_rule_12_category_counts_over_all_five_card_hands_phevaluator() -> None:
    from phevaluator import _pheval

    counts = [0] * 9
    ev = _pheval.evaluate_5cards
    for hand in combinations(range(52), 5):
        counts[category_of_phevaluator_rank(ev(*hand))] += 1
    assert counts == PUBLISHED


@pytest.mark.slow
def test_rule_12_category_counts_over_all_five_card_hands_fallback() -> None:
    counts = [0] * 9
    for hand in combinations(range(52), 5):
        counts[hand_key(hand)[0]] += 1
    assert counts == PUBLISHED


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_rule_12_fallback_agrees_with_phevaluator_and_eval7_on_random_seven_card_hands() -> None:
    import eval7

    rng = random.Random(12)
    phe = phevaluator_rank_function()
    e7 = {c: eval7.Card(c) for c in CANONICAL}
    deck = list(CANONICAL)
    hands = [rng.sample(deck, 7) for _ in range(3000)]
    ours = [hand_key(ids(h)) for h in hands]
    theirs = [phe(ids(h)) for h in hands]
    sevens = [eval7.evaluate([e7[c] for c in h]) for h in hands]
    for i in range(len(hands) - 1):
        a = (ours[i] > ours[i + 1]) - (ours[i] < ours[i + 1])
        assert a == _sign(theirs[i] - theirs[i + 1]) == _sign(sevens[i] - sevens[i + 1]), (
            hands[i], hands[i + 1])


def test_rule_12_best_of_nine_through_the_library_matches_the_fallback() -> None:
    rng = random.Random(9)
    hands = [ids(rng.sample(list(CANONICAL), rng.choice((8, 9)))) for _ in range(400)]
    plain = strengths(hands)
    try:
        assert install()
        fast = strengths(hands)
    finally:
        set_rank_function(None)
    for i in range(len(hands) - 1):
        assert (plain[i] > plain[i + 1]) == (fast[i] > fast[i + 1])
        assert (plain[i] == plain[i + 1]) == (fast[i] == fast[i + 1])
    assert evaluation.rank_function() is None


def test_rule_12_short_hands_rank_groups_only() -> None:
    assert hand_key(ids(["Ac", "Kc", "Qc", "Jc"])) == (0, 12, 11, 10, 9), "no flush or straight"
    assert hand_key(ids(["Ac", "Ad", "Ah", "As"])) == (7, 12)
    assert hand_key(ids(["Ac", "Ad", "Ah", "As"])) > hand_key(ids(["Kc", "Qd", "Jc", "Tc", "9c"]))
    assert hand_key(ids(["5c", "4d", "3h", "2s", "Ac"])) == (4, 3), "the wheel"
    assert hand_key(ids(["5c", "4d", "3h", "2s", "Ac"]), wheel=False)[0] == 0
    assert hand_key([]) < hand_key(ids(["2c"]))


card_lists = st.lists(st.sampled_from(range(52)), min_size=1, max_size=8, unique=True)


@settings(max_examples=300, deadline=None)
@given(card_lists, st.sampled_from(range(52)))
def test_rule_12_one_more_card_never_weakens_a_hand(cards: list[int], extra: int) -> None:
    if extra not in cards:
        assert hand_key([*cards, extra]) >= hand_key(cards)


@settings(max_examples=200, deadline=None)
@given(card_lists, st.randoms())
def test_rule_12_order_of_cards_does_not_matter(cards: list[int], rnd: random.Random) -> None:
    shuffled = list(cards)
    rnd.shuffle(shuffled)
    assert hand_key(shuffled) == hand_key(cards)


def _pool(rng: random.Random) -> list[list[int]]:
    """Hands of 5 to 9 distinct cards (mostly 8 and 9), some drawn from narrow decks so that
    the rare shapes of 8-9 cards come up: two trips, quads with trips, four pairs, a flush
    beside a full house, six or seven suited cards with a straight flush inside."""
    hands = []
    for _ in range(12000):
        hands.append(rng.sample(range(52), rng.choice((5, 6, 7, 8, 8, 9, 9, 9))))
    for _ in range(6000):  # few ranks: many repeated ranks
        ranks = rng.sample(range(13), rng.choice((3, 4, 5)))
        deck = [r * 4 + s for r in ranks for s in range(4)]
        hands.append(rng.sample(deck, min(len(deck), rng.choice((8, 9)))))
    for _ in range(6000):  # one or two suits, runs likely
        suits = rng.sample(range(4), rng.choice((1, 2)))
        deck = [r * 4 + s for r in range(13) for s in suits]
        hands.append(rng.sample(deck, rng.choice((8, 9))))
    return hands


def _same_ranking(hands: list[list[int]], old: list[int], new: list[int]) -> None:
    """``old`` and ``new`` order ``hands`` the same way: equal old values have equal new
    values, and a higher old value always has a higher new value."""
    order = sorted(range(len(hands)), key=lambda i: old[i])
    for i, j in pairwise(order):
        if old[i] == old[j]:
            assert new[i] == new[j], (hands[i], hands[j])
        else:
            assert new[i] < new[j], (hands[i], hands[j])


def test_rule_12_eight_and_nine_cards_in_one_eval7_call_rank_as_the_best_seven_card_subset() -> None:
    # the runtime evaluator (eval7, one call per hand of up to 9 cards) against the previous
    # path (every 7-card subset through phevaluator), on one scale across hand sizes
    rng = random.Random(89)
    hands = _pool(rng)
    assert {len(h) for h in hands} == {5, 6, 7, 8, 9}
    one_call = eval7_rank_function()
    subsets = phevaluator_rank_function()
    _same_ranking(hands, [subsets(h) for h in hands], [one_call(h) for h in hands])
    # and against our own evaluator on a share of them (pure Python, slower)
    some = hands[::6]
    ours = [hand_key(h) for h in some]
    order = sorted(range(len(some)), key=lambda i: ours[i])
    values = [one_call(h) for h in some]
    for i, j in pairwise(order):
        assert (values[i] == values[j]) == (ours[i] == ours[j]), (some[i], some[j])
        assert values[i] <= values[j], (some[i], some[j])


def test_rule_12_install_prefers_eval7() -> None:
    try:
        assert install()
        fn = evaluation.rank_function()
        assert fn is not None
        hand = ids(["Ac", "Ad", "Ah", "Kc", "Kd", "Kh", "Qs", "Qc", "2d"])
        assert fn(hand) == eval7_rank_function()(hand)
    finally:
        set_rank_function(None)
