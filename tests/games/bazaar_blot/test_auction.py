"""The auction, contra window and contra response (rule 4; spec BA-*, hard cases 11-14).
Dealer S0, so S1 speaks first."""

from __future__ import annotations

import pytest

from cardhall.engine import IllegalActionError, NotYourTurnError, is_legal

from .helpers import call, dealt


def calls(state, *seq: tuple[int, str]) -> None:  # type: ignore[no-untyped-def]
    for seat, text in seq:
        call(state, seat, text)


def test_BA_1_contract_is_last_bid_and_contra_window_closes_at_partner_call() -> None:
    state = dealt({})
    calls(state, (1, "8h"), (2, "pass"))
    assert not is_legal(state.legal_actions(3), {"type": "bid", "level": 9, "trump": "c"})
    assert is_legal(state.legal_actions(3), {"type": "bid", "level": 9, "trump": "h"})
    calls(state, (3, "9h"), (0, "10s"), (1, "pass"))
    # S1 and S3 may still contra S0's 10♠ out of turn, before S2 (S0's partner) calls.
    assert state.to_act() == (2, 1, 3)
    assert {"type": "contra"} in state.legal_actions(3)
    calls(state, (2, "pass"))
    assert state.to_act() == (3,)
    assert {"type": "contra"} not in state.legal_actions(3)
    calls(state, (3, "pass"))
    assert state.match.phase == "play"
    assert state.view(None)["contract"] == {
        "declarer": 0, "team": 0, "trump": "s", "level": 10, "kapot": False, "multiplier": 1}


def test_BA_2_out_of_turn_contra_ends_bidding() -> None:
    state = dealt({})
    calls(state, (1, "8h"), (2, "pass"))
    assert state.to_act() == (3, 2, 0) and state.timer_seat() == 3
    assert state.legal_actions(0) == [{"type": "contra"}]
    assert state.timeout_action(0) is None
    calls(state, (0, "contra"))
    assert state.match.phase == "contra_response" and state.to_act() == (1,)
    calls(state, (1, "pass"), (3, "pass"))
    assert state.match.phase == "play" and state.match.deal.auction.multiplier == 2


def test_BA_2_recontra_by_partner_quadruples() -> None:
    state = dealt({})
    calls(state, (1, "8h"), (2, "pass"), (0, "contra"), (1, "pass"), (3, "recontra"))
    assert state.match.phase == "play" and state.match.deal.auction.multiplier == 4


def test_BA_4_four_passes_redeal_same_dealer() -> None:
    state = dealt({}, dealer=2)
    calls(state, (3, "pass"), (0, "pass"), (1, "pass"), (2, "pass"))
    assert state.chance_due() and state.match.dealer == 2 and state.match.deal_number == 1
    assert state.view(None)["hand_sizes"] == [0, 0, 0, 0]


def test_BA_4_redeal_rotates_dealer_when_configured() -> None:
    state = dealt({}, config={"redeal_rotates_dealer": True})
    calls(state, (1, "pass"), (2, "pass"), (3, "pass"), (0, "pass"))
    assert state.chance_due() and state.match.dealer == 1


def test_BA_7_after_16_only_pass_contra_or_kapot() -> None:
    state = dealt({})
    calls(state, (1, "16s"))
    types = {e["type"] for e in state.legal_actions(2)}
    assert types == {"kapot", "pass", "contra"}
    with pytest.raises(IllegalActionError, match="17"):
        state.apply(2, {"type": "bid", "level": 17, "trump": "s"})


def test_hard_case_11_only_opposing_team_may_over_kapot_once_each() -> None:
    state = dealt({})
    calls(state, (1, "kapot:d"))
    assert [e for e in state.legal_actions(3) if e["type"] == "kapot"] == []  # partner
    assert {e["type"] for e in state.legal_actions(2)} == {"kapot", "pass", "contra"}
    calls(state, (2, "kapot:c"))
    assert {e["type"] for e in state.legal_actions(3)} == {"pass", "contra"}  # team used it
    with pytest.raises(IllegalActionError, match="kapot"):
        state.apply(3, {"type": "kapot", "trump": "h"})
    calls(state, (3, "pass"))
    assert state.legal_actions(0) == [{"type": "pass"}]
    calls(state, (0, "pass"), (1, "pass"))
    assert state.view(None)["contract"]["kapot"] and state.match.deal.contract.declarer == 2


