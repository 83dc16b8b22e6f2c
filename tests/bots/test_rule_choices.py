"""Hand-written positions pinning what the rule bots do (docs/bots-builtin.md)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardhall.bots import get_policy
from cardhall.engine import game_names

RNG = random.Random(0)


def _sb_view(hand: list[str], **kw: Any) -> dict[str, Any]:
    seats = [
        {"seat": s, "in_hand": True, "chips": 90, "ante": 1, "stake": 0, "folded": False,
         "exchanged": 2, "shown": None}
        for s in range(2)
    ]
    view = {"game": "soldiers_bluff", "phase": "betting", "viewer": 0, "dealer": 1, "hand": hand,
            "seats": seats, "pot": 2, "round": 1, "highest": 0, "cap": 90, "to_act": 0,
            "stock_size": 24, "min_bet": 1, "min_raise": 1, "outcome": None}
    view.update(kw)
    return view


GOOD = ["king_of_wolves", "red_captain", "blind_smith", "howling_wolf", "palace",
        "crossed_swords"]
WEAK = ["drowned_man", "dark_sea", "quill", "candle", "book", "scroll"]
BLUFF = ["lord_of_blades", "red_captain", "black_sergeant", "gold_guard", "green_archer",
         "white_swordsman"]


def test_sb_rule_6_exchange_drops_the_lowest_cards() -> None:
    hand = ["king_of_wolves", "drowned_man", "candle", "red_captain", "palace", "howling_wolf"]
    view = _sb_view(hand, phase="exchange", round=0)
    legal = [{"type": "exchange", "cards_from": hand, "min_cards": 0, "max_cards": 2}]
    action = get_policy("soldiers_bluff", "rule").choose(view, legal, RNG)
    assert action == {"type": "exchange", "cards": ["drowned_man", "candle"]}


def test_sb_rule_9_1_exchange_keeps_four_bluff_pieces() -> None:
    hand = ["lord_of_blades", "red_captain", "black_sergeant", "gold_guard", "king_of_wolves",
            "queen_of_roses"]
    view = _sb_view(hand, phase="exchange", round=0)
    legal = [{"type": "exchange", "cards_from": hand, "min_cards": 0, "max_cards": 2}]
    action = get_policy("soldiers_bluff", "rule").choose(view, legal, RNG)
    assert sorted(action["cards"]) == ["king_of_wolves", "queen_of_roses"]


def test_sb_rule_7_good_hand_bets_modestly_weak_hand_folds_to_a_big_bet() -> None:
    rule = get_policy("soldiers_bluff", "rule")
    legal = [{"type": "pass"}, {"type": "bet", "min_to": 1, "max_to": 90}, {"type": "fold"}]
    bet = rule.choose(_sb_view(GOOD), legal, RNG)
    assert bet["type"] == "bet" and 1 < bet["to"] < 90
    seats = _sb_view(WEAK)["seats"]
    seats[1]["stake"] = 40
    facing = [{"type": "call"}, {"type": "raise", "min_to": 41, "max_to": 90}, {"type": "fold"}]
    view = _sb_view(WEAK, seats=seats, round=2, highest=40, pot=42)
    assert rule.choose(view, facing, RNG) == {"type": "fold"}


def test_sb_rule_9_1_soldiers_bluff_raises_to_the_cap() -> None:
    view = _sb_view(BLUFF, round=2, highest=5, pot=12)
    legal = [{"type": "call"}, {"type": "raise", "min_to": 6, "max_to": 90}, {"type": "fold"}]
    assert get_policy("soldiers_bluff", "rule").choose(view, legal, RNG) == {"type": "raise", "to": 90}


def _blot_view(hand: list[str], trick: list[dict[str, Any]], **kw: Any) -> dict[str, Any]:
    view = {"game": "bazaar_blot", "seat": 2, "phase": "play", "dealer": 0, "deal_number": 1,
            "target_score": 101, "match_score": [0, 0], "teams": [[0, 2], [1, 3]], "turn": 2,
            "to_act": [2], "hand": hand, "hand_sizes": [8, 8, 8, 8],
            "auction": {"calls": [], "standing": None, "contra_window": False, "multiplier": 1},
            "contract": {"declarer": 1, "team": 1, "trump": "h", "level": 8, "kapot": False,
                         "multiplier": 1},
            "trick": {"number": 2, "leader": 1, "cards": trick}, "last_trick": None,
            "tricks_won": [0, 1], "card_points": [0, 10], "declarations": [],
            "declarations_winner_team": None, "deals": []}
    view.update(kw)
    return view


def _plays(cards: list[str]) -> list[dict[str, Any]]:
    return [{"type": "play", "card": c} for c in cards]


@pytest.fixture
def blot() -> Any:
    if "bazaar_blot" not in game_names():
        pytest.skip("bazaar_blot is not in this build")
    return get_policy("bazaar_blot", "rule")


def test_bb_rule_5_wins_with_the_cheapest_winning_card(blot: Any) -> None:
    view = _blot_view(["Ks", "Ts", "As", "7c"], [{"seat": 1, "card": "Qs"}])
    assert blot.choose(view, _plays(["Ks", "Ts", "As"]), RNG) == {"type": "play", "card": "Ks"}


def test_bb_rule_5_throws_the_weakest_card_when_it_cannot_win(blot: Any) -> None:
    view = _blot_view(["7c", "Ac", "8d"], [{"seat": 1, "card": "As"}])
    assert blot.choose(view, _plays(["7c", "Ac", "8d"]), RNG) == {"type": "play", "card": "7c"}


def test_bb_rule_5_last_to_play_gives_points_to_a_winning_partner(blot: Any) -> None:
    trick = [{"seat": 3, "card": "7s"}, {"seat": 0, "card": "As"}, {"seat": 1, "card": "8s"}]
    view = _blot_view(["7c", "Tc", "8d"], trick)
    assert blot.choose(view, _plays(["7c", "Tc", "8d"]), RNG) == {"type": "play", "card": "Tc"}


def test_bb_rule_6_declares_the_best_combination_in_trick_1(blot: Any) -> None:
    hand = ["7c", "8c", "9c", "Jd", "Js", "Jc", "Jh", "Ad"]
    view = _blot_view(hand, [])
    view["trick"] = {"number": 1, "leader": 2, "cards": []}
    legal = [{"type": "play", "card": "Ad"},
             {"type": "play", "card": "Ad", "declare_from": ["7c", "8c", "9c"],
              "min_declare": 3, "max_declare": 3},
             {"type": "play", "card": "Ad", "declare_from": ["Jc", "Jd", "Jh", "Js"],
              "min_declare": 4, "max_declare": 4}]
    action = blot.choose(view, legal, RNG)
    assert action["card"] == "Ad" and sorted(action["declare"]) == ["Jc", "Jd", "Jh", "Js"]


def test_bb_42_declares_by_the_tables_carre_values(blot: Any) -> None:
    # A run of five (100) against four aces: with the source values (A = 100) the run wins the
    # rule-6 comparison on length; with carre_values="blot_star" (A = 110) the aces win.
    from cardhall.bots.bazaar_blot import RulePolicy
    from cardhall.games.bazaar_blot import RULES

    hand = ["Tc", "Jc", "Qc", "Kc", "Ac", "Ad", "Ah", "As"]
    view = _blot_view(hand, [])
    view["trick"] = {"number": 1, "leader": 2, "cards": []}
    run, aces = ["Tc", "Jc", "Qc", "Kc", "Ac"], ["Ac", "Ad", "Ah", "As"]
    legal = [{"type": "play", "card": "Ad"}] + [
        {"type": "play", "card": "Ad", "declare_from": cs, "min_declare": len(cs),
         "max_declare": len(cs)} for cs in (run, aces)]
    assert sorted(blot.choose(view, legal, RNG)["declare"]) == sorted(run)
    star = RulePolicy(RULES.config({"carre_values": "blot_star"}))
    assert sorted(star.choose(view, legal, RNG)["declare"]) == sorted(aces)


def test_bb_42_auction_values_combinations_by_carre_values() -> None:
    from cardhall.bots.bazaar_blot import hand_combo
    from cardhall.games.bazaar_blot import RULES

    nines = ["9c", "9d", "9h", "9s", "7c", "Jd", "Kh", "As"]
    assert hand_combo(nines, RULES.config({})) == 150
    assert hand_combo(nines, RULES.config({"carre_values": "blot_star"})) == 140


def test_bb_rule_4_bids_a_strong_suit_and_passes_a_weak_hand(blot: Any) -> None:
    legal = [{"type": "bid", "trump": s, "min_level": 8, "max_level": 16} for s in "cdhs"]
    legal += [{"type": "kapot", "trump": s} for s in "cdhs"] + [{"type": "pass"}]
    strong = ["Jh", "9h", "Ah", "Th", "As", "Ac", "Ks", "8d"]
    weak = ["7h", "8h", "Qs", "7c", "8c", "9d", "Kd", "Qd"]
    auction = {"calls": [], "standing": None, "contra_window": False, "multiplier": 1}
    bid = blot.choose(_blot_view(strong, [], phase="auction", auction=auction), legal, RNG)
    assert bid["type"] == "bid" and bid["trump"] == "h" and bid["level"] == 8
    passed = blot.choose(_blot_view(weak, [], phase="auction", auction=auction), legal, RNG)
    assert passed == {"type": "pass"}


def _pp_view(palace: list[str], banner: str, soldiers: list[str], other_banner: str,
             other_soldiers: list[str], **kw: Any) -> dict[str, Any]:
    seats = [
        {"seat": 0, "chips": 90, "in_hand": True, "dealt_in": True, "committed": 1,
         "banner": banner, "soldiers": soldiers, "soldier_count": len(soldiers),
         "attack_cost": 2 * (len(soldiers) + 1)},
        {"seat": 1, "chips": 90, "in_hand": True, "dealt_in": True, "committed": 1,
         "banner": other_banner, "soldiers": other_soldiers,
         "soldier_count": len(other_soldiers), "attack_cost": 2 * (len(other_soldiers) + 1)},
    ]
    view = {"game": "palace_poker", "phase": "turn", "seat": 0, "dealer": 1, "order": [0, 1],
            "pot": 2, "seats": seats, "stock_size": 40, "discard_size": 0, "rejected": [],
            "to_act": 0, "decision": "turn", "battle": None, "last_battle": None,
            "palace": palace, "revealed_palaces": {}, "outcome": None}
    view.update(kw)
    return view


@pytest.fixture
def palace() -> Any:
    if "palace_poker" not in game_names():
        pytest.skip("palace_poker is not in this build")
    return get_policy("palace_poker", "rule")


def test_pp_rule_7_attacks_when_far_ahead(palace: Any) -> None:
    view = _pp_view(["Ah", "Ad", "Kh"], "As", ["Kd"], "2c", [])
    legal = [{"type": "buy"}, {"type": "battle", "target": 1}, {"type": "stay"}, {"type": "fold"}]
    assert palace.choose(view, legal, random.Random(1)) == {"type": "battle", "target": 1}


def test_pp_rule_8_folds_a_weak_hand_to_a_raise(palace: Any) -> None:
    battle = {"attacker": 1, "defender": 0, "raises": 1, "facing": 0, "owed": {"1": 0, "0": 6}}
    view = _pp_view(["2c", "3d", "7h"], "4s", [], "Ah", ["Ad", "Ac", "Kd", "Kc"],
                    decision="battle_response", phase="battle", battle=battle, pot=20)
    legal = [{"type": "fold"}, {"type": "call"}, {"type": "raise"}]
    assert palace.choose(view, legal, random.Random(1)) == {"type": "fold"}


def test_pp_rule_9_discards_down_to_five_keeping_the_best(palace: Any) -> None:
    soldiers = ["Ac", "2d", "3h", "Kd", "Ks", "7c"]
    view = _pp_view(["Ah", "Ad", "Kc"], "As", soldiers, "2c", [], decision="discard")
    legal = [{"type": "discard", "cards_from": soldiers, "min_cards": 1, "max_cards": 6}]
    action = palace.choose(view, legal, random.Random(1))
    assert len(action["cards"]) == 1 and action["cards"][0] in {"2d", "3h", "7c"}


def _contra_position(hand: list[str]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Seat 2 passed in the first round; seat 1 (an opponent) now stands on 9 hearts, seat 3
    has not called since, so seat 2 may contra on its turn (rule 4, BB-14)."""
    calls = [{"seat": 1, "type": "pass"}, {"seat": 2, "type": "pass"},
             {"seat": 3, "type": "pass"}, {"seat": 0, "type": "bid", "trump": "c", "level": 8},
             {"seat": 1, "type": "bid", "trump": "h", "level": 9}]
    auction = {"calls": calls, "standing": {"seat": 1, "trump": "h", "level": 9, "kapot": False},
               "contra_window": True, "multiplier": 1}
    legal = [{"type": "bid", "trump": s, "min_level": 10, "max_level": 16} for s in "cdhs"]
    legal += [{"type": "contra"}, {"type": "pass"}]
    return _blot_view(hand, [], phase="auction", auction=auction, contract=None), legal


