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

from .cards import RANKS, SUITS, ids, rank
from .evaluation import hand_key

_SHAPES = {0: (1, 1, 1, 1, 1), 1: (2, 1, 1, 1), 2: (2, 2, 1), 3: (3, 1, 1), 6: (3, 2), 7: (4, 1)}
"""Rank-group categories of :func:`~.evaluation.hand_key`: how many cards each rank after
the category stands for (quads and a kicker: 4, 1)."""


def best_five(cards: Sequence[str], wheel: bool = True) -> list[str]:
    """The cards of ``cards`` that form the best hand (rule 12): all of them when five or
    fewer (an incomplete hand counts every card), else five whose
    :func:`~.evaluation.hand_key` equals that of all the cards (the best five's, by its
    definition), read off that key: its ranks (first cards of each rank in the given order),
    the flush's suit, the straight's ranks (the wheel: 5-4-3-2-A)."""
    if len(cards) <= 5:
        return list(cards)
    target = hand_key(ids(cards), wheel)
    picked = _picked(cards, target)
    if picked is not None and hand_key(ids(picked), wheel) == target:
        return picked
    for combo in combinations(cards, 5):  # not reached: the key names its five cards
        if hand_key(ids(combo), wheel) == target:
            return list(combo)
    raise AssertionError(f"no five of {list(cards)} make their best hand {target}")


def _picked(cards: Sequence[str], target: tuple[int, ...]) -> list[str] | None:
    """The five cards :func:`best_five`'s key ``target`` names, or ``None`` if none fit."""
    cat, ranks = target[0], list(target[1:])
    if cat in _SHAPES:
        out: list[str] = []
        for r, n in zip(ranks, _SHAPES[cat], strict=False):
            out += [c for c in cards if rank(c) == r and c not in out][:n]
        return out
    if cat in (4, 8):  # a straight (flush): its top rank; 3 is the wheel's five
        high = ranks[0]
        ranks = [high - i for i in range(5)] if high >= 4 else [3, 2, 1, 0, 12]
    if cat in (5, 8):  # of one suit
        for s in SUITS:
            suited = [RANKS[r] + s for r in ranks]
            if all(c in cards for c in suited):
                return suited
        return None
    out = [next((c for c in cards if rank(c) == r), "") for r in ranks]
    return out if all(out) else None


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
