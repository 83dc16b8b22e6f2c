"""Bad input: typed errors naming the value, the state unchanged (rules 7, 8, 13; section 3)."""

from __future__ import annotations

from cardhall.engine import IllegalActionError, MalformedActionError, NotYourTurnError

from .helpers import BUY, CALL, FOLD, STAY, battle, discard, make, play, rejected_unchanged

BANNERS = ["2h", "2s", "2d", "3h"]
PALACES = [["Ac", "Kc", "9h"], ["3c", "5d", "7s"], ["4c", "6c", "8d"], ["Tc", "Jd", "Qs"]]


def test_rule_7_attacking_a_same_suit_banner_is_illegal() -> None:
    state = make(["2h", "2s", "2d", "2c", "3h"], [*PALACES, ["9c", "9d", "9s"]])
    msg = rejected_unchanged(state, 0, battle(4), IllegalActionError)
    assert "seat 4" in msg and "'h'" in msg


def test_rule_7_attacking_a_folded_seat_is_illegal() -> None:
    state = make(BANNERS[:3], PALACES[:3])
    play(state, (0, STAY), (1, FOLD), (2, BUY), (2, discard()))
    msg = rejected_unchanged(state, 0, battle(1), IllegalActionError)
    assert "seat 1 is not in the hand" in msg


def test_rule_7_discarding_a_card_not_among_own_soldiers_is_illegal() -> None:
    state = make(BANNERS[:3], PALACES[:3], stock_top=["Jh"])
    play(state, (0, BUY), (0, discard()), (1, STAY), (2, STAY))
    msg = rejected_unchanged(state, 0, discard("Ac"), IllegalActionError)
    assert "Ac" in msg and "soldiers" in msg
    msg = rejected_unchanged(state, 0, discard(), IllegalActionError)
    assert "at least 1" in msg


def test_rule_7_ending_a_turn_with_six_soldiers_is_illegal() -> None:
    state = make(BANNERS[:2], PALACES[:2])
    for _ in range(5):
        play(state, (0, BUY), (0, discard()), (1, BUY))
        play(state, (1, discard(state.hand.soldiers[1][-1])))
    play(state, (0, BUY))
    msg = rejected_unchanged(state, 0, discard(), IllegalActionError)
    assert "6" in msg and "at most 5" in msg


def test_rule_13_buying_with_no_chips_is_illegal() -> None:
    state = make(BANNERS[:2], PALACES[:2], stacks=[1, 50])
    msg = rejected_unchanged(state, 0, BUY, IllegalActionError)
    assert "costs 2 chips" in msg and "has 0" in msg
    msg = rejected_unchanged(state, 0, battle(1), IllegalActionError)
    assert "costs 2 chips" in msg


def test_acting_out_of_turn_is_not_your_turn() -> None:
    state = make(BANNERS[:3], PALACES[:3])
    msg = rejected_unchanged(state, 1, STAY, NotYourTurnError)
    assert "seat 1" in msg
    play(state, (0, battle(1)))
    rejected_unchanged(state, 0, CALL, NotYourTurnError)
    rejected_unchanged(state, None, {"type": "reshuffle", "stock": []}, NotYourTurnError)


def test_malformed_actions_name_the_value() -> None:
    state = make(BANNERS[:3], PALACES[:3])
    assert "Zz" in rejected_unchanged(state, 0, discard("Zz"), MalformedActionError)
    assert "99" in rejected_unchanged(state, 0, battle(99), MalformedActionError)
    assert "extra" in rejected_unchanged(state, 0, {"type": "battle", "target": 1, "extra": 4},
                                         MalformedActionError)
    assert "'no_such'" in rejected_unchanged(state, 0, {"type": "no_such"}, MalformedActionError)
    assert "'raise'" in rejected_unchanged(state, 0, {"type": "raise"}, IllegalActionError)


def test_malformed_chance_actions_are_malformed_not_crashes() -> None:
    from cardhall.games.palace_poker import RULES

    fresh = RULES.new_state(RULES.config({}), 2, 1, [10, 10])
    for banners in ([["2c"], "3d"], [{"card": "2c"}, "3d"], [7, "3d"]):
        msg = rejected_unchanged(fresh, None, {"type": "deal_banners", "banners": banners,
                                               "rejected": []}, MalformedActionError)
        assert "banners" in msg
    msg = rejected_unchanged(fresh, None, {"type": "deal_banners", "banners": ["2c", "3d"],
                                           "rejected": [["2c"]]}, MalformedActionError)
    assert "rejected" in msg
