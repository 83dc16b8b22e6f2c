"""Legal cards, trick winner and the weakest legal card (rules 5 and 9; spec section 5 BL-*,
hard cases 2-6 and 16). Trump ♥, dealer seat 0, seat 1 leads trick 1 unless stated."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from cardhall.games.bazaar_blot.cards import (
    CODES,
    PLAIN_POINTS,
    TRUMP_POINTS,
    TRUMP_STRENGTH,
    weakest_key,
)
from cardhall.games.bazaar_blot.tricks import legal_cards, weakest, winner_index

from .helpers import cards, contract, legal_codes, play

H = 2  # hearts


def legal(trick: str, seat: int, hand: str, *, forced: bool = False, leader: int = 1) -> set[str]:
    """Legal cards of ``seat`` holding ``hand`` after ``trick`` (led by ``leader``), trump ♥."""
    t = cards(trick)
    partner = bool(t) and ((leader + winner_index(t, H)) - seat) % 2 == 0
    return {CODES[c] for c in legal_cards(cards(hand), t, H, partner, forced)}


def test_BL_1_trump_led_must_beat() -> None:
    assert legal("Th", 2, "Ah 8h Ks 7c") == {"Ah"}


def test_BL_3_cannot_beat_jack_still_follows_trump() -> None:
    assert legal("Jh", 2, "Qh 7h Ac") == {"Qh", "7h"}


def test_BL_4_opponent_winning_must_trump() -> None:
    assert legal("As", 2, "Qh 9h 7d 8c") == {"Qh", "9h"}


def test_BL_4_through_the_engine() -> None:
    state = contract({1: "As Ks Qs Js Ts 9s 8s 7s", 2: "Qh 9h 7d 8c 9c Tc Jc Qc"}, "8h")
    play(state, "As")
    assert legal_codes(state, 2) == {"Qh", "9h"}


def test_BL_5_cannot_overtrump_opponent_is_free() -> None:
    assert legal("Kc Ah", 3, "Th 7h Ad 8s") == {"Th", "7h", "Ad", "8s"}


def test_BL_5_alt_forced_undertrump() -> None:
    assert legal("Kc Ah", 3, "Th 7h Ad 8s", forced=True) == {"Th", "7h"}


def test_BL_5_forced_through_the_config() -> None:
    hands = {1: "Ac Kc Qc Jc Tc 9c 8c 7c", 2: "Ah Ad Kd Qd Jd Td 9d 8d",
             3: "Th 7h Ks Qs Js Ts 9s 8s"}
    state = contract(hands, "8h", config={"undertrump_when_cannot_overtrump": "forced"})
    play(state, "Kc", "Ah")
    assert legal_codes(state, 3) == {"Th", "7h"}


def test_BL_7_partner_winning_void_is_free() -> None:
    assert legal("8d 7d", 3, "Kh 8h Qc 9s") == {"Kh", "8h", "Qc", "9s"}


def test_BL_8_must_follow_suit_no_ruffing() -> None:
    assert legal("Qs Kh", 3, "7s Jh Ad") == {"7s"}


def test_BL_11_void_in_led_trump_any_card() -> None:
    assert legal("9h", 2, "As 7d Kc") == {"As", "7d", "Kc"}


def test_weakest_card_examples() -> None:
    assert CODES[weakest(cards("As 7s 7h Jd"), H)] == "7s"
    assert CODES[weakest(cards("9h Ah 8h"), H)] == "8h"


def test_hard_case_2_jack_heads_trump_and_deal_is_162() -> None:
    assert max(range(8), key=lambda r: TRUMP_STRENGTH[r]) == 4  # the Jack
    assert CODES[cards("9h Ah Jh")[winner_index(cards("9h Ah Jh"), H)]] == "Jh"
    assert sum(TRUMP_POINTS) == 62
    assert sum(TRUMP_POINTS) + 3 * sum(PLAIN_POINTS) + 10 == 162


def test_hard_case_3_follow_suit_even_when_opponent_wins() -> None:
    assert legal("Qs Kh", 3, "7s Jh Ad") == {"7s"}


def test_hard_case_4_trump_led_must_beat_partner() -> None:
    # seat 1 leads K♥, seat 2 plays 7♥; seat 3 (seat 1's partner) must beat K♥ with A♥.
    assert legal("Kh 7h", 3, "Ah 8h Qc") == {"Ah"}


def test_hard_case_5_partner_ruffing_discard_free_trump_must_beat() -> None:
    # 1: 7♠, 2: Q♥ (ruff), 3: 8♠; seat 0 (seat 2's partner) is void in ♠.
    assert legal("7s Qh 8s", 0, "Kh 7h Ad") == {"Kh", "Ad"}
    assert legal("7s Qh 8s", 0, "8h 7h Ad") == {"8h", "7h", "Ad"}


def test_hard_case_5_through_the_engine() -> None:
    hands = {1: "7s 8c 9c Tc Jc Qc Kc Ac", 2: "Qh 7d 8d 9d Td Jd Qd Kd",
             3: "8s 9s Ts Js Qs Ks As Ad", 0: "Kh 7h 8h 9h Th Ah Jh 7c"}
    state = contract(hands, "8h")
    play(state, "7s", "Qh", "8s")
    assert legal_codes(state, 0) == {"Kh", "9h", "Th", "Ah", "Jh", "7c"}


def test_hard_case_6_cannot_overtrump_opponent_any_card() -> None:
    assert legal("Kc Ah", 3, "Th 7h Ad 8s") == {"Th", "7h", "Ad", "8s"}


def test_hard_case_16_timeout_is_weakest_legal_card() -> None:
    hands = {1: "Ac 7d 7c Ah Kh Qh Jh Th"}
    state = contract(hands, "8h")
    assert state.timeout_action(1) == {"type": "play", "card": "7c"}  # 7♣ < 7♦ by suit
    assert state.timeout_action(2) is None


# ----- properties --------------------------------------------------------------------------
deals = st.permutations(list(range(32)))


@given(deals, st.integers(1, 4), st.integers(0, 3))
def test_trick_winner_is_highest_trump_else_highest_of_led_suit(
    deck: list[int], n: int, trump: int
) -> None:
    trick = deck[:n]
    w = trick[winner_index(trick, trump)]
    trumps = [c for c in trick if c >> 3 == trump]
    if trumps:
        assert w >> 3 == trump
        assert all(TRUMP_STRENGTH[w & 7] >= TRUMP_STRENGTH[c & 7] for c in trumps)
    else:
        led = [c for c in trick if c >> 3 == trick[0] >> 3]
        assert w in led
        assert all(weakest_key(w, trump) >= weakest_key(c, trump) for c in led)


@given(deals, st.integers(0, 3), st.integers(1, 8), st.integers(0, 3), st.booleans(),
       st.booleans(), st.booleans())
def test_weakest_legal_card_is_legal_and_minimal(
    deck: list[int], n: int, size: int, trump: int, partner: bool, forced: bool, ruff: bool
) -> None:
    trick, hand = deck[:n], deck[n:n + size]
    legal_set = legal_cards(hand, trick, trump, partner, forced, ruff)
    assert legal_set and set(legal_set) <= set(hand)
    if trick and any(c >> 3 == trick[0] >> 3 for c in hand):
        assert all(c >> 3 == trick[0] >> 3 for c in legal_set)  # rule 5.1
    w = weakest(legal_set, trump)
    assert w in legal_set
    assert all(weakest_key(w, trump) <= weakest_key(c, trump) for c in legal_set)
