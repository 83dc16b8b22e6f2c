"""Properties of the pure showdown ranking (rule 9, SB-16, SB-17, SB-21)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from sb_helpers import BLUFF

from cardhall.games.soldiers_bluff import CARD_IDS
from cardhall.games.soldiers_bluff.ranking import hand_key, hand_sum, showdown_winner

deals = st.permutations(CARD_IDS)


def _split(deck: list[str], n: int) -> list[list[str]]:
    return [list(deck[6 * i : 6 * i + 6]) for i in range(n)]


@given(deals)
def test_SB_rule9_keys_of_disjoint_hands_are_never_equal(deck: list[str]) -> None:
    a, b = _split(deck, 2)
    assert hand_key(a) != hand_key(b)
    assert (hand_key(a) > hand_key(b)) != (hand_key(b) > hand_key(a)), "antisymmetric, total"


@given(deals)
def test_SB_rule9_ranking_is_transitive(deck: list[str]) -> None:
    a, b, c = sorted(_split(deck, 3), key=hand_key)
    assert hand_key(a) < hand_key(b) < hand_key(c)
    assert hand_key(a) < hand_key(c)


@given(deals, st.integers(min_value=2, max_value=5))
def test_SB_rule9_3_distinct_cards_always_give_one_winner(deck: list[str], n: int) -> None:
    hands = _split(deck, n)
    winner = showdown_winner({s: hand_key(h) for s, h in enumerate(hands)})
    assert all(hand_key(hands[winner]) > hand_key(h) for s, h in enumerate(hands) if s != winner)


@given(st.lists(st.sampled_from(CARD_IDS), min_size=6, max_size=6, unique=True))
def test_SB_rule9_1_soldiers_bluff_beats_every_other_hand(hand: list[str]) -> None:
    if sorted(hand) != sorted(BLUFF):
        assert hand_key(BLUFF) > hand_key(hand)
        assert hand_key(hand)[0] == 0


@given(st.lists(st.sampled_from(CARD_IDS), min_size=6, max_size=6, unique=True))
def test_SB_16_sums_lie_between_7_and_57(hand: list[str]) -> None:
    assert 7 <= hand_sum(hand) <= 57


@given(st.lists(st.sampled_from(CARD_IDS), min_size=6, max_size=6, unique=True))
def test_SB_rule9_key_ignores_card_order(hand: list[str]) -> None:
    assert hand_key(hand) == hand_key(list(reversed(hand)))
