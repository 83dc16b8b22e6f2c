"""Swiss pairing (``docs/tournaments.md``, "Swiss"): by score, without repeat opponents.

Pure and synchronous. The pairing of a round is a maximum-weight matching (networkx's
``max_weight_matching`` with ``maxcardinality=True``) on the graph of every two entrants, the
weight of an edge preferring, in this order:

1. opponents who have not met (a repeat pairing is taken only when no complete pairing
   without one exists);
2. opponents of close scores (the weight falls with the square of the score difference).

With an odd number of entrants a node :data:`BYE` stands for the bye: its edges prefer an entrant
that has had no bye yet, then the lowest score, so every entrant is paired or is the one bye.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

import networkx as nx

BYE = ("bye",)
"""The bye's node in the matching graph (a tuple: never an entrant id, which is a string)."""

Pair = tuple[str, str]
"""Two entrant ids; the first is the *home* entrant (the higher score, then the earlier)."""


def _key(a: str, b: str) -> frozenset[str]:
    return frozenset((a, b))


def swiss_pairs(entrants: Sequence[str], scores: Mapping[str, float],
                played: Collection[frozenset[str]] = (),
                byes: Collection[str] = ()) -> tuple[list[Pair], str | None]:
    """One Swiss round's pairs and its bye.

    Args:
        entrants: the entrant ids still playing, in seeding order (ties of score keep it).
        scores: each entrant's score so far (missing: 0).
        played: the pairs of entrants that have already met (each a ``frozenset`` of two ids).
        byes: the entrants that already had a bye.

    Returns:
        ``(pairs, bye)``: every entrant is in exactly one pair or is ``bye`` (``None`` with an
        even number of entrants); pairs are ordered by their home entrant's rank. A pair that
        met before is chosen only when every complete pairing has at least as many repeats
        (with ``r`` rounds played, a fresh pairing of ``n`` entrants exists while
        ``r < n / 2``: each entrant still has ``n - 1 - r >= n / 2`` fresh opponents, and by
        Dirac's theorem that graph has a Hamiltonian cycle, so a perfect matching).

    Raises:
        ValueError: fewer than two entrants, or an id given twice.
    """
    if len(entrants) < 2:
        raise ValueError(f"a Swiss round needs at least two entrants, got {len(entrants)}")
    if len(set(entrants)) != len(entrants):
        raise ValueError("an entrant is listed twice")
    rank = sorted(entrants, key=lambda e: (-scores.get(e, 0.0), entrants.index(e)))
    place = {e: i for i, e in enumerate(rank)}
    spread = max(scores.get(e, 0.0) for e in entrants) - min(scores.get(e, 0.0) for e in entrants)
    unit = 10 ** 6
    big = unit * (int(spread * spread * 4) + len(entrants) ** 2 + 1)
    """Larger than any sum of score penalties: one more fresh pairing always wins."""
    graph = nx.Graph()
    for i, a in enumerate(rank):
        for b in rank[i + 1:]:
            diff = scores.get(a, 0.0) - scores.get(b, 0.0)
            fresh = 2 if _key(a, b) not in played else 1
            graph.add_edge(a, b, weight=fresh * big - int(diff * diff * unit) - place[b])
    if len(rank) % 2:
        low = min(scores.get(e, 0.0) for e in rank)
        for e in rank:
            diff = scores.get(e, 0.0) - low
            fresh = 2 if e not in byes else 1
            graph.add_edge(BYE, e, weight=fresh * big - int(diff * diff * unit)
                           - (len(rank) - place[e]))
    matching = nx.max_weight_matching(graph, maxcardinality=True, weight="weight")
    pairs: list[Pair] = []
    bye: str | None = None
    for u, v in matching:
        if u == BYE or v == BYE:
            bye = v if u == BYE else u
            continue
        home, away = (u, v) if place[u] < place[v] else (v, u)
        pairs.append((home, away))
    pairs.sort(key=lambda pair: place[pair[0]])
    return pairs, bye


def knockout_pairs(entrants: Sequence[str]) -> tuple[list[Pair], str | None]:
    """A knockout round in seeding order: first against last, second against second-last;
    with an odd number the first seed has the bye.

    Raises:
        ValueError: fewer than two entrants.
    """
    if len(entrants) < 2:
        raise ValueError(f"a knockout round needs at least two entrants, got {len(entrants)}")
    rest = list(entrants)
    bye = rest.pop(0) if len(rest) % 2 else None
    half = len(rest) // 2
    return [(rest[i], rest[-1 - i]) for i in range(half)], bye
