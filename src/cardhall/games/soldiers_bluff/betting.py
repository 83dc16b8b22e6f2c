"""Betting of Soldier's Bluff, the "round model" (rule 7, SB-8..SB-15).

Each player has a hand stake ``s`` (chips bet this hand, not counting the ante); ``H`` is the
highest stake among non-folded players. Rounds are full turns from the dealer's left over the
non-folded players:

* round 1: ``pass`` (a check, SB-8; a fold with ``pass_is_fold``), ``bet`` to
  ``x >= max(H, min_bet)`` (SB-9), or ``fold``;
* round k >= 2: ``check`` (``s = H``) or ``call`` (``s < H``), ``raise`` to
  ``y >= H + min_raise``, or ``fold``;
* betting closes after a completed round k >= 2 without a raise (SB-12, SB-13); after a round
  with a raise every remaining player, the raiser included, acts again (SB-11).

No stake exceeds ``cap``, the smallest stack after antes among players dealt in (SB-15); when
the range of a bet or raise is empty (e.g. ``cap = 0``) it is not offered.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...engine.actions import Action
from ...engine.errors import IllegalActionError
from ...engine.events import Event, public
from . import showdown
from .actions import Parsed

if TYPE_CHECKING:
    from .state import SoldiersBluffState


def start(st: SoldiersBluffState) -> list[Event]:
    """Enter the betting phase at round 1."""
    st.phase = "betting"
    return _new_round(st, 1)


def _new_round(st: SoldiersBluffState, number: int) -> list[Event]:
    st.round = number
    st.raised = False
    st.queue = st.live()
    return [public("round", round=number, highest=st.highest(), cap=st.cap)]


def bounds(st: SoldiersBluffState, seat: int) -> tuple[int, int] | None:
    """The inclusive ``to`` range of the seat's ``bet`` (round 1) or ``raise`` (round >= 2),
    or ``None`` if that range is empty under the cap."""
    h = st.highest()
    if st.round == 1:
        low = max(h, st.config.min_bet) if st.config.round1_bet_must_match else st.config.min_bet
        low = max(low, st.stakes[seat] + 1)
    else:
        low = h + st.config.min_raise
    return (low, st.cap) if low <= st.cap else None


def _may_fold(st: SoldiersBluffState, seat: int) -> bool:
    return st.config.fold_when_not_facing_bet or st.stakes[seat] < st.highest()


def kinds(st: SoldiersBluffState, seat: int) -> list[str]:
    """The action types open to ``seat`` now (without amounts)."""
    facing = st.stakes[seat] < st.highest()
    out = ["pass"] if st.round == 1 else ["call" if facing else "check"]
    if bounds(st, seat) is not None:
        out.append("bet" if st.round == 1 else "raise")
    if _may_fold(st, seat):
        out.append("fold")
    return out


def entries(st: SoldiersBluffState, seat: int) -> list[Action]:
    """Legal-action entries; ``bet``/``raise`` carry ``min_to``/``max_to`` (section 4)."""
    out: list[Action] = []
    for kind in kinds(st, seat):
        if kind in ("bet", "raise"):
            low, high = bounds(st, seat) or (0, 0)
            out.append({"type": kind, "min_to": low, "max_to": high})
        else:
            out.append({"type": kind})
    return out


def timeout(st: SoldiersBluffState, seat: int) -> Action:
    """Rule 12: ``pass`` in round 1, ``check`` if ``s = H``, otherwise ``fold``."""
    open_kinds = kinds(st, seat)
    for kind in ("pass", "check"):
        if kind in open_kinds:
            return {"type": kind}
    return {"type": "fold"}


def check(st: SoldiersBluffState, seat: int, parsed: Parsed) -> None:
    """Raise :class:`IllegalActionError` unless ``parsed`` is open to ``seat`` now (names the value:
    the wrong type for the round, or a ``to`` below the minimum / above the cap)."""
    open_kinds = kinds(st, seat)
    if parsed.type not in open_kinds:
        h, s = st.highest(), st.stakes[seat]
        raise IllegalActionError(
            f"{parsed.type!r} is not allowed for seat {seat} in betting round {st.round} "
            f"(stake {s}, highest {h}, cap {st.cap}); allowed: {open_kinds}"
        )
    if parsed.type in ("bet", "raise"):
        low, high = bounds(st, seat) or (0, 0)
        if parsed.to < low:
            raise IllegalActionError(f"{parsed.type} to {parsed.to} is below the minimum {low}")
        if parsed.to > high:
            raise IllegalActionError(f"{parsed.type} to {parsed.to} is above the stake cap {high}")


def _put(st: SoldiersBluffState, seat: int, to: int) -> None:
    st.pot += to - st.stakes[seat]
    st.stakes[seat] = to


def do(st: SoldiersBluffState, seat: int, parsed: Parsed) -> list[Event]:
    """Apply a checked betting action, then close the round / the betting / the hand."""
    st.queue.pop(0)
    match parsed.type:
        case "bet" | "raise":
            _put(st, seat, parsed.to)
            st.raised = st.raised or parsed.type == "raise"
        case "call":
            _put(st, seat, st.highest())
        case "fold":
            st.folded[seat] = True
        case "pass" if st.config.pass_is_fold:
            st.folded[seat] = True
    events = [public(parsed.type, seat=seat, stake=st.stakes[seat], pot=st.pot,
                     folded=st.folded[seat])]
    if len(st.live()) == 1:
        return events + showdown.uncontested(st)
    if not st.queue:
        if st.round >= 2 and not st.raised:
            return events + showdown.showdown(st)
        events += _new_round(st, st.round + 1)
    return events
