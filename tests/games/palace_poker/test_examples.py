"""The worked examples of section 5 of ``palace-poker.md`` (PP-E1, E3, E7, E8, E10)."""

from __future__ import annotations

from cardhall.engine import IllegalActionError
from cardhall.games.palace_poker import RULES
from cardhall.games.palace_poker.cards import CANONICAL, lowest_first

from .helpers import BUY, CALL, FOLD, RAISE, STAY, battle, discard, make, play, rejected_unchanged


def test_PP_E1_banner_deal_three_players_rejects_and_stock_size() -> None:
    state = RULES.new_state(RULES.config({}), 3, 2, [50, 50, 50])
    top = ["7h", "9h", "Ks", "2s", "4h", "Ad"]
    handed: list[list[str]] = []

    def deck(cards: list[str]) -> list[str]:
        handed.append(list(cards))
        return [c for c in top if c in cards] + [c for c in cards if c not in top]

    action = state.chance_action(deck)
    assert handed[0] == list(CANONICAL)
    assert action == {"type": "deal_banners", "banners": ["7h", "Ks", "Ad"],
                      "rejected": ["9h", "2s", "4h"]}
    state.apply(None, action)
    deal = state.chance_action(deck)
    assert len(handed[1]) == 49, "palace deck = 52 - 3 banners"
    assert [len(p) for p in deal["palaces"]] == [3, 3, 3]
    assert len(deal["stock"]) == 40
    state.apply(None, deal)
    assert state.view(None)["rejected"] == ["9h", "2s", "4h"]
    assert state.to_act() == (0,)


def test_PP_E3_pot_arithmetic_limit_three_players() -> None:
    state = make(["2h", "2s", "2d"], [["Ac", "Kc", "9h"], ["3c", "5d", "7s"], ["4c", "6c", "8d"]],
                 stock_top=["Jh"])
    assert state.hand.pot == 3
    play(state, (0, BUY), (0, discard()))
    assert state.hand.pot == 5 and state.hand.soldiers[0] == ["Jh"]
    play(state, (1, STAY), (2, battle(0)))
    assert state.hand.pot == 7
    play(state, (0, RAISE))
    assert state.hand.pot == 15
    play(state, (2, CALL))
    assert state.hand.pot == 19
    assert state.hand.committed == [11, 1, 7]


def test_PP_E7_forced_discard_after_capture() -> None:
    stock = ["8c", "2d", "9c", "4d", "Tc", "6d", "Jc"]  # buys alternate seat 0, seat 1
    state = make(["Ah", "Ks", "3c"],
                 [["As", "Ac", "Ad"], ["2c", "3d", "5h"], ["7h", "8h", "9d"]], stock_top=stock)
    for _ in range(3):
        play(state, (0, BUY), (0, discard()), (1, BUY), (1, discard()), (2, STAY))
    play(state, (0, BUY), (0, discard()), (1, STAY), (2, STAY))
    assert len(state.hand.soldiers[0]) == 4 and len(state.hand.soldiers[1]) == 3
    play(state, (0, battle(1)), (1, CALL))
    assert state.hand.last_battle is not None and state.hand.last_battle.winner == 0
    assert len(state.hand.soldiers[0]) == 8 and "Ks" in state.hand.soldiers[0]
    [entry] = state.legal_actions(0)
    assert entry["min_cards"] == 3 and entry["max_cards"] == 8
    timeout = state.timeout_action(0)
    assert timeout == discard(*lowest_first(state.hand.soldiers[0])[:3])
    assert timeout == discard("2d", "4d", "6d")
    rejected_unchanged(state, 0, discard("2d", "4d"), IllegalActionError)
    play(state, (0, timeout))
    assert len(state.hand.soldiers[0]) == 5 and state.to_act() == (2,)


def test_PP_E8_quiet_orbit_three_way_normal_showdown() -> None:
    state = make(["Ah", "Qd", "2s", "4c"],
                 [["3h", "4h", "5h"], ["Qh", "5c", "3s"], ["Kc", "Kh", "7d"], ["6h", "8d", "Ts"]],
                 stock_top=["9s", "Jd", "2d"])
    play(state, (0, STAY), (1, STAY), (2, BUY), (2, discard()), (3, BUY), (3, discard()))
    play(state, (0, STAY), (1, BUY), (1, discard()), (2, STAY), (3, discard("Jd")), (0, FOLD))
    assert state.outcome is None
    play(state, (1, STAY))
    outcome = state.outcome
    assert outcome is not None and outcome.reason == "showdown"
    # seat 2's pair of kings counts Kc although seat 3's banner is a club: no exclusions
    assert outcome.detail is not None and outcome.detail["winners"] == [2]
    assert sorted(outcome.detail["shown"]) == ["1", "2", "3"]
    assert sum(outcome.returns) == 0


def test_PP_E10_illegal_attack_on_same_banner_suit() -> None:
    banners = ["2c", "2d", "2h", "2s", "3s", "3c"]
    state = make(banners, [[r + s for r in "456"] for s in "cdhs"] +
                 [["7c", "7d", "7h"], ["8c", "8d", "8h"]])
    targets = [e["target"] for e in state.legal_actions(0) if e["type"] == "battle"]
    assert targets == [1, 2, 3, 4]
    msg = rejected_unchanged(state, 0, battle(5), IllegalActionError)
    assert "seat 5" in msg and "'c'" in msg
    play(state, (0, STAY), (1, STAY), (2, STAY))
    targets = [e["target"] for e in state.legal_actions(3) if e["type"] == "battle"]
    assert targets == [0, 1, 2, 5]
    msg = rejected_unchanged(state, 3, battle(4), IllegalActionError)
    assert "seat 4" in msg and "'s'" in msg
