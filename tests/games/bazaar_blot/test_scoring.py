"""Deal scoring (rule 7; spec rounding examples, BS-*, hard cases 7-11 and 15).
Team 1 = seats {1, 3} declares unless stated."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from cardhall.games.bazaar_blot.config import BlotConfig
from cardhall.games.bazaar_blot.scoring import pair_round, score_deal, small

from .helpers import call, dealt

CFG = BlotConfig()


def scores(level: int | None, tricks: tuple[int, int], points: tuple[int, int],
           awarded: tuple[int, int] = (0, 0), mult: int = 1, cfg: BlotConfig = CFG,
           declarers: int = 1) -> tuple[int, int]:
    return score_deal(cfg, declarers, level, tricks, points, awarded, mult).scores


def test_rounding_examples() -> None:
    assert pair_round(81, 81) == (8, 8)
    assert pair_round(95, 67) == (9, 7)
    assert pair_round(100, 62) == (10, 6)
    assert pair_round(86, 76) == (8, 8)


def test_hard_case_7_pair_rounding_never_17() -> None:
    assert small(86) + small(76) == 17  # independent rounding would give 17
    assert pair_round(76, 86) == (8, 8)
    assert small(85) == 8


@given(st.integers(0, 162))
def test_pair_rounding_total_16_and_matches_rule(a: int) -> None:
    b = 162 - a
    sa, sb = pair_round(a, b)
    assert sa + sb == 16
    if a % 10 == 6 and b % 10 == 6:
        assert (sa, sb) == ((a + 4) // 10 - 1, (b + 4) // 10) if a > b else (
            (a + 4) // 10, (b + 4) // 10 - 1)
    else:
        assert (sa, sb) == ((a + 4) // 10, (b + 4) // 10)


def test_pair_rounding_all_163_splits() -> None:
    for a in range(163):
        sa, sb = pair_round(a, 162 - a)
        assert sa + sb == 16, a
        assert abs(10 * sa - a) <= 6 and abs(10 * sb - (162 - a)) <= 6, a


def test_BS_1_made_each_team_scores_own_points_with_multipliers() -> None:
    assert scores(9, (3, 5), (67, 95)) == (7, 9)
    assert scores(9, (3, 5), (67, 95), mult=2) == (14, 18)
    assert scores(9, (3, 5), (67, 95), mult=4) == (28, 36)


def test_BS_1_through_the_auction_with_contra_and_recontra() -> None:
    state = dealt({})
    for seat, text in ((1, "9s"), (2, "contra"), (1, "recontra")):
        call(state, seat, text)
    assert state.match.deal.auction.multiplier == 4 and state.view(1)["contract"]["multiplier"] == 4


def test_BS_2_failed_defenders_get_16() -> None:
    assert scores(10, (3, 5), (67, 95)) == (16, 0)
    assert scores(10, (3, 5), (67, 95), mult=2) == (32, 0)


def test_BS_6_kapot_made() -> None:
    assert scores(None, (0, 8), (0, 162)) == (0, 25)
    assert scores(None, (0, 8), (0, 162), mult=2) == (0, 50)


def test_BS_8_all_eight_tricks_in_numeric_contract() -> None:
    assert scores(9, (0, 8), (0, 162)) == (0, 25)


def test_hard_case_8_76_raw_makes_a_bid_of_8() -> None:
    assert scores(8, (3, 5), (86, 76)) == (8, 8)
    raw = BlotConfig(made_test="raw")
    assert scores(8, (3, 5), (86, 76), cfg=raw) == (16, 0)
    assert scores(9, (3, 5), (72, 90), cfg=raw) == (7, 9)


def test_hard_case_9_combinations_count_and_trickless_team_is_void() -> None:
    assert scores(10, (3, 5), (81, 81), awarded=(0, 20)) == (8, 10)
    assert scores(12, (3, 5), (81, 81), awarded=(0, 20)) == (18, 0)  # 16 + all awarded
    assert scores(9, (0, 8), (0, 162), awarded=(50, 0)) == (0, 25)  # trickless: void
    keep = BlotConfig(combinations_require_trick=False)
    assert scores(9, (0, 8), (0, 162), awarded=(50, 0), cfg=keep) == (5, 25)


def test_BB_35_failed_combinations_alternatives() -> None:
    args = (12, (3, 5), (81, 81))
    assert scores(*args, awarded=(20, 0)) == (18, 0)
    assert scores(*args, awarded=(0, 20), cfg=BlotConfig(failed_combinations_to="own")) == (16, 0)
    assert scores(*args, awarded=(20, 0), cfg=BlotConfig(failed_combinations_to="own")) == (18, 0)
    assert scores(*args, awarded=(20, 0), cfg=BlotConfig(failed_combinations_to="none")) == (16, 0)


def test_hard_case_10_all_tricks_by_count_not_points() -> None:
    assert scores(9, (1, 7), (0, 162)) == (0, 16)
    assert scores(9, (8, 0), (162, 0)) == (25, 0)  # defenders took all eight: failed, 25


def test_hard_case_11_kapot_needs_all_eight_tricks() -> None:
    assert scores(None, (1, 7), (10, 152)) == (25, 0)
    assert scores(None, (1, 7), (10, 152), awarded=(0, 50)) == (30, 0)
    assert scores(None, (0, 8), (0, 162), awarded=(0, 50)) == (0, 30)


def test_hard_case_15_multiplier_applies_to_both_teams_with_combinations() -> None:
    assert scores(9, (3, 5), (67, 95), awarded=(0, 50), mult=2) == (14, 28)
    assert scores(9, (3, 5), (67, 95), awarded=(0, 50), mult=4) == (28, 56)
