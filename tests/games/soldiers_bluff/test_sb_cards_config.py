"""The deck as data (spec section 1) and the rules config (section 3)."""

from __future__ import annotations

import dataclasses

import pytest

from cardhall.engine.config import config_to_dict
from cardhall.engine.errors import InvalidConfigError
from cardhall.engine.registry import get_game
from cardhall.games.soldiers_bluff import CARD_IDS, DECK, RULES, SoldiersBluffConfig, card_name
from cardhall.games.soldiers_bluff.cards import ARMY, BY_ID


def test_SB_section1_forty_unique_cards_in_strength_order() -> None:
    assert len(DECK) == 40 == len(set(CARD_IDS))
    assert [c.position for c in DECK] == list(range(1, 41))
    assert DECK[0].id == "king_of_wolves" and DECK[0].strength == 40
    assert DECK[-1].id == "drowned_man" and DECK[-1].strength == 1
    values = [c.value for c in DECK]
    assert values == sorted(values, reverse=True)
    assert sum(values) == 190


def test_SB_section1_value_groups_and_army() -> None:
    assert [c.value for c in DECK[:5]] == [12, 11, 10, 9, 8]
    for v in range(1, 8):
        assert sum(1 for c in DECK if c.value == v) == 5
    assert {c.id for c in DECK[5:10]} == ARMY


def test_SB_section1_display_names_by_language() -> None:
    assert card_name("king_of_wolves", "en") == "King of Wolves"
    assert card_name("king_of_wolves", "bg") == "Крал на вълците"
    assert card_name("drowned_man", "bg") == "Удавник"
    assert card_name("lord_of_blades", "hy") == "Սայրերի տեր"
    assert card_name("crown", "xx") == "Crown", "an unknown language falls back to English"
    assert BY_ID["white_swordsman"].bg == "Бял мечоносец"
    with pytest.raises(KeyError):
        card_name("nope", "en")


def test_SB_section3_defaults() -> None:
    cfg = RULES.config({})
    assert config_to_dict(cfg) == {
        "min_players": 2, "max_players": 5, "ante": 1, "min_bet": 1, "min_raise": 1,
        "deal_pattern": "one_at_a_time", "exchange_max": 2, "exchange_exact": False,
        "exchange_phase": "before_betting", "exchange_order": "sequential",
        "pass_is_fold": False, "round1_bet_must_match": True, "bet_limit": "no_limit",
        "stake_cap": "smallest_stack", "betting_model": "rounds",
        "fold_when_not_facing_bet": True, "tiebreak": "list_order",
        "bluff_instant_win": False, "bluff_only_as_dealt": False,
        "split_remainder": "first_from_dealer_left", "show_uncontested": False,
        "session_mode": "cash",
    }
    assert dataclasses.is_dataclass(cfg) and RULES.name == "soldiers_bluff"
    assert get_game("soldiers_bluff") is RULES
    assert (RULES.min_seats, RULES.max_seats, RULES.uses_stacks) == (2, 5, True)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("betting_model", "poker"), ("stake_cap", "side_pots"), ("tiebreak", "value_kickers"),
        ("exchange_phase", "after_first_round"), ("session_mode", "elimination"),
        ("bluff_instant_win", True), ("show_uncontested", True), ("min_players", 1),
        ("max_players", 6), ("ante", -1), ("min_bet", 0), ("min_raise", 0),
        ("betting_model", "bogus"), ("ante", "1"),
    ],
)
def test_SB_section3_bad_values_name_the_field(field: str, value: object) -> None:
    with pytest.raises(InvalidConfigError, match=field):
        RULES.config({field: value})


def test_SB_1_seat_count_must_fit_min_and_max_players() -> None:
    cfg = RULES.config({"max_players": 3})
    with pytest.raises(InvalidConfigError, match="max_players"):
        RULES.new_state(cfg, 4, 0, [10] * 4)
    with pytest.raises(InvalidConfigError):
        RULES.new_state(RULES.config({}), 6, 0, [10] * 6)
    with pytest.raises(InvalidConfigError):
        RULES.new_state(SoldiersBluffConfig(), 2, 0, None)
