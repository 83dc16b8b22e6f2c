"""The match flow: deal (chance), views and events, timeouts, scoring a deal through the engine,
dealer rotation and the match end (rules 1-3, 7-9; spec sections 3-4)."""

from __future__ import annotations

import doctest
import importlib

import pytest

from cardhall.engine import filter_events, get_game
from cardhall.games.bazaar_blot.cards import CODES
from cardhall.games.bazaar_blot.scoring import match_winner

from .helpers import call, dealt, fill_hands, new_match

ALL_HEARTS = {1: "7h 8h 9h Th Jh Qh Kh Ah"}


def kapot_deal(config: dict | None = None):  # type: ignore[no-untyped-def,type-arg]
    """Seat 1 holds all hearts, bids kapot ♥ and leads a trump each trick; others time out."""
    state = dealt(ALL_HEARTS, config)
    call(state, 1, "kapot:h")
    for seat in (2, 3, 0):
        call(state, seat, "pass")
    events = []
    for card in ("Jh", "9h", "Ah", "Th", "Kh", "Qh", "8h", "7h"):
        events += state.apply(1, {"type": "play", "card": card})
        for _ in range(3):
            seat = state.match.deal.turn
            events += state.apply(seat, state.timeout_action(seat))
    return state, events


def test_rule_1_registered_game_has_four_seats_no_stacks() -> None:
    rules = get_game("bazaar_blot")
    assert (rules.name, rules.min_seats, rules.max_seats, rules.uses_stacks) == (
        "bazaar_blot", 4, 4, False)


def test_rule_3_chance_deal_order_starts_left_of_dealer() -> None:
    state = new_match(dealer=2)
    seen: list[list[str]] = []

    def identity(cards: list[str]) -> list[str]:
        seen.append(list(cards))
        return list(cards)

    action = state.chance_action(identity)
    assert seen == [list(CODES)]  # canonical order c, d, h, s; 7 .. A
    assert action["hands"][3] == ["7c", "8c", "9c", "Tc", "Jc", "Qc", "Kc", "Ac"]
    assert action["hands"][0][0] == "7d" and action["hands"][2][0] == "7s"
    state.apply(None, action)
    assert state.match.deal.turn == 3 and state.match.phase == "auction"


def test_section_4_views_and_deal_events_hide_other_hands() -> None:
    state = new_match()
    events = state.apply(None, {"type": "deal", "hands": fill_hands({})})
    for seat in range(4):
        mine = [e for e in filter_events(events, seat) if "cards" in e]
        assert mine == [{"kind": "dealt", "seat": seat, "cards": state.view(seat)["hand"]}]
        view = state.view(seat)
        assert len(view["hand"]) == 8 and view["hand_sizes"] == [8, 8, 8, 8]
        assert set(view["hand"]).isdisjoint(state.hidden_from(seat))
        assert len(state.hidden_from(seat)) == 24
    assert filter_events(events, None) == [{"kind": "dealt", "dealer": 0, "deal_number": 1}]
    spectator = state.view(None)
    assert spectator["hand"] == [] and len(state.hidden_from(None)) == 32
    assert (spectator["phase"], spectator["turn"], spectator["target_score"]) == ("auction", 1, 101)


def test_rule_9_timeouts_pass_in_auction_and_contra_response() -> None:
    state = dealt({})
    assert state.timeout_action(1) == {"type": "pass"}
    call(state, 1, "8c")
    call(state, 2, "contra")
    assert state.timeout_action(1) == {"type": "pass"}
    state.apply(1, state.timeout_action(1))
    assert state.timer_seat() == 3 and state.timeout_action(3) == {"type": "pass"}


def test_rule_7_kapot_deal_through_the_engine_scores_and_rotates_dealer() -> None:
    state, events = kapot_deal()
    assert state.chance_due() and state.match.dealer == 1 and state.match.deal_number == 1
    record = state.match.deals[-1]
    assert record["tricks"] == [0, 8] and record["card_points"] == [0, 162]
    assert record["made"] and record["scores"] == [0, 25] and state.match.match_score == [0, 25]
    view = state.view(2)
    assert view["match_score"] == [0, 25] and view["last_trick"]["winner"] == 1
    assert view["hand"] == [] and view["deals"] == [record]
    assert [e.kind for e in events][-1] == "deal_scored"
    state.apply(None, {"type": "deal", "hands": fill_hands({})})
    assert state.view(2)["last_trick"] is None and state.view(2)["deal_number"] == 2
    assert state.match.deal.turn == 2  # left of the new dealer


def test_rule_8_match_ends_at_target_with_team_totals() -> None:
    state, events = kapot_deal({"target_score": 20})
    assert state.is_over and state.to_act() == () and not state.chance_due()
    out = state.outcome
    assert out is not None and out.reason == "target_reached"
    assert out.returns == (0, 25, 0, 25)
    assert out.detail is not None and out.detail["deals"][0]["scores"] == [0, 25]
    assert events[-1].kind == "match_over"


def test_rule_8_equal_totals_over_target_play_another_deal() -> None:
    assert match_winner((101, 101), 101) is None
    assert match_winner((120, 110), 101) == 0
    assert match_winner((90, 101), 101) == 1
    assert match_winner((100, 50), 101) is None


def test_BB_1_dealer_rotation_right() -> None:
    state, _ = kapot_deal({"dealer_rotation": "right"})
    assert state.match.dealer == 3


@pytest.mark.parametrize("module", ["cards", "tricks", "scoring"])
def test_doctests(module: str) -> None:
    mod = importlib.import_module(f"cardhall.games.bazaar_blot.{module}")
    result = doctest.testmod(mod)
    assert result.failed == 0 and result.attempted > 0


@pytest.mark.parametrize("config", [
    {"undertrump_when_cannot_overtrump": "forced", "partner_winning": "must_ruff"},
    {"made_test": "raw", "failed_combinations_to": "own", "combination_tie": "none"},
    {"max_bid": 30, "kapot_per_team_max": 2, "partner_raise_same_suit": False},
    {"carre_values": "blot_star", "carre_rank_order": "A>K>Q>10",
     "carre_beats_equal_value_sequence": True, "combinations_require_trick": False},
    {"target_score": 301, "dealer_rotation": "right", "redeal_rotates_dealer": True},
])
def test_random_playouts_with_alternative_configs(config: dict) -> None:  # type: ignore[type-arg]
    from cardhall.selfplay import play_one

    for seed in range(3):
        rec, violations, _ = play_one("bazaar_blot", 4, seed, probe=0.05, config=config)
        assert violations == [], violations[:3]
        assert rec.state.is_over
