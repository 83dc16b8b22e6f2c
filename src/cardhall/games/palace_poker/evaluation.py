"""Hand evaluation for Palace Poker (rules 8, 11c, 12; hard cases 1, 7, 11).

Two layers:

* :func:`hand_key` — a pure-Python evaluator of *any* number of cards (0..9): the best five-card
  poker hand as a tuple ``(category, ranks...)`` that compares with ``<``. Fewer than five cards
  form an *incomplete hand* (rule 12): rank groups only (no straights or flushes), the ranks in
  order, and a shorter tuple loses when all its ranks tie ("a missing card ranks below a 2").
* A pluggable **rank function** for complete hands: ``fn(ids) -> int`` on 5 to 9 card ids
  (``rank * 4 + suit``): the best five-card hand among them, higher = stronger, equal iff the
  hands tie. A hand of 8 or 9 own cards goes to it once, whole. The games layer imports only
  the standard library, so the default is :func:`fallback_rank` (pure Python); the library
  adapters live outside the games layer (``cardhall.evaluators``: eval7, which evaluates 5 to
  9 cards in one call) and are installed with :func:`set_rank_function`.

Ranking across a set of hands (:func:`strengths`) uses the rank function only when every hand
has 5+ cards and the wheel is allowed (library evaluators always count A-2-3-4-5); otherwise
every hand uses :func:`hand_key`, so incomplete and complete hands share one scale.

Categories: 0 high card, 1 pair, 2 two pair, 3 trips, 4 straight, 5 flush, 6 full house,
7 quads, 8 straight flush.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

RankFn = Callable[[Sequence[int]], int]
"""5..9 card ids -> strength of the best five of them (higher is stronger; equal iff the best
hands tie)."""

CATEGORY_NAMES = ("high_card", "pair", "two_pair", "three_of_a_kind", "straight", "flush",
                  "full_house", "four_of_a_kind", "straight_flush")

_rank_fn: RankFn | None = None


def set_rank_function(fn: RankFn | None) -> None:
    """Install a complete-hand rank function (e.g. the eval7 adapter); ``None`` restores the
    pure-Python fallback. Results never change, only speed (both rank standard poker)."""
    global _rank_fn
    _rank_fn = fn


def rank_function() -> RankFn | None:
    """The installed rank function, ``None`` = pure-Python fallback."""
    return _rank_fn


def _straight_high(ranks: set[int], wheel: bool) -> int | None:
    """The top rank of the best straight within ``ranks`` (3 for the wheel), or ``None``."""
    for top in range(12, 3, -1):
        if all(r in ranks for r in range(top - 4, top + 1)):
            return top
    if wheel and {12, 0, 1, 2, 3} <= ranks:
        return 3
    return None


def hand_key(ids: Sequence[int], wheel: bool = True) -> tuple[int, ...]:
    """The best poker hand of ``ids`` (any count) as a comparable tuple (rule 12).

    Returns ``(category, ranks...)``: five ranks' worth of information for complete hands,
    fewer for incomplete ones (a shorter tuple with an equal prefix is weaker).
    """
    if not ids:
        return ()
    counts = [0] * 13
    by_suit: list[list[int]] = [[], [], [], []]
    for c in ids:
        counts[c >> 2] += 1
        by_suit[c & 3].append(c >> 2)
    if len(ids) >= 5:
        flush = _flush_key(by_suit, wheel)
        if flush is not None and flush[0] == 8:
            return flush
    groups = sorted(((n, r) for r, n in enumerate(counts) if n), reverse=True)
    big, top = groups[0]
    if big >= 4:
        return (7, top, *_kickers(counts, (top,), 1))
    if big == 3 and len(groups) > 1 and groups[1][0] >= 2:
        return (6, top, max(r for n, r in groups[1:] if n >= 2))
    if len(ids) >= 5:
        if flush is not None:
            return flush
        high = _straight_high({r for r, n in enumerate(counts) if n}, wheel)
        if high is not None:
            return (4, high)
    if big == 3:
        return (3, top, *_kickers(counts, (top,), 2))
    if big == 2 and len(groups) > 1 and groups[1][0] == 2:
        second = groups[1][1]
        return (2, top, second, *_kickers(counts, (top, second), 1))
    if big == 2:
        return (1, top, *_kickers(counts, (top,), 3))
    return (0, *_kickers(counts, (), 5))


def _flush_key(by_suit: list[list[int]], wheel: bool) -> tuple[int, ...] | None:
    best: tuple[int, ...] | None = None
    for ranks in by_suit:
        if len(ranks) < 5:
            continue
        high = _straight_high(set(ranks), wheel)
        key = (8, high) if high is not None else (5, *sorted(ranks, reverse=True)[:5])
        if best is None or key > best:
            best = key
    return best


def _kickers(counts: list[int], used: tuple[int, ...], k: int) -> list[int]:
    """The ``k`` highest ranks (with multiplicity) outside the groups ``used``."""
    out: list[int] = []
    for r in range(12, -1, -1):
        if r in used:
            continue
        out.extend([r] * counts[r])
        if len(out) >= k:
            return out[:k]
    return out


def fallback_rank(ids: Sequence[int]) -> int:
    """Pure-Python :data:`RankFn`: :func:`hand_key` packed into one integer (5+ cards)."""
    key = hand_key(ids)
    value = 0
    for part in (*key, 0, 0, 0, 0, 0)[:6]:
        value = value * 16 + part
    return value


def strengths(hands: Sequence[Sequence[int]], wheel: bool = True) -> list[Any]:
    """Comparable strengths of several hands on one scale (higher is stronger)."""
    fn = _rank_fn
    if fn is not None and wheel and all(len(h) >= 5 for h in hands):
        return [fn(h) for h in hands]
    return [hand_key(h, wheel) for h in hands]


def strengths_and_categories(hands: Sequence[Sequence[int]],
                             wheel: bool = True) -> tuple[list[Any], list[str]]:
    """:func:`strengths` of ``hands`` and the :func:`category` name of each, sharing the work:
    on the pure-Python scale each hand is evaluated once."""
    fn = _rank_fn
    if fn is not None and wheel and all(len(h) >= 5 for h in hands):
        return [fn(h) for h in hands], [category(h, wheel) for h in hands]
    keys = [hand_key(h, wheel) for h in hands]
    return keys, [CATEGORY_NAMES[k[0]] if k else "no_cards" for k in keys]


def category(ids: Sequence[int], wheel: bool = True) -> str:
    """The name of the best hand's category (for events and views)."""
    return CATEGORY_NAMES[hand_key(ids, wheel)[0]] if ids else "no_cards"
