"""Adversarial review of Bazaar Blot: rule corners found wrong or worth pinning (rule 7)."""

from __future__ import annotations

import pytest

from cardhall.engine import InvalidConfigError
from cardhall.games.bazaar_blot.config import BlotConfig
from cardhall.games.bazaar_blot.scoring import score_deal

from .helpers import RULES, call, dealt


def test_rule_7_failed_bid_defenders_get_16_even_when_declarers_took_all_eight() -> None:
    # Only reachable with a bid above 25 (max_bid > 25, the uncapped BB-11 alternative):
    # the declarers take every trick (card small 25) and still fail; the defenders score 16
    # ("25 if the defenders took all 8 tricks"), not 25.
    cfg = BlotConfig(max_bid=40)
    res = score_deal(cfg, 1, 30, (0, 8), (0, 162), (0, 0), 1)
    assert not res.made and res.scores == (16, 0)
    res = score_deal(cfg, 0, 31, (8, 0), (162, 0), (50, 0), 2)
    assert not res.made and res.scores == (0, 2 * (16 + 5))  # declarers' 50 go to defenders
    # the defenders taking all eight still get 25
    assert score_deal(cfg, 1, 30, (8, 0), (162, 0), (0, 0), 1).scores == (25, 0)


def test_section_3_mutating_legal_entries_does_not_change_any_game() -> None:
    # The pass/contra/recontra entries were shared module constants: a caller that annotated
    # an entry (e.g. entry["seat"] = 1) corrupted the auction of every game in the process.
    state = dealt({})
    call(state, 1, "9s")
    for seat in range(4):
        for entry in state.legal_actions(seat):
            entry["scribble"] = True
    other = dealt({})
    call(other, 1, "9s")
    assert {"type": "pass"} in other.legal_actions(2)
    assert {"type": "contra"} in other.legal_actions(2)
    call(other, 2, "contra")
    assert other.legal_actions(1) == [{"type": "recontra"}, {"type": "pass"}]


def test_section_4_view_teams_is_not_a_shared_global() -> None:
    state = dealt({})
    state.view(0)["teams"][0].append(9)
    assert dealt({}).view(1)["teams"] == [[0, 2], [1, 3]]


@pytest.mark.parametrize(("patch", "field", "value"), [
    ({"max_bid": 5}, "max_bid", "5"),           # used to blame min_bid (value 8)
    ({"max_bid": -1}, "max_bid", "-1"),
    ({"min_bid": 0}, "min_bid", "0"),
    ({"min_bid": 17}, "max_bid", "min_bid=17"),
    ({"target_score": 0}, "target_score", "0"),
    ({"target_score": True}, "target_score", "True"),
    ({"target_score": 101.0}, "target_score", "101.0"),
    ({"target_score": "101"}, "target_score", "'101'"),
    ({"contracts": "suit"}, "contracts", "'suit'"),
    ({"dealer_rotation": ["left"]}, "dealer_rotation", "['left']"),
    ({"max_bid": None}, "max_bid", "None"),
    ({"no_such": 1}, "no_such", "no_such"),
])
def test_BB_config_errors_name_the_field_the_caller_set(patch: dict, field: str,
                                                        value: str) -> None:
    with pytest.raises(InvalidConfigError) as info:
        RULES.config(patch)
    assert repr(field) in info.value.message and value in info.value.message
