"""The auction and the contra response (rule 4, BB-5..BB-16).

Functions over a :class:`~.state.BlotState`: which calls a seat may make (as legal-action
entries), whether a parsed call is legal, and applying it. ``check_*`` raise before anything
changes; ``do_*`` assume the call was checked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...engine.errors import IllegalActionError, NotYourTurnError
from ...engine.events import Event, public
from .cards import SUITS

if TYPE_CHECKING:
    from .state import BlotState


def _entry(kind: str) -> dict[str, Any]:
    """A fresh concrete entry (callers may mutate what ``legal_actions`` returns)."""
    return {"type": kind}


def may_contra(st: BlotState, seat: int) -> bool:
    """Rule 4 / BB-14: ``seat`` is an opponent of the standing bidder and the window is open."""
    return st.window and (seat ^ st.bid_seat) & 1 == 1


def contra_seats(st: BlotState) -> list[int]:
    """Seats that may call contra now, in or out of turn (empty outside the window)."""
    if not st.window:
        return []
    return [(st.bid_seat + 1) & 3, (st.bid_seat + 3) & 3]


def bid_options(st: BlotState, seat: int) -> tuple[int, list[int], list[int]]:
    """What ``seat`` may bid on its turn: ``(lowest numeric level, suits for numeric bids,
    suits for kapot)``; the level exceeds ``max_bid`` when no numeric bid is possible.

    BB-6 (raise the level), BB-7 (same suit over a partner), BB-11 (cap), BB-12/BB-13 (kapot:
    any time, only the opposing team over a kapot, ``kapot_per_team_max`` per team).
    """
    cfg = st.config
    all_suits = [0, 1, 2, 3]
    kapot_ok = st.kapots[seat & 1] < cfg.kapot_per_team_max
    if st.bid_seat < 0:
        return cfg.min_bid, all_suits, all_suits if kapot_ok else []
    partner = (st.bid_seat ^ seat) & 1 == 0
    if st.bid_kapot:
        return cfg.max_bid + 1, [], all_suits if kapot_ok and not partner else []
    suits = [st.bid_suit] if partner and cfg.partner_raise_same_suit else all_suits
    return st.bid_level + 1, suits, suits if kapot_ok else []


def auction_entries(st: BlotState, seat: int) -> list[dict[str, Any]]:
    """Legal-action entries of ``seat`` in the auction: on its turn, numeric bids (a level
    range per suit), kapots, pass, and contra when allowed; out of turn, contra only."""
    if seat != st.turn:
        return [_entry("contra")] if may_contra(st, seat) else []
    lo, suits, kapots = bid_options(st, seat)
    hi = st.config.max_bid
    out: list[dict[str, Any]] = []
    if lo <= hi:
        out += [{"type": "bid", "trump": SUITS[s], "min_level": lo, "max_level": hi}
                for s in suits]
    out += [{"type": "kapot", "trump": SUITS[s]} for s in kapots]
    out.append(_entry("pass"))
    if may_contra(st, seat):
        out.append(_entry("contra"))
    return out


def check_call(st: BlotState, seat: int, parsed: tuple[Any, ...]) -> None:
    """Raise unless the parsed auction call is legal for ``seat`` now.

    Raises:
        NotYourTurnError: a call other than contra out of turn.
        IllegalActionError: contra by the bidder's team or after the window closed; a bid below
            the lowest level, above ``max_bid``, in a forbidden suit; a forbidden kapot;
            recontra or play in the auction.
    """
    kind = parsed[0]
    if kind == "contra":
        if not may_contra(st, seat):
            who = "no bid stands" if st.bid_seat < 0 else f"seat {st.bid_seat}'s bid"
            raise IllegalActionError(f"seat {seat} may not call contra now ({who}; only the bidder's "
                                f"opponents may, until the bidder's partner calls)")
        return
    if seat != st.turn:
        raise NotYourTurnError(f"{kind!r} by seat {seat} out of turn; it is seat {st.turn}'s turn")
    if kind == "pass":
        return
    lo, suits, kapots = bid_options(st, seat)
    if kind == "bid":
        level, s = parsed[1], parsed[2]
        if not lo <= level <= st.config.max_bid:
            raise IllegalActionError(f"bid level {level} is not allowed; allowed: {lo}.."
                                f"{st.config.max_bid}")
        if s not in suits:
            raise IllegalActionError(f"bid in trump {SUITS[s]!r} is not allowed; allowed: "
                                f"{[SUITS[x] for x in suits]}")
        return
    if kind == "kapot":
        if parsed[1] not in kapots:
            raise IllegalActionError(f"kapot in trump {SUITS[parsed[1]]!r} is not allowed; allowed: "
                                f"{[SUITS[x] for x in kapots]}")
        return
    raise IllegalActionError(f"{kind!r} is not a call of the auction")


def do_call(st: BlotState, seat: int, parsed: tuple[Any, ...]) -> list[Event]:
    """Apply a checked auction call; returns its events (the close or redeal included)."""
    kind = parsed[0]
    events = [public("call", seat=seat, call=call_json(parsed))]
    st.calls.append((seat, *parsed))
    if kind == "contra":
        st.multiplier = 2
        st.window = False
        st.phase = "contra_response"
        st.turn = st.bid_seat
        st.responses = 0
        return events
    if kind == "pass":
        st.passes += 1
        if st.bid_seat >= 0 and (seat ^ st.bid_seat) & 1 == 0:
            st.window = False
        if st.bid_seat < 0 and st.passes == 4:
            return events + st.redeal()
        if st.bid_seat >= 0 and st.passes == 3:
            return events + st.start_play()
    else:
        st.bid_seat = seat
        st.bid_kapot = kind == "kapot"
        st.bid_level = parsed[1] if kind == "bid" else 0
        st.bid_suit = parsed[-1]
        st.passes = 0
        st.window = True
        if st.bid_kapot:
            st.kapots[seat & 1] += 1
    st.turn = (seat + 1) & 3
    return events


def response_entries(st: BlotState, seat: int) -> list[dict[str, Any]]:
    """Legal-action entries in the contra response (BB-16): recontra or pass, turn seat only."""
    return [_entry("recontra"), _entry("pass")] if seat == st.turn else []


def check_response(st: BlotState, seat: int, parsed: tuple[Any, ...]) -> None:
    """Raise unless ``parsed`` is recontra or pass by the responding seat.

    Raises:
        IllegalActionError: any other action.
    """
    if parsed[0] not in ("recontra", "pass"):
        raise IllegalActionError(f"{parsed[0]!r} is not allowed after contra; recontra or pass")


def do_response(st: BlotState, seat: int, parsed: tuple[Any, ...]) -> list[Event]:
    """Apply recontra (x4, play starts) or pass (declarer then partner; two passes: x2)."""
    events = [public("call", seat=seat, call=call_json(parsed))]
    st.calls.append((seat, *parsed))
    if parsed[0] == "recontra":
        st.multiplier = 4
        return events + st.start_play()
    st.responses += 1
    if st.responses == 2:
        return events + st.start_play()
    st.turn = (st.turn + 2) & 3
    return events


def call_json(parsed: tuple[Any, ...]) -> dict[str, Any]:
    """The JSON form of a parsed call."""
    match parsed:
        case ("bid", level, s):
            return {"type": "bid", "level": level, "trump": SUITS[s]}
        case ("kapot", s):
            return {"type": "kapot", "trump": SUITS[s]}
    return {"type": parsed[0]}
