"""Ratings of finished games: win/loss marks per seat and openskill updates (pure functions).

Every game is rated with openskill's Plackett-Luce model (its default; it rates any number of
teams of any size from a ranking, so one model covers a four-seat partnership game and a
six-seat poker hand):

* **Bazaar Blot**: two teams, seats 0 and 2 against 1 and 3 (a game in fixed partnerships
  says so on its rules object, ``GameRules.teams``: the team of seat ``s`` is ``s % teams``),
  ranked by the team's match total (``returns``); equal
  totals are a draw.
* **Soldier's Bluff, Palace Poker** (one stored game = one hand): every seat of the hand is a
  team of one, ranked by chips won (``returns``, net); equal amounts share a rank.

A game that ended early (outcome ``abandoned`` or ``aborted``) is not rated and has no marks.
A player holding several seats of one game (the shared built-in bot identities, ``rule-bot``)
enters with its rating at each seat; its new rating is the mean of those seats' new ratings.
A seat without a ``player_id`` takes part with a default rating that is not kept.

The displayed rating is openskill's ordinal scaled, ``DISPLAY_ALPHA * (mu - 3 sigma) +
DISPLAY_TARGET``: a new player shows 1000.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from openskill.models import PlackettLuce, PlackettLuceRating

from ..engine import EngineError, get_game
from .interface import SeatResult
from .records import GameRecord

Mark = Literal["win", "loss", "draw"]

MODEL = PlackettLuce()
"""The one rating model (openskill defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300)."""
DEFAULT_MU: float = MODEL.mu
DEFAULT_SIGMA: float = MODEL.sigma
DISPLAY_ALPHA = 40.0
"""Scale of the displayed rating per point of ordinal."""
DISPLAY_TARGET = 1000.0
"""Displayed rating of a new player (ordinal 0)."""
UNRATED_REASONS = frozenset({"abandoned", "aborted"})
"""Outcome reasons that end a game before its rules do: such a game is not rated."""


@dataclass(frozen=True, slots=True)
class Skill:
    """A rating in one game: openskill's ``mu`` and ``sigma`` (points of skill)."""

    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA

    @property
    def ordinal(self) -> float:
        """``mu - 3 sigma``: a conservative skill estimate (the leaderboard's order)."""
        return self.mu - 3.0 * self.sigma

    @property
    def display(self) -> int:
        """The rating shown to people: ``round(40 * ordinal + 1000)``."""
        return round(DISPLAY_ALPHA * self.ordinal + DISPLAY_TARGET)


def record_rated(record: GameRecord) -> bool:
    """Whether a finished game changes ratings: its table was rated (``GameRecord.rated``)
    and it was not ended early (:func:`rated`)."""
    return record.rated and rated(record.outcome)


def rated(outcome: Mapping[str, object]) -> bool:
    """Whether a game with this outcome object is rated (not abandoned or aborted)."""
    return outcome.get("reason") not in UNRATED_REASONS


def _teams(game: str) -> int:
    """The game's fixed partnerships (its rules object's ``teams``; ``0``: none, or a game
    this build does not know)."""
    try:
        return get_game(game).teams
    except EngineError:
        return 0


def seat_groups(game: str, results: Sequence[SeatResult]) -> list[list[int]]:
    """The rated teams as lists of indexes into ``results``: Blot's two partnerships, else one
    team per seat."""
    teams = _teams(game)
    if not teams:
        return [[i] for i in range(len(results))]
    groups: list[list[int]] = [[] for _ in range(teams)]
    for i, r in enumerate(results):
        groups[r.seat % teams].append(i)
    return [g for g in groups if g]


def _score(game: str, results: Sequence[SeatResult], group: list[int]) -> int:
    """A team's score: its match total (every seat of a Blot team shows it), or chips won."""
    return max(results[i].result for i in group) if _teams(game) else results[group[0]].result


def seat_marks(game: str, outcome: Mapping[str, object],
               results: Sequence[SeatResult]) -> list[Mark | None]:
    """One mark per entry of ``results``: ``win`` (Blot: the team's total beats the other's;
    poker: chips won > 0), ``loss`` (below the other team's; chips lost), ``draw`` (equal
    totals; chips even). All ``None`` for an unrated game (:func:`rated`)."""
    if not rated(outcome):
        return [None] * len(results)
    if not _teams(game):
        return ["win" if r.result > 0 else "loss" if r.result < 0 else "draw" for r in results]
    groups = seat_groups(game, results)
    scores = [_score(game, results, g) for g in groups]
    marks: list[Mark | None] = [None] * len(results)
    for group, score in zip(groups, scores, strict=True):
        others = [s for j, s in enumerate(scores) if groups[j] is not group]
        best_other = max(others, default=score)
        mark: Mark = "win" if score > best_other else "loss" if score < best_other else "draw"
        for i in group:
            marks[i] = mark
    return marks


def ranks(scores: Sequence[int]) -> list[int]:
    """Competition ranks, 1 = best (the highest score); equal scores share a rank.

    >>> ranks([5, -3, 5, 0])
    [1, 4, 1, 3]
    """
    return [1 + sum(1 for other in scores if other > s) for s in scores]


def rate_game(game: str, results: Sequence[SeatResult],
              priors: Mapping[str, Skill]) -> dict[str, Skill]:
    """The new rating of every player (``player_id``) of one rated game.

    ``priors`` holds the players' current ratings (a player absent starts at :class:`Skill`'s
    defaults). Returns ``player_id -> Skill`` for every seat with a ``player_id`` (several
    seats of one player: the mean of their new ``mu`` and ``sigma``). A game with fewer than
    two teams changes nothing (``{}``).
    """
    groups = seat_groups(game, results)
    if len(groups) < 2:
        return {}
    teams = [[_model_rating(priors, results[i].player_id) for i in g] for g in groups]
    new = MODEL.rate(teams, ranks=[float(r) for r in
                                   ranks([_score(game, results, g) for g in groups])])
    per_player: dict[str, list[Skill]] = {}
    for group, team in zip(groups, new, strict=True):
        for i, rating in zip(group, team, strict=True):
            pid = results[i].player_id
            if pid is not None:
                per_player.setdefault(pid, []).append(Skill(rating.mu, rating.sigma))
    return {pid: Skill(sum(s.mu for s in got) / len(got), sum(s.sigma for s in got) / len(got))
            for pid, got in per_player.items()}


def _model_rating(priors: Mapping[str, Skill], player_id: str | None) -> PlackettLuceRating:
    """The library's rating object for one seat's prior."""
    prior = priors.get(player_id, Skill()) if player_id is not None else Skill()
    return MODEL.rating(mu=prior.mu, sigma=prior.sigma)
