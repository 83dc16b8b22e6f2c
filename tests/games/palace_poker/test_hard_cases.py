"""The hard cases of section 6 of ``palace-poker.md`` (HC-1 .. HC-11), one test or more each."""

from __future__ import annotations

import pytest

from cardhall.engine import IllegalActionError
from cardhall.engine.events import filter_events
from cardhall.games.palace_poker import RULES
from cardhall.games.palace_poker.battle import eligible
from cardhall.games.palace_poker.cards import CANONICAL

from .helpers import BUY, CALL, FOLD, RAISE, STAY, battle, discard, make, play, rejected_unchanged


def test_HC_1_opponent_banner_suit_excluded_per_battle_own_banner_counts() -> None:
    state = make(["5h", "9d", "Jc"], [["Ks", "Kd", "3c"], ["Qs", "Qc", "4h"], ["2s", "3s", "4s"]])
    assert eligible(state.hand, 0, 1) == ["Ks", "3c", "5h"]  # vs ♦: Kd out, own 5h in
    assert eligible(state.hand, 0, 2) == ["Ks", "Kd", "5h"]  # vs ♣: 3c out
    assert eligible(state.hand, 0, None) == ["Ks", "Kd", "3c", "5h"]
    play(state, (0, battle(1)), (1, CALL))
    # without the exclusion seat 0's kings would beat seat 1's queens
    last = state.hand.last_battle
    assert last is not None and last.to_json() == {"attacker": 0, "defender": 1, "called": True,
                                                   "winner": 1, "losers": [0], "captured_count": 1}
    assert state.hand.soldiers[1] == ["5h"]


def test_HC_2_call_cost_is_the_defenders_own_formula_and_raises_are_increments() -> None:
    state = make(["2h", "2s", "2d"], [["Ac", "Kc", "9h"], ["3c", "5d", "7s"], ["4c", "6c", "8d"]],
                 stock_top=["Jh", "Qh", "Th"])
    for _ in range(3):
        play(state, (0, STAY), (1, BUY), (1, discard()))
        if state.hand.soldiers[1] and len(state.hand.soldiers[1]) < 3:
            play(state, (2, STAY))
    assert len(state.hand.soldiers[1]) == 3 and state.to_act() == (2,)
    play(state, (2, battle(1)))
    assert state.hand.committed[2] == 1 + 2, "attacker pays f(A) = (0 + 1) x 2"
    assert state.view(1)["battle"]["owed"] == {"2": 0, "1": 8}, "defender owes f(D) = (3+1) x 2"
    play(state, (1, RAISE))
    assert state.view(2)["battle"]["owed"] == {"2": 4, "1": 0}, "attacker owes only the raise"
    play(state, (2, RAISE), (1, CALL))
    assert state.hand.committed[1] == 1 + 3 * 2 + 8 + 4 + 4
    assert state.hand.committed[2] == 1 + 2 + 4 + 4


def test_HC_3_captured_banner_becomes_soldier_and_cap_applies_after_buy_and_capture() -> None:
    stock = ["2c", "3c", "4c", "5c", "6c", "7c"]
    state = make(["Ah", "Ks"], [["As", "Ac", "Ad"], ["2d", "3d", "5h"]], stock_top=stock)
    for _ in range(5):
        play(state, (0, BUY), (0, discard()), (1, STAY))
    play(state, (0, BUY))
    assert len(state.hand.soldiers[0]) == 6
    [entry] = state.legal_actions(0)
    assert entry["min_cards"] == 1, "buy at five: must end the turn with at most five"
    play(state, (0, discard("2c")), (1, battle(0)), (0, CALL))
    assert state.outcome is not None and state.outcome.reason == "last_player"
    assert state.hand.banners[0] == "Ah" and "Ks" in state.hand.soldiers[0]


def test_HC_4_banner_suits_distinct_only_within_groups() -> None:
    six = ["2c", "2d", "2h", "2s", "3c", "3d"]  # p5 repeats p1's club: a new group
    palaces = [[f"{r}{s}" for r in "456"] for s in "cdhs"]
    palaces += [["7c", "7d", "7h"], ["8c", "8d", "8h"]]
    state = make(six, palaces)
    assert state.hand.banners[4] == "3c"
    fresh = RULES.new_state(RULES.config({}), 6, 5, [10] * 6)
    msg = rejected_unchanged(fresh, None, {"type": "deal_banners",
                                           "banners": ["2c", "2d", "2h", "2s", "3c", "4c"],
                                           "rejected": []}, IllegalActionError)
    assert "4c" in msg
    msg = rejected_unchanged(fresh, None, {"type": "deal_banners",
                                           "banners": ["2c", "2c", "2h", "2s", "3c", "4d"],
                                           "rejected": []}, IllegalActionError)
    assert "2c" in msg
    msg = rejected_unchanged(fresh, None, {"type": "deal_banners",
                                           "banners": ["2c", "2d", "2h", "2s", "3c", "4d"],
                                           "rejected": ["As"]}, IllegalActionError)
    assert "As" in msg, "no player of either group could have rejected a spade"
    fresh.apply(None, {"type": "deal_banners", "banners": ["2c", "2d", "2h", "2s", "3c", "4d"],
                       "rejected": ["Ac", "Kc", "Ad", "Ah", "5c"]})
    assert fresh.hand.rejected == ["Ac", "Kc", "Ad", "Ah", "5c"]
    ten = RULES.new_state(RULES.config({}), 10, 9, [10] * 10)
    ten.apply(None, {"type": "deal_banners", "banners": ["2c", "2d", "2h", "2s", "3c", "3d",
                                                        "3h", "3s", "4s", "4h"], "rejected": []})
    assert ten.hand.phase == "palace_deal"


