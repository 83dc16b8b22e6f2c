"""Poker hand evaluators from maintained libraries, adapted to the games' rank-function hook.

The games layer imports only the standard library, so Palace Poker ships a pure-Python
evaluator (``games/palace_poker/evaluation.py``) and its rules object accepts an injected *rank
function* (``set_rank_function``, :class:`TakesRankFunction`):
5 to 9 card ids (``rank * 4 + suit``, deuce = 0, suits ``c d h s`` = 0..3) -> an integer for
the best five of them, higher = stronger, equal iff the hands tie. :func:`install` (called by
the server and ``cardhall selfplay`` at start-up) installs the one backed by **eval7** (a
runtime dependency): its evaluator works on a 52-bit card mask, so a Palace Poker hand of 8 or 9
own cards is one call, where phevaluator (5 to 7 cards only) needs every 7-card subset (8 or 36
calls). Results never change, only speed.

:func:`phevaluator_rank_function` is kept for cross-checks and the benchmark (phevaluator is a
dev dependency): phevaluator's card ids are exactly ours, its ranks run 1 (royal flush) .. 7462
(7-5-4-3-2 offsuit), lower = stronger; we return ``7463 - rank``, the best 7-card subset of 8
or 9 cards.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Protocol, runtime_checkable

WORST = 7462
"""phevaluator's weakest rank (7-5-4-3-2 unsuited)."""

# phevaluator rank bounds (inclusive upper bound) per category, strongest first
_CATEGORY_BOUNDS = ((10, 8), (166, 7), (322, 6), (1599, 5), (1609, 4), (2467, 3), (3325, 2),
                    (6185, 1), (7462, 0))


def phevaluator_rank_function() -> Callable[[Sequence[int]], int]:
    """The rank function backed by phevaluator's native calls (5, 6 or 7 card ids).

    Raises:
        ImportError: phevaluator is not installed.
    """
    from phevaluator import _pheval

    by_count = {5: _pheval.evaluate_5cards, 6: _pheval.evaluate_6cards,
                7: _pheval.evaluate_7cards}

    def rank(ids: Sequence[int]) -> int:
        if len(ids) > 7:
            return max(rank(sub) for sub in combinations(ids, 7))
        return WORST + 1 - int(by_count[len(ids)](*ids))

    return rank


def eval7_rank_function() -> Callable[[Sequence[int]], int]:
    """The rank function backed by eval7 (5 to 9 card ids, one call each).

    ``eval7.evaluate`` ORs the cards into a 52-bit mask and ranks the best five cards of it:
    the category (``value >> 24``: 0 high card .. 8 straight flush, as ours) and the ranks
    that break ties. Its docstring names 5 to 7 cards, but nothing in it depends on the count
    up to 9 (two five-card flushes need 10 cards); ``tests/games/palace_poker`` cross-checks 8
    and 9 cards against the best 7-card subset through phevaluator and our own evaluator.

    Raises:
        ImportError: eval7 is not installed.
    """
    with warnings.catch_warnings():  # eval7's range parser uses a deprecated pyparsing name
        warnings.simplefilter("ignore", DeprecationWarning)
        import eval7
    cards = [eval7.Card("23456789TJQKA"[i >> 2] + "cdhs"[i & 3]) for i in range(52)]
    evaluate = eval7.evaluate

    def rank(ids: Sequence[int]) -> int:
        return int(evaluate([cards[i] for i in ids]))

    return rank


def category_of_phevaluator_rank(rank: int) -> int:
    """Category 0 (high card) .. 8 (straight flush) of a raw phevaluator rank (1..7462)."""
    for bound, cat in _CATEGORY_BOUNDS:
        if rank <= bound:
            return cat
    raise ValueError(f"phevaluator rank {rank} is out of range 1..{WORST}")


@runtime_checkable
class TakesRankFunction(Protocol):
    """A game's rules object that accepts a complete-hand rank function (the shape above)."""

    def set_rank_function(self, fn: Callable[[Sequence[int]], int] | None) -> None:
        """Use ``fn`` to rank poker hands (``None``: the game's pure-Python ranking)."""


def install() -> bool:
    """Install the eval7 rank function (phevaluator's if only that one is installed) into
    every registered game that takes one (:class:`TakesRankFunction`: Palace Poker);
    ``False`` if neither library is (the pure-Python fallback stays in use)."""
    from .engine import game_names, get_game

    games = [r for r in map(get_game, game_names()) if isinstance(r, TakesRankFunction)]
    for factory in (eval7_rank_function, phevaluator_rank_function):
        try:
            fn = factory()
        except ImportError:
            continue
        for rules in games:
            rules.set_rank_function(fn)
        return True
    return False