def test_hard_case_12_contra_only_by_opponents_until_partner_calls() -> None:
    state = dealt({})
    calls(state, (1, "9c"))
    assert state.to_act() == (2, 0)
    with pytest.raises(IllegalActionError, match="seat 3"):
        state.apply(3, {"type": "contra"})  # the bidder's partner, out of turn: never allowed
    calls(state, (2, "pass"))
    with pytest.raises(IllegalActionError, match="contra"):
        state.apply(3, {"type": "contra"})  # on its turn, still the bidder's team
    calls(state, (3, "pass"))
    assert state.to_act() == (0,)
    with pytest.raises(IllegalActionError, match="contra"):
        state.apply(0, {"type": "contra"})  # window closed by S3's pass
    calls(state, (0, "10c"), (1, "contra"))
    assert state.match.phase == "contra_response" and state.to_act() == (0,)
    calls(state, (0, "pass"), (2, "recontra"))
    assert state.match.deal.auction.multiplier == 4 and state.match.deal.contract.declarer == 0


def test_hard_case_12_contra_on_kapot_allowed() -> None:
    state = dealt({})
    calls(state, (1, "kapot:h"), (2, "contra"))
    assert state.match.phase == "contra_response" and state.match.deal.auction.multiplier == 2


def test_hard_case_13_passes_are_not_binding() -> None:
    state = dealt({})
    calls(state, (1, "pass"), (2, "pass"), (3, "8d"), (0, "pass"), (1, "9d"), (2, "pass"),
          (3, "pass"), (0, "10c"), (1, "pass"), (2, "pass"))
    assert state.match.phase == "auction"
    calls(state, (3, "pass"))
    assert state.match.phase == "play" and state.match.deal.contract.declarer == 0 and state.match.deal.contract.level == 10


def test_hard_case_14_over_partner_only_same_suit() -> None:
    state = dealt({})
    calls(state, (1, "8h"), (2, "pass"))
    bids = [e for e in state.legal_actions(3) if e["type"] in ("bid", "kapot")]
    assert {e["trump"] for e in bids} == {"h"}
    with pytest.raises(IllegalActionError, match="'c'"):
        state.apply(3, {"type": "bid", "level": 9, "trump": "c"})
    loose = dealt({}, config={"partner_raise_same_suit": False})
    calls(loose, (1, "8h"), (2, "pass"), (3, "9c"))
    assert loose.match.deal.auction.standing.seat == 3


def test_same_level_other_suit_is_not_a_raise() -> None:
    state = dealt({})
    calls(state, (1, "9h"))
    with pytest.raises(IllegalActionError, match="level 9"):
        state.apply(2, {"type": "bid", "level": 9, "trump": "s"})
    calls(state, (2, "11s"))  # jumps allowed
    assert state.match.deal.auction.standing.level == 11


def test_rule_4_out_of_turn_contra_or_recontra_the_seat_could_never_make_is_illegal() -> None:
    # Rule 4 / hard case 12: only the bidder's opponents may contra, only until the bidder's
    # partner calls; only the doubled pair answers, declarer first. A seat off turn that could
    # not make the call whatever the turn hears illegal_action (the real reason), not
    # not_your_turn; a call it could make on its own turn is still not_your_turn.
    state = dealt({})
    with pytest.raises(NotYourTurnError):
        state.apply(2, {"type": "contra"})  # no bid stands yet: S2 may contra a bid later
    calls(state, (1, "9c"))
    with pytest.raises(IllegalActionError, match="seat 3 may not call contra"):
        state.apply(3, {"type": "contra"})  # the bidder's partner
    with pytest.raises(NotYourTurnError):
        state.apply(3, {"type": "recontra"})  # not after a contra yet
    calls(state, (2, "pass"), (0, "contra"))
    assert state.match.phase == "contra_response" and state.to_act() == (1,)
    with pytest.raises(IllegalActionError, match="seat 0 may not call recontra"):
        state.apply(0, {"type": "recontra"})  # a defender
    with pytest.raises(IllegalActionError, match="contra"):
        state.apply(2, {"type": "contra"})  # the bidding is over
    with pytest.raises(NotYourTurnError):
        state.apply(3, {"type": "recontra"})  # the partner answers after the declarer
    calls(state, (1, "pass"))
    with pytest.raises(IllegalActionError, match="seat 1 already answered"):
        state.apply(1, {"type": "recontra"})
    calls(state, (3, "pass"))
    assert state.match.phase == "play" and state.match.deal.auction.multiplier == 2
    for seat, kind in ((0, "contra"), (3, "recontra")):
        with pytest.raises(IllegalActionError, match=f"seat {seat} may not call {kind}"):
            state.apply(seat, {"type": kind})
    closed = dealt({})
    calls(closed, (1, "9c"), (2, "pass"), (3, "pass"))
    with pytest.raises(IllegalActionError, match="seat 2 may not call contra"):
        closed.apply(2, {"type": "contra"})  # the window closed with S3's pass
