"""Poker hand evaluators from maintained libraries, adapted to the games' rank-function hook.

The games layer imports only the standard library, so Palace Poker ships a pure-Python
evaluator (``games/palace_poker/evaluation.py``) and accepts an injected *rank function*:
5 to 7 card ids (``rank * 4 + suit``, deuce = 0, suits ``c d h s`` = 0..3) -> an integer,
higher = stronger, equal iff the hands tie. This module provides that function backed by
**phevaluator** (a C perfect-hash evaluator, a runtime dependency) and installs it with
:func:`install`. The server and ``cardhall selfplay`` call :func:`install` at start-up; results
never change, only speed.

phevaluator's card ids are exactly ours, and its ranks run 1 (royal flush) .. 7462 (7-5-4-3-2
offsuit), lower = stronger; we return ``7463 - rank``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

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
        return WORST + 1 - int(by_count[len(ids)](*ids))

    return rank


def category_of_phevaluator_rank(rank: int) -> int:
    """Category 0 (high card) .. 8 (straight flush) of a raw phevaluator rank (1..7462)."""
    for bound, cat in _CATEGORY_BOUNDS:
        if rank <= bound:
            return cat
    raise ValueError(f"phevaluator rank {rank} is out of range 1..{WORST}")


def install() -> bool:
    """Install the phevaluator rank function into Palace Poker; ``False`` if phevaluator is
    missing (the pure-Python fallback stays in use)."""
    from .games.palace_poker.evaluation import set_rank_function

    try:
        fn = phevaluator_rank_function()
    except ImportError:
        return False
    set_rank_function(fn)
    return True
