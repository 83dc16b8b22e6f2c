"""Bad input to Soldier's Bluff raises the matching typed error naming the value and changes
nothing (``design.md`` section 2; issue 4 "Must show")."""

from __future__ import annotations

from typing import Any

import pytest
from sb_helpers import FOLD, PASS, bet, deal, new_hand, no_exchanges, play

from cardhall.engine.errors import EngineError
from cardhall.engine.inspect import fingerprint
from cardhall.games.soldiers_bluff import SoldiersBluffState


def _rejected(st: SoldiersBluffState, seat: int | None, action: Any, code: str, named: str) -> None:
    before = fingerprint(st)
    with pytest.raises(EngineError) as info:
        st.apply(seat, action)
    assert info.value.code == code
    assert named in info.value.message
    assert fingerprint(st) == before, "a rejected action changes nothing"


def _exchange_turn() -> SoldiersBluffState:
    st = new_hand([20, 20, 20])
    deal(st, {})
    return st


def _betting() -> SoldiersBluffState:
    st = new_hand([20, 12, 20])
    deal(st, {})
    no_exchanges(st)
    return st


def test_SB_rule6_exchanging_three_cards_is_illegal() -> None:
    st = _exchange_turn()
    three = st.seats[1].hand[:3]
    _rejected(st, 1, {"type": "exchange", "cards": three}, "engine.illegal_action", "3")


def test_SB_rule6_exchanging_a_card_not_held_is_illegal() -> None:
    st = _exchange_turn()
    other = st.seats[2].hand[0]
    _rejected(st, 1, {"type": "exchange", "cards": [other]}, "engine.illegal_action", other)


def test_SB_rule6_exchanging_an_unknown_card_is_malformed() -> None:
    st = _exchange_turn()
    _rejected(st, 1, {"type": "exchange", "cards": ["Ah"]}, "engine.malformed_action", "Ah")


def test_SB_rule7_bet_below_the_minimum_is_illegal() -> None:
    st = _betting()
    play(st, [(1, bet(5))])
    _rejected(st, 2, bet(4), "engine.illegal_action", "4")
    _rejected(st, 2, bet(0), "engine.illegal_action", "0")


def test_SB_rule7_bet_above_the_cap_is_illegal() -> None:
    st = _betting()
    assert st.cap == 11
    _rejected(st, 1, bet(12), "engine.illegal_action", "12")


def test_SB_rule7_raise_above_the_cap_is_illegal() -> None:
    st = _betting()
    play(st, [(1, bet(2)), (2, PASS), (0, PASS)])
    _rejected(st, 1, {"type": "raise", "to": 50}, "engine.illegal_action", "50")


def test_SB_rule7_check_when_facing_a_bet_is_illegal() -> None:
    st = _betting()
    play(st, [(1, bet(3)), (2, PASS), (0, PASS), (1, {"type": "check"})])
    _rejected(st, 2, {"type": "check"}, "engine.illegal_action", "check")


def test_SB_rule7_acting_after_folding_is_not_your_turn() -> None:
    st = _betting()
    play(st, [(1, FOLD), (2, PASS), (0, PASS)])
    assert st.to_act() == (2,)
    _rejected(st, 1, {"type": "check"}, "engine.not_your_turn", "1")
    play(st, [(2, {"type": "check"})])
    _rejected(st, 1, {"type": "call"}, "engine.not_your_turn", "1")


def test_SB_section4_bad_amount_type_and_extra_fields_are_malformed() -> None:
    st = _betting()
    _rejected(st, 1, {"type": "bet", "to": "3"}, "engine.malformed_action", "'3'")
    _rejected(st, 1, {"type": "bet", "to": True}, "engine.malformed_action", "True")
    _rejected(st, 1, {"type": "pass", "to": 1}, "engine.malformed_action", "to")
    _rejected(st, 1, {"type": "shove"}, "engine.malformed_action", "shove")


def test_SB_section4_wrong_phase_actions_are_illegal() -> None:
    st = _exchange_turn()
    _rejected(st, 1, bet(2), "engine.illegal_action", "bet")
    st2 = _betting()
    _rejected(st2, 1, {"type": "exchange", "cards": []}, "engine.illegal_action", "exchange")
    _rejected(st2, 1, {"type": "check"}, "engine.illegal_action", "check")


def test_SB_rule5_bad_deals_are_rejected() -> None:
    st = new_hand([20, 20])
    good = st.chance_action(lambda cards: cards)
    dup = {**good, "stock": [good["hands"][0][0], *good["stock"][1:]]}
    _rejected(st, None, dup, "engine.illegal_action", good["hands"][0][0])
    short = {**good, "hands": [good["hands"][0][:5], good["hands"][1]]}
    _rejected(st, None, short, "engine.illegal_action", "5")
    _rejected(st, 0, good, "engine.not_your_turn", "deal")
    _rejected(st, None, {**good, "stock": "x"}, "engine.malformed_action", "'x'")


def test_SB_unknown_action_type_lists_only_what_a_seat_may_send() -> None:
    """The chance action ``deal`` is not offered to a seat in the malformed-action message."""
    st = _exchange_turn()
    with pytest.raises(EngineError) as info:
        st.apply(st.to_act()[0], {"type": "zzz"})
    assert info.value.code == "engine.malformed_action"
    assert "'zzz'" in info.value.message and "'exchange'" in info.value.message
    assert "'deal'" not in info.value.message
