"""The auction and the contra response (rule 4, BB-5..BB-16), over a :class:`.model.DealState`.

Which calls a seat may make (legal-action entries), whether a call is legal, and applying it.
``check_*`` raise before anything changes; ``do_*`` assume a checked call, change the deal's
auction and return ``(events, transition)``: ``None`` while the auction goes on, else
:class:`ContraCalled`, :class:`Redeal` or :class:`AuctionClosed`, which :mod:`.state` chains.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...engine.errors import IllegalActionError, NotYourTurnError
from ...engine.events import Event, public
from .actions import Bid, BlotAction, Call, Contra, Kapot, Pass, Recontra
from .cards import SUITS
from .config import BlotConfig
from .model import Auction, Contract, DealState, Phase, StandingBid

ALL_SUITS = (0, 1, 2, 3)


@dataclass(frozen=True, slots=True)
class ContraCalled:
    """Transition: contra ended the bidding; the doubled pair answers (BB-16)."""


@dataclass(frozen=True, slots=True)
class Redeal:
    """Transition: four passes, no bid (rule 4 / BB-9); the deal is void and redealt."""


@dataclass(frozen=True, slots=True)
class AuctionClosed:
    """Transition: the auction closed with ``contract`` (three passes after a bid, or the
    contra response ended)."""

    contract: Contract


AuctionStep = ContraCalled | Redeal | AuctionClosed | None


def may_contra(auction: Auction, seat: int) -> bool:
    """Rule 4 / BB-14: ``seat`` is an opponent of the standing bidder and the window is open."""
    standing = auction.standing
    return auction.contra_window and standing is not None and (seat ^ standing.seat) & 1 == 1


def contra_seats(auction: Auction) -> list[int]:
    """Seats that may call contra now, in or out of turn (empty outside the window)."""
    standing = auction.standing
    if not auction.contra_window or standing is None:
        return []
    return [(standing.seat + 1) & 3, (standing.seat + 3) & 3]


def bid_options(auction: Auction, cfg: BlotConfig, seat: int) -> tuple[int, tuple[int, ...],
                                                                        tuple[int, ...]]:
    """What ``seat`` may bid on its turn: ``(lowest numeric level, suits for numeric bids,
    suits for kapot)``; the level exceeds ``max_bid`` when no numeric bid is possible.

    BB-6 (raise the level), BB-7 (same suit over a partner), BB-11 (cap), BB-12/BB-13 (kapot:
    any time, only the opposing team over a kapot, ``kapot_per_team_max`` per team).
    """
    kapot_ok = auction.kapots[seat & 1] < cfg.kapot_per_team_max
    standing = auction.standing
    if standing is None:
        return cfg.min_bid, ALL_SUITS, ALL_SUITS if kapot_ok else ()
    partner = (standing.seat ^ seat) & 1 == 0
    if standing.level is None:
        return cfg.max_bid + 1, (), ALL_SUITS if kapot_ok and not partner else ()
    suits = (standing.trump,) if partner and cfg.partner_raise_same_suit else ALL_SUITS
    return standing.level + 1, suits, suits if kapot_ok else ()


def auction_entries(deal: DealState, cfg: BlotConfig, seat: int) -> list[dict[str, Any]]:
    """Legal-action entries of ``seat`` in the auction: on its turn, numeric bids (a level
    range per suit), kapots, pass, and contra when allowed; out of turn, contra only."""
    auction = deal.auction
    if seat != deal.turn:
        return [{"type": "contra"}] if may_contra(auction, seat) else []
    lo, suits, kapots = bid_options(auction, cfg, seat)
    hi = cfg.max_bid
    out: list[dict[str, Any]] = []
    if lo <= hi:
        out += [{"type": "bid", "trump": SUITS[s], "min_level": lo, "max_level": hi}
                for s in suits]
    out += [{"type": "kapot", "trump": SUITS[s]} for s in kapots]
    out.append({"type": "pass"})
    if may_contra(auction, seat):
        out.append({"type": "contra"})
    return out


def check_contra(auction: Auction, seat: int) -> None:
    """Raise unless ``seat`` may call contra now (rule 4 / BB-14).

    Raises:
        IllegalActionError: no bid stands, ``seat`` is on the bidder's team, or the window
            closed (the bidder's partner called, or the bidding is over).
    """
    if not may_contra(auction, seat):
        standing = auction.standing
        who = "no bid stands" if standing is None else f"seat {standing.seat}'s bid"
        raise IllegalActionError(f"seat {seat} may not call contra now ({who}; only the bidder's "
                                 f"opponents may, until the bidder's partner calls)")


def check_call(deal: DealState, cfg: BlotConfig, seat: int, call: BlotAction) -> None:
    """Raise unless ``call`` is a legal auction call for ``seat`` (a seat in ``to_act``) now.

    Raises:
        NotYourTurnError: a call other than contra out of turn.
        IllegalActionError: see :func:`check_contra`; a bid below the lowest level, above
            ``max_bid`` or in a forbidden suit; a forbidden kapot; recontra or play in the
            auction.
    """
    auction = deal.auction
    if type(call) is Contra:
        check_contra(auction, seat)
        return
    if seat != deal.turn:
        raise NotYourTurnError(f"{call.type!r} by seat {seat} out of turn; "
                               f"it is seat {deal.turn}'s turn")
    if type(call) is Pass:
        return
    lo, suits, kapots = bid_options(auction, cfg, seat)
    if type(call) is Bid:
        if not lo <= call.level <= cfg.max_bid:
            raise IllegalActionError(f"bid level {call.level} is not allowed; allowed: {lo}.."
                                     f"{cfg.max_bid}")
        if call.trump not in suits:
            raise IllegalActionError(f"bid in trump {SUITS[call.trump]!r} is not allowed; "
                                     f"allowed: {[SUITS[x] for x in suits]}")
        return
    if type(call) is Kapot:
        if call.trump not in kapots:
            raise IllegalActionError(f"kapot in trump {SUITS[call.trump]!r} is not allowed; "
                                     f"allowed: {[SUITS[x] for x in kapots]}")
        return
    raise IllegalActionError(f"{call.type!r} is not a call of the auction")


def do_call(deal: DealState, cfg: BlotConfig, seat: int,
            call: Call) -> tuple[list[Event], AuctionStep]:
    """Apply a checked auction call. Returns its ``call`` event and the transition: contra ->
    :class:`ContraCalled`; a fourth pass with no bid -> :class:`Redeal`; a third pass after a
    bid -> :class:`AuctionClosed`; otherwise ``None`` (the next seat speaks)."""
    auction = deal.auction
    events = [public("call", seat=seat, call=call.to_json())]
    auction.calls.append((seat, call))
    standing = auction.standing
    if type(call) is Contra:
        assert standing is not None  # checked: a contra needs a standing bid
        auction.multiplier = 2
        auction.contra_window = False
        auction.responses = 0
        deal.turn = standing.seat
        return events, ContraCalled()
    if type(call) is Pass:
        auction.passes += 1
        if standing is None:
            if auction.passes == 4:
                return events, Redeal()
        else:
            if (seat ^ standing.seat) & 1 == 0:
                auction.contra_window = False
            if auction.passes == 3:
                return events, close(auction)
    elif type(call) is Bid or type(call) is Kapot:
        level = call.level if type(call) is Bid else None
        auction.standing = StandingBid(seat, call.trump, level)
        auction.passes = 0
        auction.contra_window = True
        if level is None:
            auction.kapots[seat & 1] += 1
    deal.turn = (seat + 1) & 3
    return events, None


def close(auction: Auction) -> AuctionClosed:
    """The auction's end: the standing bid becomes the contract (declarer = its bidder) with
    the current multiplier; the contra window closes."""
    standing = auction.standing
    assert standing is not None  # the auction closes only over a bid
    auction.contra_window = False
    return AuctionClosed(Contract(standing.seat, standing.trump, standing.level,
                                  auction.multiplier))


def response_entries(deal: DealState, seat: int) -> list[dict[str, Any]]:
    """Legal-action entries in the contra response (BB-16): recontra or pass, turn seat only."""
    return [{"type": "recontra"}, {"type": "pass"}] if seat == deal.turn else []


def check_response(call: BlotAction) -> None:
    """Raise unless ``call`` is recontra or pass (the responding seat is the turn seat).

    Raises:
        IllegalActionError: any other action.
    """
    if type(call) is not Recontra and type(call) is not Pass:
        raise IllegalActionError(f"{call.type!r} is not allowed after contra; "
                                 f"recontra or pass")


def do_response(deal: DealState, seat: int, call: Call) -> tuple[list[Event], AuctionStep]:
    """Apply recontra (x4, the auction closes) or pass (declarer then partner; after two
    passes the auction closes at x2)."""
    auction = deal.auction
    events = [public("call", seat=seat, call=call.to_json())]
    auction.calls.append((seat, call))
    if type(call) is Recontra:
        auction.multiplier = 4
        return events, close(auction)
    auction.responses += 1
    if auction.responses == 2:
        return events, close(auction)
    deal.turn = (deal.turn + 2) & 3
    return events, None


def check_out_of_turn(deal: DealState, phase: Phase, seat: int, action: BlotAction) -> None:
    """For ``seat``, which may not act now: raise if ``action`` is a contra or recontra the
    seat could not make whatever the turn, so the answer names the real reason (rule 4).

    Contra: against a standing bid, by the bidder's team or after the window closed, or once
    the bidding is over (contra response, play). Recontra: once the bidding is over, or in
    the contra response by the defenders or by a declaring seat that already answered.
    Anything else (and a contra while no bid stands) is left to ``NotYourTurnError``.

    Raises:
        IllegalActionError: as above (the message names the seat).
    """
    auction, standing = deal.auction, deal.auction.standing
    if type(action) is Contra:
        if phase is Phase.PLAY or phase is Phase.CONTRA_RESPONSE or (
                phase is Phase.AUCTION and standing is not None):
            check_contra(auction, seat)
    elif type(action) is Recontra:
        if phase is Phase.PLAY:
            raise IllegalActionError(f"seat {seat} may not call recontra now: the bidding is over")
        if phase is Phase.CONTRA_RESPONSE and standing is not None:
            if (seat ^ standing.seat) & 1:
                raise IllegalActionError(f"seat {seat} may not call recontra: only seat "
                                         f"{standing.seat}'s team answers the contra")
            if seat == standing.seat and auction.responses:
                raise IllegalActionError(f"seat {seat} already answered the contra; its "
                                         f"partner answers now")
