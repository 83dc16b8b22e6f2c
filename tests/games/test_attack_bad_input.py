"""Adversarial bad input to Bazaar Blot and Soldier's Bluff (design.md section 2): every
rejection is the right typed error, names the offending value, and leaves the state exactly as
it was; no raw Python exception escapes ``apply``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from cardhall.engine import (
    EngineError,
    GameState,
    IllegalActionError,
    MalformedActionError,
    NotYourTurnError,
    SeededShuffler,
    get_game,
)
from cardhall.engine.inspect import fingerprint

BLOT = get_game("bazaar_blot")
BLUFF = get_game("soldiers_bluff")
SHUFFLE_SEED = bytes(range(32))


def blot_new() -> GameState:
    return BLOT.new_state(BLOT.config({}), 4, 0)


def blot_auction() -> GameState:
    st = blot_new()
    st.apply(None, st.chance_action(SeededShuffler(SHUFFLE_SEED)))
    return st  # seat 1 to speak


def blot_play() -> GameState:
    st = blot_auction()
    st.apply(1, {"type": "bid", "level": 8, "trump": "h"})
    for seat in (2, 3, 0):
        st.apply(seat, {"type": "pass"})
    return st  # seat 1 leads trick 1


def bluff_new() -> GameState:
    return BLUFF.new_state(BLUFF.config({}), 3, 0, [20, 20, 20])


def bluff_exchange() -> GameState:
    st = bluff_new()
    st.apply(None, st.chance_action(SeededShuffler(SHUFFLE_SEED)))
    return st  # seat 1 exchanges


def bluff_betting() -> GameState:
    st = bluff_exchange()
    for seat in (1, 2, 0):
        st.apply(seat, {"type": "exchange", "cards": []})
    return st  # seat 1, round 1


M, N, IL = MalformedActionError, NotYourTurnError, IllegalActionError
BID = {"type": "bid", "level": 9, "trump": "h"}
CASES: list[tuple[str, Callable[[], GameState], Any, Any, type[EngineError], str]] = [
    # (name, state, seat, action, error, text the message must contain)
    ("blot level str", blot_auction, 1, {**BID, "level": "9"}, M, "'9'"),
    ("blot level bool", blot_auction, 1, {**BID, "level": True}, M, "True"),
    ("blot level float", blot_auction, 1, {**BID, "level": 9.0}, M, "9.0"),
    ("blot level huge", blot_auction, 1, {**BID, "level": 10**30}, IL, str(10**30)),
    ("blot level negative", blot_auction, 1, {**BID, "level": -1}, IL, "-1"),
    ("blot level object", blot_auction, 1, {**BID, "level": {"n": 9}}, M, "{'n': 9}"),
    ("blot trump list", blot_auction, 1, {**BID, "trump": ["h"]}, M, "['h']"),
    ("blot trump unicode", blot_auction, 1, {**BID, "trump": "\u2665"}, M, "'\u2665'"),
    ("blot trump upper", blot_auction, 1, {**BID, "trump": "H"}, M, "'H'"),
    ("blot trump missing", blot_auction, 1, {"type": "bid", "level": 9}, M, "trump"),
    ("blot extra field", blot_auction, 1, {**BID, "x": 1}, M, "'x'"),
    ("blot non-string key", blot_auction, 1, {**BID, 5: 1}, M, "5"),
    ("blot type unknown", blot_auction, 1, {"type": "Bid"}, M, "'Bid'"),
    ("blot type not str", blot_auction, 1, {"type": 5}, M, "5"),
    ("blot action not dict", blot_auction, 1, ["bid"], M, "['bid']"),
    ("blot None seat bids", blot_auction, None, BID, N, "'bid'"),
    ("blot seat -1", blot_auction, -1, BID, N, "-1"),
    ("blot seat 4", blot_auction, 4, BID, N, "4"),
    ("blot seat bool", blot_auction, True, BID, N, "True"),
    ("blot seat float", blot_auction, 1.0, BID, N, "1.0"),
    ("blot seat str", blot_auction, "1", BID, N, "'1'"),
    ("blot other seat", blot_auction, 2, BID, N, "2"),
    ("blot seat deals", blot_auction, 1, {"type": "deal", "hands": []}, M, "hands"),
    ("blot deal not due", blot_auction, None, {"type": "pass"}, N, "'pass'"),
    ("blot recontra in auction", blot_auction, 1, {"type": "recontra"}, IL, "'recontra'"),
    ("blot contra no bid", blot_auction, 1, {"type": "contra"}, IL, "contra"),
    ("blot contra out of turn no bid", blot_auction, 2, {"type": "contra"}, N, "seat 2"),
    ("blot card unknown", blot_play, 1, {"type": "play", "card": "10h"}, M, "'10h'"),
    ("blot card object", blot_play, 1, {"type": "play", "card": {"c": "Jh"}}, M, "{'c': 'Jh'}"),
    ("blot card list", blot_play, 1, {"type": "play", "card": ["Jh"]}, M, "['Jh']"),
    ("blot declare str", blot_play, 1, {"type": "play", "card": "7c", "declare": "7c"}, M,
     "'7c'"),
    ("blot declare empty", blot_play, 1, {"type": "play", "card": "7c", "declare": []}, M, "[]"),
    ("blot declare repeat", blot_play, 1,
     {"type": "play", "card": "7c", "declare": ["7c", "7c", "8c"]}, M, "repeats"),
    ("blot declare nested", blot_play, 1,
     {"type": "play", "card": "7c", "declare": [["7c"]]}, M, "['7c']"),
    ("blot deal 3 hands", blot_new, None, {"type": "deal", "hands": [[], [], []]}, M, "4 hands"),
    ("blot deal none", blot_new, None, {"type": "deal", "hands": None}, M, "None"),
    ("blot deal bad card", blot_new, None,
     {"type": "deal", "hands": [["Zz"] * 8] * 4}, M, "'Zz'"),
    ("blot deal duplicate", blot_new, None,
     {"type": "deal", "hands": [["7c", "8c", "9c", "Tc", "Jc", "Qc", "Kc", "Ac"]] * 4}, M,
     "partition"),
    ("blot deal by a seat", blot_new, 0, {"type": "deal", "hands": [["Zz"]]}, M, "'Zz'"),
    ("bluff cards str", bluff_exchange, 1, {"type": "exchange", "cards": "king_of_wolves"}, M,
     "'king_of_wolves'"),
    ("bluff cards int", bluff_exchange, 1, {"type": "exchange", "cards": [1]}, M, "1"),
    ("bluff cards nested", bluff_exchange, 1, {"type": "exchange", "cards": [["x"]]}, M, "['x']"),
    ("bluff cards missing", bluff_exchange, 1, {"type": "exchange"}, M, "cards"),
    ("bluff cards three", bluff_exchange, 1, {"type": "exchange", "cards": "ABC"}, M, "'ABC'"),
    ("bluff non-string key", bluff_exchange, 1, {"type": "exchange", "cards": [], 7: 0}, M, "7"),
    ("bluff None seat", bluff_exchange, None, {"type": "exchange", "cards": []}, N, "None"),
    ("bluff seat 3", bluff_exchange, 3, {"type": "exchange", "cards": []}, N, "3"),
    ("bluff bet in exchange", bluff_exchange, 1, {"type": "bet", "to": 1}, IL, "'bet'"),
    ("bluff to str", bluff_betting, 1, {"type": "bet", "to": "3"}, M, "'3'"),
    ("bluff to bool", bluff_betting, 1, {"type": "bet", "to": True}, M, "True"),
    ("bluff to float", bluff_betting, 1, {"type": "bet", "to": 2.0}, M, "2.0"),
    ("bluff to huge", bluff_betting, 1, {"type": "bet", "to": 10**30}, IL, str(10**30)),
    ("bluff to zero", bluff_betting, 1, {"type": "bet", "to": 0}, IL, "0"),
    ("bluff raise round 1", bluff_betting, 1, {"type": "raise", "to": 3}, IL, "'raise'"),
    ("bluff check round 1", bluff_betting, 1, {"type": "check"}, IL, "'check'"),
    ("bluff exchange twice", bluff_betting, 1, {"type": "exchange", "cards": []}, IL, "exchange"),
    ("bluff deal not due", bluff_betting, None, {"type": "deal", "hands": [], "stock": []}, N,
     "'deal'"),
    ("bluff deal seats", bluff_new, None, {"type": "deal", "hands": [[]], "stock": []}, IL,
     "1 hands"),
    ("bluff deal by seat", bluff_new, 0, {"type": "deal", "hands": [], "stock": []}, N, "0"),
]


@pytest.mark.parametrize(("make", "seat", "action", "error", "text"),
                         [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_design_2_bad_input_is_a_typed_error_naming_the_value_and_changes_nothing(
    make: Callable[[], GameState], seat: Any, action: Any, error: type[EngineError], text: str
) -> None:
    state = make()
    before = fingerprint(state)
    with pytest.raises(EngineError) as info:
        state.apply(seat, action)
    assert type(info.value) is error, info.value
    assert text in info.value.message, info.value.message
    assert fingerprint(state) == before
