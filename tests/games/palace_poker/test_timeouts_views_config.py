"""Rule 14 timeouts, section 4 views and the section 2 config."""

from __future__ import annotations

import pytest

from cardhall.engine import InvalidConfigError
from cardhall.engine.inspect import leaks
from cardhall.games.palace_poker import RULES

from .helpers import BUY, RAISE, STAY, battle, discard, make, play

BANNERS = ["2h", "2s", "2d"]
PALACES = [["Ac", "Kc", "9h"], ["3c", "5d", "7s"], ["4c", "6c", "8d"]]


def test_rule_14_own_turn_times_out_to_stay_and_discard_keeps_five() -> None:
    state = make(BANNERS, PALACES, stock_top=["Jh"])
    assert state.timeout_action(0) == STAY
    assert state.timeout_action(1) is None
    play(state, (0, BUY))
    assert state.timeout_action(0) == discard(), "at most five soldiers: nothing to discard"


def test_rule_14_defender_and_attacker_facing_a_raise_time_out_to_fold() -> None:
    state = make(BANNERS, PALACES)
    play(state, (0, battle(1)))
    assert state.timeout_action(1) == {"type": "fold"}
    play(state, (1, RAISE))
    assert state.timeout_action(0) == {"type": "fold"}


def test_section_4_views_show_own_palace_public_soldiers_and_battle() -> None:
    state = make(BANNERS, PALACES, stock_top=["Jh"])
    play(state, (0, BUY), (0, discard()), (1, battle(0)))
    v = state.view(0)
    assert v["palace"] == PALACES[0] and v["pot"] == 3 + 2 + 2
    assert v["seats"][0]["soldiers"] == ["Jh"] and v["seats"][2]["banner"] == "2d"
    assert v["battle"] == {"attacker": 1, "defender": 0, "raises": 0, "facing": 0,
                           "owed": {"1": 0, "0": 4}, "raise_by": 4}
    assert v["decision"] == "battle_response" and v["stock_size"] == 52 - 3 - 9 - 1
    spectator = state.view(None)
    assert spectator["palace"] is None and "Ac" not in str(spectator)
    assert state.hidden_from(0) & set(PALACES[0]) == set()
    assert set(PALACES[1]) <= state.hidden_from(0)
    assert leaks(state) == []


def test_section_2_config_defaults_and_validation() -> None:
    cfg = RULES.config({})
    assert (cfg.small_bet, cfg.big_bet, cfg.ante_chips, cfg.structure) == (2, 4, 1, "limit")
    assert RULES.config({"small_bet": 10}).ante_chips == 5
    assert RULES.config({"small_bet": 1}).ante_chips == 1
    for bad, field in [({"structure": "pot_limit"}, "structure"), ({"ante": 0}, "ante"),
                       ({"side_pots": True}, "side_pots"), ({"two_left": "x"}, "two_left"),
                       ({"soldiers_face_up": False}, "soldiers_face_up"), ({"nope": 1}, "nope"),
                       ({"first_dealer": "random"}, "first_dealer")]:
        with pytest.raises(InvalidConfigError, match=field):
            RULES.config(bad)
    assert (RULES.name, RULES.min_seats, RULES.max_seats, RULES.uses_stacks) == (
        "palace_poker", 2, 10, True)


def test_rule_4_seats_short_of_the_ante_sit_out() -> None:
    state = RULES.new_state(RULES.config({}), 3, 2, [0, 5, 5])
    assert state.hand.order == [1, 2] and state.hand.pot == 2 and state.hand.chips == [0, 4, 4]
    with pytest.raises(InvalidConfigError):
        RULES.new_state(RULES.config({}), 3, 2, [0, 0, 5])


def test_PP_14_public_battle_reveal_alternative() -> None:
    state = make(BANNERS, PALACES, config={"battle_reveal": "public"})
    play(state, (0, battle(1)), (1, {"type": "call"}))
    assert set(PALACES[0]) & state.hidden_from(2) == set()


def test_PP_11_12_no_limit_extra_and_raise_amounts() -> None:
    from cardhall.engine import IllegalActionError, MalformedActionError

    from .helpers import rejected_unchanged

    state = make(BANNERS, PALACES, config={"structure": "no_limit"}, stacks=[30, 30, 30])
    entries = [e for e in state.legal_actions(0) if e["type"] == "battle" and e["target"] == 1]
    assert entries == [{"type": "battle", "target": 1, "extra": 0},
                       {"type": "battle", "target": 1, "min_extra": 4, "max_extra": 27}]
    assert "extra" in rejected_unchanged(state, 0, battle(1), MalformedActionError)
    msg = rejected_unchanged(state, 0, {"type": "battle", "target": 1, "extra": 3}, IllegalActionError)
    assert "got 3" in msg
    play(state, (0, {"type": "battle", "target": 1, "extra": 6}))
    assert state.view(1)["battle"]["owed"] == {"0": 0, "1": 2 + 6}
    assert {"type": "raise", "min_by": 4, "max_by": 29 - 8} in state.legal_actions(1)
    play(state, (1, {"type": "raise", "by": 10}))
    assert state.hand.committed[1] == 1 + 8 + 10 and state.view(0)["battle"]["owed"]["0"] == 10


def test_PP_11_no_limit_random_playouts_keep_invariants() -> None:
    from cardhall.selfplay import play_one

    for i in range(20):
        rec, violations, _ = play_one("palace_poker", 4, seed=500 + i, probe=0.1,
                                      config={"structure": "no_limit"})
        assert violations == [] and rec.state.is_over
