"""Palace Poker benchmarks (``make bench``): self-play speed and battle comparisons.

``run()`` returns hands per second of random self-play at 6 seats (no invariant checks), battle
comparisons per second (two sides of up to 9 own cards each, the opponent's banner suit
excluded, best hand compared) through our pure-Python fallback and through the phevaluator
adapter, and beside them the raw evaluators' own best-of-7 speed (phevaluator's native call
and its public API, eval7).
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from cardhall.evaluators import phevaluator_rank_function
from cardhall.games.palace_poker.cards import CANONICAL, ids
from cardhall.games.palace_poker.evaluation import set_rank_function, strengths
from cardhall.selfplay import run as selfplay


def _rate(fn: Callable[[], int], min_seconds: float = 1.0) -> float:
    """Calls per second of ``fn`` (which returns how many operations it did)."""
    done, start = 0, time.perf_counter()
    while True:
        done += fn()
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds:
            return done / elapsed


def _battles(n: int, seed: int = 5) -> list[tuple[list[int], list[int]]]:
    """Random battles: each side 9 own cards (banner first), opponent banner suit removed."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        cards = rng.sample(list(CANONICAL), 18)
        a, d = cards[:9], cards[9:]
        while a[0][1] == d[0][1]:
            d = [*d[1:], d[0]]
        ea = [c for c in a if c[1] != d[0][1]]
        ed = [c for c in d if c[1] != a[0][1]]
        out.append((ids(ea), ids(ed)))
    return out


def battle_rate(fn: Callable[[Any], int] | None) -> float:
    """Battle comparisons per second with rank function ``fn`` (``None`` = fallback)."""
    battles = _battles(2000)
    set_rank_function(fn)
    try:
        def chunk() -> int:
            for a, d in battles:
                sa, sd = strengths([a, d])
                _ = sa > sd
            return len(battles)
        return _rate(chunk)
    finally:
        set_rank_function(None)


def raw_rates() -> dict[str, float]:
    """Best-of-7 evaluations per second of the libraries themselves."""
    import eval7
    from phevaluator import _pheval, evaluate_cards

    rng = random.Random(3)
    hands = [rng.sample(range(52), 7) for _ in range(5000)]
    codes = [[CANONICAL_BY_ID[c] for c in h] for h in hands]
    e7 = [[eval7.Card(c) for c in h] for h in codes]
    ev7 = _pheval.evaluate_7cards

    def phe_raw() -> int:
        for h in hands:
            ev7(*h)
        return len(hands)

    def phe_api() -> int:
        for h in codes:
            evaluate_cards(*h)
        return len(hands)

    def eval7_raw() -> int:
        for h in e7:
            eval7.evaluate(h)
        return len(hands)

    return {"phevaluator_native_per_s": round(_rate(phe_raw)),
            "phevaluator_api_per_s": round(_rate(phe_api)),
            "eval7_per_s": round(_rate(eval7_raw))}


CANONICAL_BY_ID = {i: c for c, i in zip(CANONICAL, ids(CANONICAL), strict=True)}


def run() -> dict[str, Any]:
    """All Palace Poker figures as one JSON-compatible dict."""
    rep = selfplay("palace_poker", 300, seed=1, seats=6, check=False)
    return {
        "selfplay_6_seats": {"hands": rep.games, "hands_per_s": round(rep.games / rep.seconds, 1),
                             "steps_per_s": round(rep.steps / rep.seconds, 1),
                             "longest_game_steps": rep.longest_game_steps},
        "battle_comparisons_per_s": {
            "fallback": round(battle_rate(None)),
            "phevaluator": round(battle_rate(phevaluator_rank_function())),
        },
        "raw_best_of_7": raw_rates(),
    }


if __name__ == "__main__":
    import json

    print(json.dumps(run(), indent=2))
