"""Board scoring and standings (``docs/tournaments.md``, "Scoring" and "Standings").

Pure and synchronous.

* A **board result** is a side's net score on one board: its points minus its opponents' (for
  Bazaar Blot the two teams' match totals of the board's game).
* **Matchpoints** compare the results of the sides that held the same cards of a board: each
  result scores 2 per other result it beats and 1 per other result it ties
  (:func:`matchpoints`). With ``scoring: "total_points"`` a side scores its net result itself.
* A round's **head-to-head** result between two opponents: 1 to the one that scored more in
  the round, 0.5 each on equal scores, 0 to the other; it feeds Sonneborn-Berger.
* **Standings** (:func:`standings`): by score, then Buchholz (the sum of the opponents' final
  scores), then Sonneborn-Berger (the sum of each opponent's final score times the
  head-to-head result against it), then the entrant's seeding order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

Scoring = Literal["matchpoints", "total_points"]


def matchpoints(results: Sequence[float]) -> list[float]:
    """The matchpoints of each of ``results`` (the nets of the sides that held the same cards):
    2 per other result it beats, 1 per other result it ties. ``[]`` gives ``[]``; the total is
    always ``n * (n - 1)``."""
    return [float(sum(2 if r > o else 1 if r == o else 0 for j, o in enumerate(results) if j != i))
            for i, r in enumerate(results)]


def board_scores(results: Sequence[float], scoring: Scoring) -> list[float]:
    """Each side's score on a board from the nets of the sides that held the same cards:
    :func:`matchpoints`, or the nets themselves under ``"total_points"``.

    Raises:
        ValueError: an unknown ``scoring``.
    """
    if scoring == "matchpoints":
        return matchpoints(results)
    if scoring == "total_points":
        return [float(r) for r in results]
    raise ValueError(f"unknown scoring {scoring!r}; known: matchpoints, total_points")


def head_to_head(mine: float, theirs: float) -> float:
    """1, 0.5 or 0: the round's result of an entrant that scored ``mine`` against ``theirs``."""
    return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0


@dataclass
class Meeting:
    """One round of one entrant: its opponent (``None``: the bye) and what it scored; at a
    table of more than two, ``also`` holds the other opponents with their round scores."""

    opponent: str | None
    score: float
    opponent_score: float = 0.0
    also: tuple[tuple[str, float], ...] = ()

    def faced(self) -> list[tuple[str, float]]:
        """Every opponent of the round with its round score (none for the bye)."""
        if self.opponent is None:
            return []
        return [(self.opponent, self.opponent_score), *self.also]


@dataclass
class Standing:
    """One row of the standings (``rank`` from 1; equal rows share no rank: seeding breaks ties)."""

    entrant: str
    score: float
    buchholz: float
    sonneborn_berger: float
    rounds: int
    opponents: list[str | None] = field(default_factory=list)
    rank: int = 0

    def to_json(self) -> dict[str, object]:
        """The row as JSON (``docs/rest.md``, "Tournaments")."""
        return {"rank": self.rank, "entrant": self.entrant, "score": self.score,
                "buchholz": self.buchholz, "sonneborn_berger": self.sonneborn_berger,
                "rounds": self.rounds, "opponents": list(self.opponents)}


def standings(entrants: Sequence[str], meetings: Mapping[str, Sequence[Meeting]]) -> list[Standing]:
    """The standings of ``entrants`` (in seeding order) from each one's ``meetings``.

    The bye counts in the score (what the tournament awarded) but adds nothing to Buchholz or
    Sonneborn-Berger (it has no opponent). At a table of more than two every other entrant
    of the table is an opponent (each adds to both tiebreaks, and to ``opponents``: the
    round's opponents one after another, ``None`` for a bye).
    """
    total = {e: sum(m.score for m in meetings.get(e, ())) for e in entrants}
    rows = []
    for e in entrants:
        mine = meetings.get(e, ())
        faced = [(m.score, o, s) for m in mine for o, s in m.faced()]
        buchholz = sum(total.get(o, 0.0) for _, o, _ in faced)
        sb = sum(total.get(o, 0.0) * head_to_head(score, s) for score, o, s in faced)
        opponents = [o for m in mine for o in ([m.opponent] if m.opponent is None
                                                else [o for o, _ in m.faced()])]
        rows.append(Standing(e, total[e], buchholz, sb, len(mine), opponents))
    order = {e: i for i, e in enumerate(entrants)}
    rows.sort(key=lambda r: (-r.score, -r.buchholz, -r.sonneborn_berger, order[r.entrant]))
    for i, row in enumerate(rows, 1):
        row.rank = i
    return rows
