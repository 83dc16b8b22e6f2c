"""End of a hand: uncontested pot (rule 8, SB-23) or showdown (rules 9-10), pot to the winner.

``returns`` are each seat's net chip change: the winner gets the whole pot (antes and every
stake, folded players' included, hard case 7) minus what he put in; every other seat loses its
ante plus stake; seats not dealt in get 0. The returns sum to 0 exactly.

These functions reveal the shown hands and name the winner; they return :class:`PotAwarded`,
from which ``state.py`` ends the hand and sets the outcome.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...engine.events import Event, public
from ...engine.game import OutcomeReason
from .model import HandModel
from .ranking import (
    decided_by,
    hand_key,
    hand_sum,
    is_soldiers_bluff,
    showdown_winner,
    strongest_card,
)


@dataclass(frozen=True, slots=True)
class PotAwarded:
    """Transition: the hand is over; ``winner`` takes the pot.

    Attributes:
        winner: the winning seat.
        reason: ``SHOWDOWN`` (rule 9) or ``UNCONTESTED`` (rule 8).
        returns: per seat, net chip change (sums to 0).
        detail: the outcome's ``detail``: ``winner``, ``pot`` (chips), ``shown`` (cards or
            ``None`` per seat), and at a showdown ``sums`` (points), ``strongest`` (each shown
            hand's strongest card), ``soldiers_bluff`` and ``decided_by`` (the rule 9 clause
            that decided, :func:`.ranking.decided_by`).
    """

    winner: int
    reason: OutcomeReason
    returns: tuple[int, ...]
    detail: dict[str, Any]


def _award(m: HandModel, reason: OutcomeReason, winner: int,
           decided: str | None = None) -> tuple[list[Event], PotAwarded]:
    seats = m.seats
    shown = [None if p.shown is None else list(p.shown) for p in seats]
    detail: dict[str, Any] = {"winner": winner, "pot": m.pot, "shown": shown}
    if reason is OutcomeReason.SHOWDOWN:
        detail["sums"] = [None if p.shown is None else hand_sum(p.shown) for p in seats]
        detail["soldiers_bluff"] = is_soldiers_bluff(seats[winner].hand)
        detail["decided_by"] = decided
        detail["strongest"] = [None if p.shown is None else strongest_card(p.shown) for p in seats]
    returns = tuple((m.pot if s == winner else 0) - p.ante - p.stake for s, p in enumerate(seats))
    event = public("pot_awarded", seat=winner, chips=m.pot, reason=str(reason))
    return [event], PotAwarded(winner, reason, returns, detail)


def uncontested(m: HandModel, winner: int) -> tuple[list[Event], PotAwarded]:
    """Rule 8: the last non-folded player, ``winner``, takes the pot at once; no cards are
    shown."""
    return _award(m, OutcomeReason.UNCONTESTED, winner)


def showdown(m: HandModel) -> tuple[list[Event], PotAwarded]:
    """Rule 9: every non-folded hand is shown; the best key wins (Soldier's Bluff, then sum,
    then the strongest single card). With ``bluff_only_as_dealt`` (SB-20) a Soldier's Bluff
    completed by an exchange ranks by its sum.

    The public ``showdown`` event explains the result: ``hands`` (seat -> 6 card ids),
    ``sums`` (seat -> points), ``strongest`` (seat -> its strongest card id), ``winner`` and
    ``decided_by`` (``"soldiers_bluff"``, ``"sum"`` or ``"strongest_card"``)."""
    only_dealt = m.config.bluff_only_as_dealt
    live = m.live()
    seats = m.seats
    keys = {s: hand_key(seats[s].hand, not only_dealt or seats[s].exchanged == 0) for s in live}
    for s in live:
        seats[s].shown = list(seats[s].hand)
    winner = showdown_winner(keys)
    shown = {str(s): list(seats[s].hand) for s in live}
    decided = decided_by(keys)
    events, awarded = _award(m, OutcomeReason.SHOWDOWN, winner, decided)
    explained = public("showdown", hands=shown, winner=winner, decided_by=decided,
                       sums={str(s): hand_sum(seats[s].hand) for s in live},
                       strongest={str(s): strongest_card(seats[s].hand) for s in live})
    return [explained, *events], awarded