def test_HC_5_quiet_orbit_counts_folds_and_players_leaving() -> None:
    state = make(["Ah", "Kd", "Qs"], [["2c", "3c", "4c"], ["5c", "6c", "7c"], ["8c", "9c", "Tc"]])
    play(state, (0, STAY), (1, FOLD))
    assert state.outcome is None
    play(state, (2, STAY))
    assert state.outcome is not None and state.outcome.reason == "showdown"
    four = make(["Ah", "Kd", "Qs", "Jc"], [["2c", "3c", "4c"], ["5c", "6c", "7c"],
                                           ["8c", "9c", "Tc"], ["2d", "3d", "4d"]])
    play(four, (0, BUY), (0, discard()), (1, STAY), (2, FOLD), (3, STAY))
    assert four.outcome is None, "the buyer has not had a quiet turn yet"
    play(four, (0, STAY))
    assert four.outcome is not None and four.outcome.reason == "showdown"


def test_HC_6_same_banner_survivors_end_at_once_with_odd_chip_from_dealers_left() -> None:
    state = make(["2c", "2d", "2h", "2s", "3c"],
                 [["4c", "5c", "6c"], ["4d", "5d", "6d"], ["4h", "5h", "6h"],
                  ["4s", "5s", "6s"], ["7c", "8c", "9c"]])
    play(state, (0, STAY), (1, FOLD), (2, FOLD))
    assert state.outcome is None
    play(state, (3, FOLD))
    outcome = state.outcome
    assert outcome is not None and outcome.reason == "same_banner_split"
    assert outcome.returns == (2, -1, -1, -1, 1), "pot 5: seat 0 (dealer's left) gets the odd chip"


TIE_PALACES = [["Ac", "Kd", "9c"], ["Ad", "Kc", "9d"], ["5s", "6s", "8s"]]


def test_HC_7_exact_tie_both_out() -> None:
    state = make(["2h", "2s", "3d"], TIE_PALACES)
    play(state, (0, battle(1)), (1, CALL))
    outcome = state.outcome
    assert outcome is not None and outcome.reason == "last_player"
    assert outcome.returns == (-3, -3, 6)


def test_HC_7_exact_tie_of_the_last_two_splits_the_pot() -> None:
    state = make(["2h", "2s"], TIE_PALACES[:2], stacks=[20, 21])
    play(state, (0, battle(1)), (1, CALL))
    outcome = state.outcome
    assert outcome is not None and outcome.reason == "battle_split"
    assert outcome.returns == (0, 0)


def test_HC_7_tie_broken_by_own_banner_suit_count() -> None:
    state = make(["2h", "2s", "3d"], [["Ac", "Kh", "9c"], ["Ad", "Kc", "9d"], ["5s", "6s", "8s"]])
    play(state, (0, battle(1)), (1, CALL))
    assert state.hand.last_battle is not None and state.hand.last_battle.winner == 0


def test_HC_8_all_in_call_without_side_pots_wins_everything() -> None:
    state = make(["2h", "As"], [["3c", "4d", "7c"], ["Ac", "Ad", "Kc"]], stacks=[50, 2])
    play(state, (0, battle(1)))
    assert state.legal_actions(1) == [{"type": "fold"}, {"type": "call"}]
    events = play(state, (1, CALL))
    assert any(e.kind == "call" and e.data["all_in"] for e in events)
    outcome = state.outcome
    assert outcome is not None and outcome.returns == (-3, 3)


def test_HC_8_player_with_no_chips_may_stay_and_win() -> None:
    state = make(["2h", "As", "3d"], [["3c", "4d", "7c"], ["Ac", "Ad", "Kc"], ["5c", "6d", "8c"]],
                 stacks=[50, 1, 50])
    assert state.hand.chips[1] == 0
    play(state, (0, STAY))
    assert {e["type"] for e in state.legal_actions(1)} == {"stay", "fold"}
    play(state, (1, STAY), (2, FOLD))  # seats 0 and 1 both had quiet turns: showdown
    outcome = state.outcome
    assert outcome is not None and outcome.detail is not None and outcome.detail["winners"] == [1]


