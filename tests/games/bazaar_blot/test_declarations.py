"""Trick-1 declarations (rule 6; spec BC-*, hard case 1, BB-25..BB-27). Trump ♠ in BC-*."""

from __future__ import annotations

import pytest

from cardhall.engine import IllegalActionError, is_legal
from cardhall.games.bazaar_blot.cards import codes
from cardhall.games.bazaar_blot.config import BlotConfig
from cardhall.games.bazaar_blot.declarations import award, combinations, describe

from .helpers import cards, contract

S = 3  # spades
CFG = BlotConfig()


def test_BC_1_equal_value_and_length_top_card_decides() -> None:
    team, points = award([(1, tuple(cards("Qc Kc Ac"))), (2, tuple(cards("9s Ts Js")))], S, CFG)
    assert team == 1 and points == [0, 20]


def test_BC_2_same_top_trump_sequence_wins() -> None:
    team, points = award([(1, tuple(cards("9c Tc Jc"))), (2, tuple(cards("9s Ts Js")))], S, CFG)
    assert team == 0 and points == [20, 0]


def test_BC_5_carre_of_nines_beats_six_card_run_by_value() -> None:
    nines = tuple(cards("9c 9d 9h 9s"))
    run = tuple(cards("8d 9d Td Jd Qd Kd"))
    assert describe(nines, S, CFG).value == 150 and describe(run, S, CFG).value == 100
    assert award([(1, run), (2, nines)], S, CFG) == (0, [150, 0])


def test_BC_7_sequences_in_natural_order_only() -> None:
    assert combinations(cards("Ad Td Kd 7c 9h Js Qh 8s")) == []
    assert [codes(c) for c in combinations(cards("Td Jd Qd 7c 9h Js Kh 8s"))] == [
        ["Td", "Jd", "Qd"]]
    six = combinations(cards("7d 8d 9d Td Jd Qd Ac Ah"))
    assert [codes(c) for c in six] == [["7d", "8d", "9d", "Td", "Jd", "Qd"]]
    assert describe(six[0], S, CFG).value == 100


def test_hard_case_1_natural_order_not_trick_order() -> None:
    assert combinations(cards("Ah Th Kh Qs Js 7c 8d 9s")) == []
    assert [codes(c) for c in combinations(cards("Th Jh Qh Kh Ah 7c 8d 9s"))] == [
        ["Th", "Jh", "Qh", "Kh", "Ah"]]


def test_BB_26_run_of_five_beats_hundred_carre_on_length_unless_configured() -> None:
    run = tuple(cards("7d 8d 9d Td Jd"))
    kings = tuple(cards("Kc Kd Kh Ks"))
    assert award([(1, kings), (2, run)], S, CFG)[0] == 0
    flag = BlotConfig(carre_beats_equal_value_sequence=True)
    assert award([(1, kings), (2, run)], S, flag)[0] == 1


def test_BB_25_carre_top_card_order() -> None:
    tens, kings = tuple(cards("Tc Td Th Ts")), tuple(cards("Kc Kd Kh Ks"))
    assert award([(1, kings), (2, tens)], S, CFG)[0] == 0  # A > 10 > K > Q
    assert award([(1, kings), (2, tens)], S, BlotConfig(carre_rank_order="A>K>Q>10"))[0] == 1


def test_BB_27_complete_tie_elder_hand_or_none() -> None:
    a, b = tuple(cards("7c 8c 9c")), tuple(cards("7d 8d 9d"))
    assert award([(1, a), (2, b)], S, CFG) == (1, [0, 20])
    assert award([(2, b), (1, a)], S, CFG) == (0, [20, 0])
    assert award([(1, a), (2, b)], S, BlotConfig(combination_tie="none")) == (None, [0, 0])


def test_rule_6_winning_team_scores_all_its_declarations() -> None:
    decls = [(1, tuple(cards("7c 8c 9c"))), (2, tuple(cards("9d Td Jd Qd"))),
             (3, tuple(cards("Jc Jd Jh Js"))), (0, tuple(cards("7h 8h 9h")))]
    assert award(decls, S, CFG) == (1, [0, 220])


def test_rule_6_declaration_shown_as_kind_and_value_then_cards_at_trick_2() -> None:
    hands = {1: "7c 8c 9c Tc Ah Kh Qs Js", 2: "Jc Qc Kc Ac 7d 8d 9d 7h"}
    state = contract(hands, "8h")
    entries = state.legal_actions(1)
    declare = {"type": "play", "card": "Ah", "declare": ["Tc", "9c", "8c", "7c"]}
    assert is_legal(entries, declare)
    state.apply(1, declare)
    public = state.view(3)["declarations"]
    assert public == [{"seat": 1, "kind": "sequence", "length": 4, "value": 50}]
    assert "7c" in state.hidden_from(3)
    with pytest.raises(IllegalActionError, match="not a combination"):
        state.apply(2, {"type": "play", "card": "7h", "declare": ["Jc", "Qc"]})
    state.apply(2, {"type": "play", "card": "7h", "declare": ["Jc", "Qc", "Kc", "Ac"]})
    for _ in range(2):
        state.apply(state.match.deal.turn, state.timeout_action(state.match.deal.turn))
    shown = state.view(None)["declarations"]
    assert shown[0]["cards"] == ["7c", "8c", "9c", "Tc"]
    assert state.view(None)["declarations_winner_team"] == 0  # 50 = 50, length, top A > 10
    assert "7c" not in state.hidden_from(3) and "7c" not in state.hidden_from(None)
    assert not any(e.get("declare_from") for e in state.legal_actions(state.match.deal.turn))
