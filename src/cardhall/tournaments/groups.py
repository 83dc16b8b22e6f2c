"""Tables of N entrants (``docs/tournaments.md``, "Tables of N"): Swiss groups, the seat
rotation of a duplicate board, and who met whom.

Pure and synchronous. A table holds ``k`` **sides**: two teams of a partnership game (Bazaar
Blot: side ``i`` holds seats ``i`` and ``i + 2``) or ``k`` single entrants, one a seat (Soldier's
Bluff, Palace Poker). Two entrants at one table **meet** (each pair of a table of ``k`` is one
meeting).

**Swiss groups of k > 2**: networkx's ``max_weight_matching`` (what :func:`.pairing.swiss_pairs`
uses for two a table) matches *pairs*; grouping by fours is a hypergraph problem no well-kept
library solves (exact k-dimensional matching is NP-hard), so :func:`swiss_groups` is a greedy
with a bounded improvement pass: the best-placed entrant not yet seated takes the next entrants
by rank that add the fewest repeat meetings, then swaps of two entrants between two tables are
made while one lowers the round's repeat meetings (never raising them), so a repeat is kept
only when no such swap removes it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from itertools import combinations

from .pairing import swiss_pairs

Group = list[str]
"""The entrant ids of one table, best placed first (its *home* entrant)."""


def _key(a: str, b: str) -> frozenset[str]:
    return frozenset((a, b))


def meetings_of(groups: Iterable[Sequence[str]]) -> set[frozenset[str]]:
    """Every two entrants that shared a table among ``groups``."""
    return {_key(a, b) for g in groups for a, b in combinations(g, 2)}


def repeats(group: Sequence[str], met: Collection[frozenset[str]]) -> int:
    """How many two of ``group`` met before."""
    return sum(1 for a, b in combinations(group, 2) if _key(a, b) in met)


def pick_byes(entrants: Sequence[str], scores: Mapping[str, float], byes: Mapping[str, int],
              count: int) -> list[str]:
    """The ``count`` entrants who sit the round out: fewest byes so far, then the lowest
    score, then the latest seed."""
    order = {e: i for i, e in enumerate(entrants)}
    ranked = sorted(entrants, key=lambda e: (byes.get(e, 0), scores.get(e, 0.0), -order[e]))
    return ranked[:count]


def swiss_groups(entrants: Sequence[str], scores: Mapping[str, float],
                 met: Collection[frozenset[str]], byes: Mapping[str, int],
                 size: int) -> tuple[list[Group], list[str]]:
    """One Swiss round at tables of ``size``: ``(groups, byes)``.

    Args:
        entrants: the entrant ids in seeding order.
        scores: each one's score so far (missing: 0).
        met: the pairs that shared a table before (``frozenset`` of two ids).
        byes: how many byes each entrant had.
        size: entrants per table (2 or more).

    Returns:
        Groups of exactly ``size`` (ordered by their best entrant's rank; each group best
        first) and the ``len(entrants) % size`` byes (:func:`pick_byes`). ``size`` 2 is
        :func:`.pairing.swiss_pairs` (a maximum-weight matching).

    Raises:
        ValueError: fewer entrants than ``size``, ``size`` < 2, or an id given twice.
    """
    if size < 2 or len(entrants) < size:
        raise ValueError(f"{len(entrants)} entrants do not fill a table of {size}")
    if len(set(entrants)) != len(entrants):
        raise ValueError("an entrant is listed twice")
    if size == 2:
        pairs, bye = swiss_pairs(entrants, scores, met, {e for e, n in byes.items() if n})
        return [list(p) for p in pairs], [] if bye is None else [bye]
    out = pick_byes(entrants, scores, byes, len(entrants) % size)
    order = {e: i for i, e in enumerate(entrants)}
    rank = sorted((e for e in entrants if e not in out),
                  key=lambda e: (-scores.get(e, 0.0), order[e]))
    place = {e: i for i, e in enumerate(rank)}
    groups: list[Group] = []
    left = list(rank)
    while left:
        group = [left.pop(0)]
        while len(group) < size:
            best = min(left, key=lambda c: (repeats([*group, c], met), place[c]))
            left.remove(best)
            group.append(best)
        groups.append(group)
    _improve(groups, met)
    for g in groups:
        g.sort(key=place.__getitem__)
    groups.sort(key=lambda g: place[g[0]])
    return groups, out


def _improve(groups: list[Group], met: Collection[frozenset[str]], rounds: int = 20) -> None:
    """Swap two entrants of two groups while a swap lowers the repeat meetings (at most
    ``rounds`` passes; each pass is ``O(n^2)`` swaps)."""
    for _ in range(rounds):
        better = False
        for g1, g2 in combinations(groups, 2):
            for i, j in ((i, j) for i in range(len(g1)) for j in range(len(g2))):
                before = repeats(g1, met) + repeats(g2, met)
                g1[i], g2[j] = g2[j], g1[i]
                if repeats(g1, met) + repeats(g2, met) < before:
                    better = True
                else:
                    g1[i], g2[j] = g2[j], g1[i]
        if not better:
            return


def seat_layout(group: Sequence[str], rotation: int, num_seats: int) -> list[str]:
    """The entrant on each seat of a table of ``group`` (``len(group)`` sides):
    seat ``s`` is side ``s % k``'s and held by ``group[(s % k + rotation) % k]``.

    So a partnership (``k`` 2 on four seats) holds seats 0 and 2 or 1 and 3, and over ``k``
    rotations every entrant holds every side's cards once (``docs/tournaments.md``, "Tables
    of N")."""
    k = len(group)
    return [group[(s % k + rotation) % k] for s in range(num_seats)]


def side_nets(returns: Sequence[float], sides: int) -> list[float]:
    """Each side's net result at one table from the outcome's per-seat ``returns``: a
    single entrant's own return (chips or points; side = seat), or for two teams its team's
    return minus the other team's (side ``i`` = seats ``i``, ``i + 2``, the team's seats
    sharing one return)."""
    if sides == len(returns):
        return [float(r) for r in returns]
    return [float(returns[s] - returns[(s + 1) % sides]) for s in range(sides)]
