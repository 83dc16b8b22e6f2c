"""Why one hand beat another, in data the table can show (rules 8, 11c, 12; PP-19).

A comparison names each side's hand category already (:mod:`.battle`, :mod:`.showdown`); this
module adds what a player asks next: *which five cards* made each hand (:func:`best_five`) and
*what decided* between them (:func:`decided`): the category, the first rank that differs (the
higher pair, the kicker ...), the count of cards of an incomplete hand, the own-suit tie-break
or nothing (a tie). The browser words it; it never compares hands itself.

Only cards the comparison already carries are named (the eligible or shown cards), so nothing
here is seen by anyone who did not see those cards.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

from .cards import RANKS, ids
from .evaluation import hand_key


def best_five(cards: Sequence[str], wheel: bool = True) -> list[str]:
    """The cards of ``cards`` that form the best hand (rule 12): all of them when five or
    fewer (an incomplete hand counts every card), else the first five-card combination (in
    the given order) whose :func:`~.evaluation.hand_key` is the highest."""
    if len(cards) <= 5:
        return list(cards)
    best: tuple[tuple[int, ...], tuple[str, ...]] | None = None
    for combo in combinations(cards, 5):
        key = hand_key(ids(combo), wheel)
        if best is None or key > best[0]:
            best = (key, combo)
    assert best is not None
    return list(best[1])


def decided(cards: Mapping[int, Sequence[str]], wheel: bool = True,
            own_suit_counts: Mapping[int, int] | None = None) -> dict[str, Any]:
    """What decided between the best hand of ``cards`` (seat -> the cards that count) and
    the next best one. Returns ``{"by": ..., "seats": [winner, runner_up]}`` with ``by``:

    * ``"category"``: the categories differ (a flush beats a pair);
    * ``"rank"``: same category, the first differing rank decided; ``ranks`` maps each of the
      two seats to its rank letter there (``2..9 T J Q K A``);
    * ``"cards"``: equal ranks, one incomplete hand has fewer cards (rule 12: a missing card
      ranks below a 2);
    * ``"own_suit"``: equal hands, the own banner suit count decided (PP-19;
      ``own_suit_counts`` given and different);
    * ``"tie"``: nothing decided (``seats``: the first two in seat order).

    Raises ValueError when fewer than two seats are given."""
    if len(cards) < 2:
        raise ValueError(f"decided() compares two or more seats, got {sorted(cards)}")
    keys = {s: hand_key(ids(c), wheel) for s, c in cards.items()}
    order = sorted(keys, key=lambda s: (keys[s], -s), reverse=True)
    top = order[0]
    rest = [s for s in order[1:] if keys[s] != keys[top]]
    if not rest:
        return _tie_break(order[:2], own_suit_counts)
    second = rest[0]
    a, b = keys[top], keys[second]
    if a[:1] != b[:1]:
        return {"by": "category", "seats": [top, second]}
    for i in range(1, min(len(a), len(b))):
        if a[i] != b[i]:
            return {"by": "rank", "seats": [top, second],
                    "ranks": {str(top): RANKS[a[i]], str(second): RANKS[b[i]]}}
    return {"by": "cards", "seats": [top, second]}


def _tie_break(seats: list[int], counts: Mapping[int, int] | None) -> dict[str, Any]:
    """Equal hands: the own-suit count (PP-19) when it differs, else a tie."""
    first, second = sorted(seats)
    if counts is not None and counts[first] != counts[second]:
        win, lose = (first, second) if counts[first] > counts[second] else (second, first)
        return {"by": "own_suit", "seats": [win, lose]}
    return {"by": "tie", "seats": [first, second]}
