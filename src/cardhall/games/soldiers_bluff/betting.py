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

:func:`do` never ends the hand itself: it returns :class:`RoundClosed`, :class:`ShowdownDue` or
:class:`PotUncontested` and ``state.py`` moves on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...engine.actions import Action
from ...engine.errors import IllegalActionError
from ...engine.events import Event, public
from .actions import Bet, BettingAction, Call, Fold, Pass, Raise
from .model import HandModel, Seat


@dataclass(frozen=True, slots=True)
class RoundClosed:
    """Transition: a betting round is complete and another one is due (round 1, or a round
    with a raise, SB-11)."""


@dataclass(frozen=True, slots=True)
class ShowdownDue:
    """Transition: a round >= 2 closed without a raise; the betting is over (SB-12, rule 9)."""


@dataclass(frozen=True, slots=True)
class PotUncontested:
    """Transition: every other player folded; ``seat`` takes the pot unseen (rule 8)."""

    seat: int


def stake_cap(seats: Sequence[Seat], order: Sequence[int]) -> int:
    """SB-15: the smallest stack after the ante among the seats dealt in (``order``), chips."""
    return min(seats[s].start_stack - seats[s].ante for s in order)


def open_round(m: HandModel, number: int) -> list[Event]:
    """Start betting round ``number`` (1..): every non-folded player acts once, from the
    dealer's left. Returns the public ``round`` event."""
    m.round = number
    m.raised = False
    m.queue = m.live()
    return [public("round", round=number, highest=m.highest(), cap=m.cap)]


def _range(m: HandModel, stake: int, highest: int) -> tuple[int, int] | None:
    """The inclusive ``to`` range (chips) of a ``bet`` (round 1, SB-9) or ``raise`` (round >= 2,
    SB-10) for a seat with ``stake`` facing ``highest``; ``None`` if it is empty under the
    cap (SB-15)."""
    config = m.config
    if m.round == 1:
        low = max(highest, config.min_bet) if config.round1_bet_must_match else config.min_bet
        low = max(low, stake + 1)
    else:
        low = highest + config.min_raise
    return (low, m.cap) if low <= m.cap else None


def _options(m: HandModel, seat: int) -> tuple[list[str], tuple[int, int] | None]:
    """The open action types (see :func:`kinds`) and the seat's bet/raise range, if any."""
    highest = m.highest()
    stake = m.seats[seat].stake
    facing = stake < highest
    amounts = _range(m, stake, highest)
    first = m.round == 1
    out = ["pass"] if first else ["call" if facing else "check"]
    if amounts is not None:
        out.append("bet" if first else "raise")
    if m.config.fold_when_not_facing_bet or facing:  # SB-14
        out.append("fold")
    return out, amounts


def kinds(m: HandModel, seat: int) -> list[str]:
    """The action types open to ``seat`` now (without amounts), in the order of the entries:
    ``pass`` (round 1) or ``check``/``call``, then ``bet``/``raise`` if its range is not
    empty, then ``fold`` unless SB-14 forbids it."""
    return _options(m, seat)[0]


def entries(m: HandModel, seat: int) -> list[Action]:
    """Legal-action entries; ``bet``/``raise`` carry ``min_to``/``max_to`` (section 4)."""
    open_kinds, amounts = _options(m, seat)
    out: list[Action] = []
    for kind in open_kinds:
        if amounts is not None and kind in ("bet", "raise"):
            out.append({"type": kind, "min_to": amounts[0], "max_to": amounts[1]})
        else:
            out.append({"type": kind})
    return out


def timeout(m: HandModel, seat: int) -> Action:
    """Rule 12 / SB-25: ``pass`` in round 1, ``check`` if ``s = H``, otherwise ``fold``."""
    open_kinds = kinds(m, seat)
    for kind in ("pass", "check"):
        if kind in open_kinds:
            return {"type": kind}
    return {"type": "fold"}


def check(m: HandModel, seat: int, action: BettingAction) -> None:
    """Raise :class:`IllegalActionError` unless ``action`` is open to ``seat`` now (names the
    value: the wrong type for the round, or a ``to`` below the minimum / above the cap)."""
    open_kinds, amounts = _options(m, seat)
    if action.type not in open_kinds:
        raise IllegalActionError(
            f"{action.type!r} is not allowed for seat {seat} in betting round {m.round} "
            f"(stake {m.seats[seat].stake}, highest {m.highest()}, cap {m.cap}); "
            f"allowed: {open_kinds}"
        )
    if isinstance(action, (Bet, Raise)):
        low, high = amounts or (0, 0)
        if action.to < low:
            raise IllegalActionError(f"{action.type} to {action.to} is below the minimum {low}")
        if action.to > high:
            raise IllegalActionError(f"{action.type} to {action.to} is above the stake cap {high}")


def _put(m: HandModel, p: Seat, to: int) -> None:
    m.pot += to - p.stake
    p.stake = to


def do(
    m: HandModel, seat: int, action: BettingAction
) -> tuple[list[Event], RoundClosed | ShowdownDue | PotUncontested | None]:
    """Apply a checked betting action (rule 7) and say what follows: :class:`PotUncontested`
    when one player is left, :class:`ShowdownDue` after a round >= 2 without a raise,
    :class:`RoundClosed` after any other complete round, else ``None`` (the next seat acts)."""
    m.queue.pop(0)
    p = m.seats[seat]
    match action:
        case Bet(to=to) | Raise(to=to):
            _put(m, p, to)
            m.raised = m.raised or isinstance(action, Raise)
        case Call():
            _put(m, p, m.highest())
        case Fold():
            p.folded = True
        case Pass() if m.config.pass_is_fold:
            p.folded = True
    events = [public(action.type, seat=seat, stake=p.stake, pot=m.pot, folded=p.folded)]
    live = m.live()
    if len(live) == 1:
        return events, PotUncontested(live[0])
    if m.queue:
        return events, None
    if m.round >= 2 and not m.raised:
        return events, ShowdownDue()
    return events, RoundClosed()
