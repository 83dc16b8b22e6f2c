"""Bad input: typed errors with stable codes, messages naming the value, state unchanged."""

from __future__ import annotations

from typing import Any

import pytest

from cardhall.engine import EngineError, GameOverError, InvalidConfigError, get_game
from cardhall.engine.inspect import fingerprint
from cardhall.games.bazaar_blot.config import BlotConfig
from cardhall.games.bazaar_blot.state import BlotState

from .helpers import call, contract, dealt, fill_hands, new_match

RULES = get_game("bazaar_blot")


def rejected(state: BlotState, seat: int | None, action: Any, code: str, named: str) -> None:
    before = fingerprint(state)
    with pytest.raises(EngineError) as info:
        state.apply(seat, action)
    assert info.value.code == code
    assert named in info.value.message
    assert fingerprint(state) == before


def test_unknown_action_type() -> None:
    rejected(dealt({}), 1, {"type": "double"}, "engine.malformed_action", "'double'")


def test_malformed_fields() -> None:
    state = dealt({})
    rejected(state, 1, {"type": "bid", "level": 9}, "engine.malformed_action", "'bid'")
    rejected(state, 1, {"type": "bid", "level": "9", "trump": "h"}, "engine.malformed_action",
             "'9'")
    rejected(state, 1, {"type": "bid", "level": 9, "trump": "x"}, "engine.malformed_action",
             "'x'")
    rejected(state, 1, {"type": "pass", "bogus": 1}, "engine.malformed_action", "bogus")


def test_card_not_in_hand() -> None:
    state = contract({1: "7c 8c 9c Tc Jc Qc Kc Ac"})
    rejected(state, 1, {"type": "play", "card": "As"}, "engine.illegal_action", "'As'")
    rejected(state, 1, {"type": "play", "card": "Zz"}, "engine.malformed_action", "'Zz'")


def test_card_not_legal_names_it() -> None:
    state = contract({1: "7c 8c 9c Tc Jc Qc Kc Ac", 2: "7h 8d 9d Td Jd Qd Kd 7s"})
    state.apply(1, {"type": "play", "card": "Ac"})
    rejected(state, 2, {"type": "play", "card": "Kd"}, "engine.illegal_action", "'Kd'")


def test_out_of_turn_play() -> None:
    state = contract({2: "7c 8c 9c Tc Jc Qc Kc Ac"})
    rejected(state, 2, {"type": "play", "card": "Ac"}, "engine.not_your_turn", "seat 2")


def test_contra_by_the_wrong_team() -> None:
    state = dealt({})
    call(state, 1, "9h")
    call(state, 2, "pass")
    rejected(state, 3, {"type": "contra"}, "engine.illegal_action", "seat 3")
    rejected(dealt({}), 1, {"type": "contra"}, "engine.illegal_action", "no bid stands")


def test_declaration_outside_trick_1_or_not_a_combination() -> None:
    state = contract({1: "7c 8c 9c Tc Jc Qc Kc Ac"})
    rejected(state, 1, {"type": "play", "card": "Ac", "declare": ["7c", "8c"]},
             "engine.illegal_action", "'7c'")
    rejected(state, 1, {"type": "play", "card": "Ac", "declare": ["7c", "7c", "8c"]},
             "engine.malformed_action", "repeats")


def test_deal_must_be_a_partition_by_chance() -> None:
    state = new_match()
    hands = fill_hands({})
    bad = [list(h) for h in hands]
    bad[0][0] = bad[1][0]
    rejected(state, None, {"type": "deal", "hands": bad}, "engine.malformed_action", "partition")
    rejected(state, None, {"type": "deal", "hands": hands[:3]}, "engine.malformed_action", "4")
    rejected(state, 0, {"type": "deal", "hands": hands}, "engine.not_your_turn", "seat 0")
    rejected(state, None, {"type": "pass"}, "engine.illegal_action", "'pass'")
    state.apply(None, {"type": "deal", "hands": hands})
    rejected(state, None, {"type": "deal", "hands": hands}, "engine.not_your_turn", "'deal'")


def test_game_over_rejects_everything() -> None:
    state = dealt({1: "7h 8h 9h Th Jh Qh Kh Ah"}, {"target_score": 1})
    call(state, 1, "kapot:h")
    for seat in (2, 3, 0):
        call(state, seat, "pass")
    while not state.is_over:
        state.apply(state.match.deal.turn, state.timeout_action(state.match.deal.turn))
    with pytest.raises(GameOverError):
        state.apply(1, {"type": "pass"})


@pytest.mark.parametrize(("data", "named"), [
    ({"no_such_field": 1}, "no_such_field"),
    ({"target_score": 0}, "target_score"),
    ({"target_score": "101"}, "target_score"),
    ({"undertrump_when_cannot_overtrump": "sometimes"}, "undertrump_when_cannot_overtrump"),
    ({"contracts": ["suit", "no_trump"]}, "contracts"),
    ({"belote_bonus": 20}, "belote_bonus"),
    ({"declarations_per_player": 2}, "declarations_per_player"),
    ({"max_bid": 7}, "min_bid"),
    ({"kapot_per_team_max": 0}, "kapot_per_team_max"),
    ({"rounding": "half_up"}, "rounding"),
    ({"multiplier_scope": "winner_only"}, "multiplier_scope"),
])
def test_config_unknown_or_invalid_field(data: dict[str, Any], named: str) -> None:
    with pytest.raises(InvalidConfigError) as info:
        RULES.config(data)
    assert info.value.code == "engine.invalid_config"
    assert named in info.value.message


def test_config_defaults_and_direct_validation() -> None:
    cfg = RULES.config({})
    assert cfg == BlotConfig() and cfg.target_score == 101 and cfg.max_bid == 16
    assert RULES.config({"target_score": 7}).target_score == 7
    with pytest.raises(InvalidConfigError, match="'left'"):
        BlotConfig(dealer_rotation="up")  # type: ignore[arg-type]
    with pytest.raises(InvalidConfigError, match="exactly 4 seats"):
        RULES.new_state(cfg, 3, 0)
