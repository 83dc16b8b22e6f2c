"""The hard cases of the Soldier's Bluff spec, section 7 (1 ... 8)."""

from __future__ import annotations

import pytest
from sb_helpers import (
    BLUFF,
    CALL,
    CHECK,
    FOLD,
    HAND_E2_A,
    HAND_E2_B,
    HAND_E4_B,
    PASS,
    bet,
    deal,
    new_hand,
    no_exchanges,
    play,
    raise_to,
    types,
)

from cardhall.engine.errors import NotYourTurnError
from cardhall.games.soldiers_bluff.ranking import hand_key, hand_sum, is_soldiers_bluff

BEST_57 = ["king_of_wolves", "queen_of_roses", "prince_of_serpents", "lord_of_blades",
           "lady_of_crows", "red_captain"]


def _betting(stacks=(20, 20, 20), **config):
    st = new_hand(list(stacks), **config)
    deal(st, {})
    no_exchanges(st)
    return st


def test_SB_hard1_round1_pass_is_a_check_the_passer_stays_in() -> None:
    st = _betting()
    play(st, [(1, PASS), (2, bet(2)), (0, PASS)])
    assert not st.seats[1].folded and st.round == 2
    assert st.to_act() == (1,)
    assert types(st.legal_actions(1)) == ["call", "raise", "fold"]
    play(st, [(1, CALL)])
    assert st.seats[1].stake == 2


def test_SB_hard1_alternative_pass_is_fold() -> None:
    st = _betting(pass_is_fold=True)
    play(st, [(1, PASS)])
    assert st.seats[1].folded


def test_SB_hard2_equal_stakes_after_round1_do_not_close_betting() -> None:
    st = _betting()
    play(st, [(1, bet(2)), (2, bet(2)), (0, bet(2))])
    assert st.phase == "betting" and st.round == 2 and st.to_act() == (1,)
    assert {"type": "raise", "min_to": 3, "max_to": 19} in st.legal_actions(1)
    play(st, [(1, raise_to(5)), (2, CALL), (0, CALL)])
    assert st.round == 3 and st.to_act() == (1,), "the raiser acts again in the next round"
    play(st, [(1, CHECK), (2, CHECK), (0, CHECK)])
    assert st.outcome is not None and st.outcome.reason == "showdown"


def test_SB_hard3_soldiers_bluff_beats_even_57() -> None:
    assert hand_sum(BEST_57) == 57
    assert hand_key(BLUFF) > hand_key(BEST_57)


def test_SB_hard4_five_of_six_bluff_cards_are_just_a_sum() -> None:
    five = [*BLUFF[:5], "king_of_wolves"]
    assert not is_soldiers_bluff(five)
    assert hand_key(five)[0] == 0 and hand_key(five)[1] == 9 + 4 * 7 + 12


def test_SB_hard4_bluff_completed_by_the_exchange_counts() -> None:
    st = new_hand([20, 20])
    missing = "white_swordsman"
    deal(st, {1: [*BLUFF[:5], "drowned_man"], 0: HAND_E4_B}, stock_top=[missing])
    st.apply(1, {"type": "exchange", "cards": ["drowned_man"]})
    st.apply(0, {"type": "exchange", "cards": []})
    assert sorted(st.seats[1].hand) == sorted(BLUFF)
    play(st, [(1, PASS), (0, PASS), (1, CHECK), (0, CHECK)])
    assert st.outcome is not None and st.outcome.detail is not None
    assert st.outcome.detail["winner"] == 1


def test_SB_hard4_alternative_bluff_only_as_dealt() -> None:
    st = new_hand([20, 20], bluff_only_as_dealt=True)
    deal(st, {1: [*BLUFF[:5], "drowned_man"], 0: HAND_E4_B}, stock_top=["white_swordsman"])
    st.apply(1, {"type": "exchange", "cards": ["drowned_man"]})
    st.apply(0, {"type": "exchange", "cards": []})
    play(st, [(1, PASS), (0, PASS), (1, CHECK), (0, CHECK)])
    assert st.outcome is not None and st.outcome.detail is not None
    assert st.outcome.detail["winner"] == 0, "44 by sum loses to 53"


def test_SB_hard5_equal_sums_never_split_the_pot() -> None:
    st = new_hand([20, 20])
    deal(st, {1: HAND_E2_A, 0: HAND_E2_B})
    no_exchanges(st)
    play(st, [(1, bet(4)), (0, bet(4)), (1, CHECK), (0, CHECK)])
    assert st.outcome is not None
    assert st.outcome.returns == (-5, 5), "the whole pot to one player, no split"


def test_SB_hard6_thirty_means_whole_hand_totals_not_the_five_others() -> None:
    assert hand_sum(HAND_E2_A) == 30 and hand_sum(HAND_E2_B) == 30
    assert hand_sum(HAND_E2_A[1:]) == 18, "the five others of A sum to 18, not 30"
    assert hand_key(HAND_E2_A)[1] == hand_key(HAND_E2_B)[1]
    assert hand_key(HAND_E2_A) > hand_key(HAND_E2_B)


def test_SB_hard7_folded_stakes_stay_in_the_pot() -> None:
    st = _betting()
    play(st, [(1, bet(5)), (2, bet(5)), (0, FOLD), (1, raise_to(8)), (2, FOLD)])
    assert st.outcome is not None and st.outcome.reason == "uncontested"
    assert st.outcome.detail is not None and st.outcome.detail["pot"] == 3 + 8 + 5
    assert st.outcome.returns == (-1, 16 - 9, -6)
    assert [p.stake for p in st.seats] == [0, 8, 5], "folded stakes are kept exactly in the hand record"


def test_SB_hard8_replacements_come_from_the_stock_top_discards_stay_out() -> None:
    st = new_hand([20, 20, 20])
    deal(st, {})
    top = st.stock[:4]
    s1_discards = st.seats[1].hand[:2]
    st.apply(1, {"type": "exchange", "cards": s1_discards})
    assert st.seats[1].hand[-2:] == top[:2]
    st.apply(2, {"type": "exchange", "cards": st.seats[2].hand[:2]})
    assert st.seats[2].hand[-2:] == top[2:4]
    assert not set(s1_discards) & set(st.stock), "discards are never reshuffled into the stock"
    assert [p.exchanged for p in st.seats[:3]] == [None, 2, 2]


def test_SB_hard8_a_player_cannot_exchange_twice() -> None:
    st = new_hand([20, 20, 20])
    deal(st, {})
    st.apply(1, {"type": "exchange", "cards": []})
    with pytest.raises(NotYourTurnError):
        st.apply(1, {"type": "exchange", "cards": [st.seats[1].hand[0]]})
