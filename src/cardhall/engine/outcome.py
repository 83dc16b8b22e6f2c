"""How a game ends: :class:`OutcomeReason` and :class:`Outcome` (``design.md`` section 2)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .actions import copy_json


class OutcomeReason(StrEnum):
    """Every way a game can end: the one set of :attr:`Outcome.reason` values (documented in
    ``docs/engine.md``; a game that needs a new way to end adds it here)."""

    SHOWDOWN = "showdown"
    """Poker games: the hands still in were compared (SB rule 9, PP rule 11c)."""
    UNCONTESTED = "uncontested"
    """Soldier's Bluff: every other seat folded (SB rule 8)."""
    LAST_PLAYER = "last_player"
    """Palace Poker: one seat is left in the hand (PP rule 11a)."""
    BATTLE_SPLIT = "battle_split"
    """Palace Poker: the last two seats tied their battle and split the pot (PP rule 8)."""
    SAME_BANNER_SPLIT = "same_banner_split"
    """Palace Poker: the seats left all share one banner suit and split the pot (PP rule 11b)."""
    TARGET_REACHED = "target_reached"
    """Bazaar Blot: a team reached the target score (BB rule 8)."""
    ABANDONED = "abandoned"
    """Any game: the table ended it early because no client was connected for its
    ``abandon_after_seconds`` (:meth:`GameState.abandon`; a table rule, not a card rule)."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended.

    Attributes:
        reason: one of :class:`OutcomeReason` (a ``str``, so it compares and serialises as
            its value, e.g. ``"showdown"``).
        returns: per seat: net chip change (poker games) or team match total (Bazaar Blot).
        detail: JSON-compatible extra facts (winners, hands shown, per-deal scores).
    """

    reason: OutcomeReason
    returns: tuple[int, ...]
    detail: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        """The outcome as a fresh JSON object (no part of it is shared with the state)."""
        out: dict[str, Any] = {"reason": str(self.reason), "returns": list(self.returns)}
        if self.detail:
            out["detail"] = copy_json(self.detail)  # callers may mutate the JSON
        return out