def test_HC_9_palaces_seen_in_battle_do_not_leak() -> None:
    state = make(["5h", "9d", "Jc"], [["Ks", "Kd", "3c"], ["Qs", "Qc", "4h"], ["2s", "3s", "4s"]])
    events = play(state, (0, battle(1)), (1, CALL))
    p0, p1 = set(state.hand.palaces[0]), set(state.hand.palaces[1])
    assert p0 <= state.hidden_from(2) and p1 <= state.hidden_from(2)
    assert p0 <= state.hidden_from(None) and p1 <= state.hidden_from(None)
    assert not p1 & state.hidden_from(0) and not p0 & state.hidden_from(1)
    for seat in (2, None):
        assert not [e for e in filter_events(events, seat) if e["kind"] == "battle_reveal"]
        assert state.view(seat)["revealed_palaces"] == {}
    assert state.view(1)["revealed_palaces"] == {"0": ["Ks", "Kd", "3c"]}
    assert [e["kind"] for e in filter_events(events, 0)].count("battle_reveal") == 1
    assert state.view(2)["seats"][1]["soldiers"] == ["5h"], "captured soldiers are public"


def test_HC_10_empty_stock_reshuffles_the_discard_pile() -> None:
    state = make(["Ah", "Ks"], [["As", "Ac", "Ad"], ["2d", "3d", "5h"]], stacks=[200, 200])
    seat = 0
    while state.hand.stock:
        card = state.hand.stock[0]
        play(state, (seat, BUY), (seat, discard(card)))
        seat = 1 - seat
    pile = sorted(state.hand.discards)
    play(state, (seat, BUY))
    assert state.chance_due() and state.to_act() == ()
    handed: list[list[str]] = []

    def shuffle(cards: list[str]) -> list[str]:
        handed.append(cards)
        return list(reversed(cards))

    action = state.chance_action(shuffle)
    assert handed[0] == [c for c in CANONICAL if c in pile], "discard pile in canonical order"
    state.apply(None, action)
    assert state.hand.soldiers[seat] == [action["stock"][0]] and state.to_act() == (seat,)
    assert len(state.hand.stock) == len(pile) - 1 and state.hand.discards == []


def test_HC_10_buy_illegal_only_when_stock_and_discards_are_empty() -> None:
    state = make(["Ah", "Ks"], [["As", "Ac", "Ad"], ["2d", "3d", "5h"]])
    state.hand.stock, state.hand.discards = [], ["2c"]  # constructed position: only the pile is left
    assert {"type": "buy"} in state.legal_actions(0)
    state.hand.discards = []
    assert {"type": "buy"} not in state.legal_actions(0)
    msg = rejected_unchanged(state, 0, BUY, IllegalActionError)
    assert "empty" in msg


@pytest.mark.parametrize(
    ("cards_a", "cards_b", "winner"),
    [
        (["Ac", "2d", "3c", "4d", "5c"], ["Kc", "Kd", "9c", "8d", "7c"], 0),  # wheel > pair
        (["Ac", "Ad", "Kc", "Kd"], ["Qc", "Qd", "Jc", "Td", "2c"], 0),  # 4-card two pair
        (["Ac", "Ad", "Kc"], ["Ac", "Ad", "Kc", "2d"], 1),  # the longer hand wins
    ],
)
def test_HC_11_short_hands_and_wheels(cards_a: list[str], cards_b: list[str],
                                      winner: int) -> None:
    from cardhall.games.palace_poker.cards import ids
    from cardhall.games.palace_poker.evaluation import strengths

    a, b = strengths([ids(cards_a), ids(cards_b)])
    assert (a > b) if winner == 0 else (b > a)


def test_HC_11_flush_needs_five_cards_after_the_exclusion() -> None:
    # seat 0 holds five hearts + a club; vs a ♣ banner it has a flush, vs ♥ nothing counts
    state = make(["2h", "Kc", "Ks"], [["5h", "8h", "Jh"], ["Ac", "Ad", "7s"], ["9d", "9s", "3c"]],
                 stock_top=["Qh"])
    play(state, (0, BUY), (0, discard()))
    assert len([c for c in eligible(state.hand, 0, 1) if c[1] == "h"]) == 5
    play(state, (1, battle(0)), (0, CALL))
    assert state.hand.last_battle is not None and state.hand.last_battle.winner == 0


def test_rule_5_reject_pile_reshuffled_when_the_deck_runs_out() -> None:
    ranks = "3456789TJQKA"
    top = ["2c", *[r + "c" for r in ranks], "2d", *[r + "d" for r in ranks],
           "2h", *[r + "h" for r in ranks], "2s", "3s", *[r + "s" for r in ranks[1:]]]
    assert len(top) == 52
    state = RULES.new_state(RULES.config({}), 6, 5, [10] * 6)
    handed: list[list[str]] = []

    def shuffle(cards: list[str]) -> list[str]:
        handed.append(list(cards))
        return top if len(handed) == 1 else list(cards)

    action = state.chance_action(shuffle)
    assert len(handed) == 2 and len(handed[1]) == 47, "the 47 rejects form the new deck"
    assert action["banners"] == ["2c", "2d", "2h", "2s", "3s", "3c"]
    assert action["rejected"].count("3c") == 1 and len(action["rejected"]) == 47
    state.apply(None, action)
    deal = state.chance_action(lambda cards: list(cards))
    assert len(deal["stock"]) == 52 - 6 - 18