def test_bb_rule_4_no_contra_after_its_own_pass_with_a_short_jack_nine(blot: Any) -> None:
    # J + 9 of hearts (34 trump points) and one side ace: the old rule called contra here
    # right after passing; two hearts are no reason to double a heart contract.
    short = ["Jh", "9h", "As", "7c", "8c", "7d", "8d", "Qs"]
    view, legal = _contra_position(short)
    assert blot.choose(view, legal, RNG) == {"type": "pass"}
    # the same hand before any pass of its own still doubles (3 sure tricks: J, 9, A)
    view["auction"]["calls"] = [c for c in view["auction"]["calls"] if c["seat"] != 2]
    assert blot.choose(view, legal, RNG) == {"type": "contra"}


def test_bb_rule_4_contra_after_its_own_pass_with_strong_defence(blot: Any) -> None:
    strong = ["Jh", "9h", "As", "Ac", "7c", "8d", "7d", "Qs"]  # J, 9, two aces: 4 sure tricks
    view, legal = _contra_position(strong)
    assert blot.choose(view, legal, RNG) == {"type": "contra"}


def test_bb_rule_4_no_contra_without_the_trump_jack(blot: Any) -> None:
    # 9 + A + 10 of hearts are 35 trump points, but the opponents' J takes one of them
    view, legal = _contra_position(["9h", "Ah", "Th", "As", "Ac", "7d", "8d", "Qs"])
    view["auction"]["calls"] = [c for c in view["auction"]["calls"] if c["seat"] != 2]
    assert blot.choose(view, legal, RNG) == {"type": "pass"}
