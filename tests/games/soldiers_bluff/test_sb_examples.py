"""The worked examples of the Soldier's Bluff spec, section 6 (SB-E1 ... SB-E9).

Betting examples: 3 players, ante 1, dealer S0, so the order is S1, S2, S0.
"""

from __future__ import annotations

import pytest
from sb_helpers import (
    BLUFF,
    CHECK,
    FOLD,
    HAND_E1_A,
    HAND_E1_B,
    HAND_E2_A,
    HAND_E2_B,
    HAND_E4_B,
    PASS,
    bet,
    deal,
    new_hand,
    no_exchanges,
    play,
)

from cardhall.engine.errors import InvalidConfigError
from cardhall.games.soldiers_bluff import RULES
from cardhall.games.soldiers_bluff.config import check_deck
from cardhall.games.soldiers_bluff.ranking import hand_key, hand_sum


def _showdown_two(hand_s1: list[str], hand_s0: list[str]):
    """Two players, dealer S0: S1 and S0 pass, then check; showdown."""
    st = new_hand([20, 20])
    deal(st, {1: hand_s1, 0: hand_s0})
    no_exchanges(st)
    play(st, [(1, PASS), (0, PASS), (1, CHECK), (0, CHECK)])
    assert st.outcome is not None and st.outcome.reason == "showdown"
    return st.outcome


def test_SB_E1_higher_sum_wins_whatever_the_strongest_card() -> None:
    assert hand_sum(HAND_E1_A) == 36 and hand_sum(HAND_E1_B) == 39
    outcome = _showdown_two(HAND_E1_A, HAND_E1_B)  # A = S1 holds the King of Wolves
    assert outcome.detail is not None and outcome.detail["winner"] == 0
    assert outcome.returns == (1, -1)


def test_SB_E2_text_tie_on_thirty_goes_to_the_king_of_wolves() -> None:
    assert hand_sum(HAND_E2_A) == 30 == hand_sum(HAND_E2_B)
    outcome = _showdown_two(HAND_E2_B, HAND_E2_A)  # A (KoW) = S0
    assert outcome.detail is not None and outcome.detail["winner"] == 0
    assert outcome.returns == (1, -1)


def test_SB_E4_soldiers_bluff_beats_a_sum_of_53() -> None:
    assert hand_sum(BLUFF) == 44 and hand_sum(HAND_E4_B) == 53
    assert hand_key(BLUFF) > hand_key(HAND_E4_B)
    outcome = _showdown_two(BLUFF, HAND_E4_B)
    assert outcome.detail is not None
    assert outcome.detail["winner"] == 1 and outcome.detail["soldiers_bluff"] is True
    assert outcome.returns == (-1, 1)


def test_SB_E7_uncontested_pot_taken_at_once_without_showing() -> None:
    st = new_hand([20, 20, 20])
    deal(st, {})
    no_exchanges(st)
    events = play(st, [(1, bet(3)), (2, FOLD), (0, FOLD)])
    assert st.outcome is not None and st.outcome.reason == "uncontested"
    assert st.outcome.detail is not None
    assert st.outcome.detail["winner"] == 1 and st.outcome.detail["pot"] == 6
    assert st.outcome.returns == (-1, 2, -1)
    assert st.round == 1, "no round 2"
    assert all(s["shown"] is None for s in st.view(None)["seats"])
    assert not any(e.kind == "showdown" for e in events)
    for seat in (None, 0, 2):
        assert set(st.seats[1].hand) <= st.hidden_from(seat)


def test_SB_E8_all_pass_then_all_check_is_a_showdown_for_the_antes() -> None:
    st = new_hand([20, 20, 20])
    deal(st, {})
    no_exchanges(st)
    play(st, [(1, PASS), (2, PASS), (0, PASS)])
    assert st.phase == "betting" and st.round == 2
    play(st, [(1, CHECK), (2, CHECK), (0, CHECK)])
    assert st.outcome is not None and st.outcome.reason == "showdown"
    assert st.outcome.detail is not None and st.outcome.detail["pot"] == 3
    assert sorted(st.outcome.returns) == [-1, -1, 2]


def test_SB_E9_five_players_exchanging_two_each_empty_the_stock() -> None:
    st = new_hand([20] * 5)
    deal(st, {})
    assert st.view(0)["stock_size"] == 10
    while st.phase == "exchange":
        seat = st.to_act()[0]
        st.apply(seat, {"type": "exchange", "cards": st.seats[seat].hand[:2]})
    assert st.view(None)["stock_size"] == 0
    assert st.check_invariants() == []


def test_SB_E9_exchanging_three_fails_the_deck_assertion_at_five_players() -> None:
    with pytest.raises(InvalidConfigError, match="exchange_max"):
        RULES.config({"exchange_max": 3})
    four = RULES.config({"exchange_max": 3, "max_players": 4})
    assert RULES.new_state(four, 4, 0, [10] * 4).stock == []
    with pytest.raises(InvalidConfigError, match="exchange_max"):
        check_deck(four, 5)
