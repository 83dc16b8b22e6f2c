"""Rule 9 explained: the showdown event names the sums, strongest cards and the deciding clause."""

from __future__ import annotations

import pytest

from cardhall.games.soldiers_bluff.ranking import decided_by, hand_key

E1_A = ["king_of_wolves", "black_sergeant", "blind_smith", "howling_wolf", "palace", "candle"]
E1_B = ["queen_of_roses", "prince_of_serpents", "green_archer", "happy_weaver", "throne",
        "grey_ship"]
E2_A = ["king_of_wolves", "galloping_horse", "castle", "crown", "bloody_dagger", "book"]
E2_B = ["queen_of_roses", "lonely_miller", "sleeping_serpent", "scroll", "drawn_bow", "dark_sea"]
E4_A = ["lord_of_blades", "red_captain", "black_sergeant", "gold_guard", "green_archer",
        "white_swordsman"]
E4_B = ["king_of_wolves", "queen_of_roses", "prince_of_serpents", "lady_of_crows", "blind_smith",
        "smiling_mason"]


@pytest.mark.parametrize(("a", "b", "rule"), [
    (E1_A, E1_B, "sum"),                 # SB-E1: 36 vs 39
    (E2_A, E2_B, "strongest_card"),      # SB-E2: 30 vs 30, King of Wolves
    (E4_A, E4_B, "soldiers_bluff"),      # SB-E4: the bluff beats 53
])
def test_rule_9_clause_that_decided(a: list[str], b: list[str], rule: str) -> None:
    assert decided_by({0: hand_key(a), 1: hand_key(b)}) == rule
    assert decided_by({1: hand_key(b), 0: hand_key(a)}) == rule


def test_rule_9_needs_two_hands() -> None:
    with pytest.raises(ValueError, match="two hands"):
        decided_by({0: hand_key(E1_A)})
