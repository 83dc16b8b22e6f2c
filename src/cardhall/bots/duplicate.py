"""``cardhall arena --duplicate``: plain vs duplicate evaluation at the same number of games.

Both arms play in-process (:func:`cardhall.bots.evaluate.play_match`: the deals come from
seeds, which a live server keeps secret, so a duplicate set cannot be dealt through one).

* **plain**: game ``g`` is dealt from its own seed, seats rotated by ``g % n`` as the plain
  arena does; the unit of the interval is the game.
* **duplicate**: games come in *sets* dealt from one seed; the set's games rotate the seats so
  that each deal's luck cancels in the set's mean. In Bazaar Blot (partnerships 0/2 and 1/3) a
  set is 2 games: the lineup as given, then shifted by one seat (bot A on 0/2, then on 1/3); in
  the poker games a set is ``n`` games, each entry holding each seat's cards once. The unit of
  the interval is the set (the games of a set share their cards and are correlated).

Interval: Student's t, ``mean ± t(0.975, k-1)·s/√k`` over the ``k`` units, with the quantile
from :func:`_t975` (the standard table, since neither scipy nor numpy is a dependency; the
normal quantile past 120 df); the t and not the normal approximation because a duplicate run has few units (sets).
``ratio`` is plain width / duplicate width of the first bot name's *edge*: its seats' mean return (chips in poker, match points in
Blot) minus the other seats' mean, the quantity whose deal luck a set cancels.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import Any

from ..engine import get_game
from .base import get_policy
from .evaluate import play_match

_T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
         9: 2.262, 10: 2.228, 15: 2.131, 20: 2.086, 30: 2.042, 60: 2.000, 120: 1.980}


def _t975(df: int) -> float:
    """The 97.5% quantile of Student's t with ``df`` degrees of freedom (standard table; the
    nearest tabulated df at or below ``df``; the normal quantile past 120)."""
    if df > 120:
        return statistics.NormalDist().inv_cdf(0.975)
    return _T975[max(k for k in _T975 if k <= df)]


def t_interval(samples: Sequence[float]) -> dict[str, float]:
    """Mean and 95% t interval of ``samples`` (one per independent unit): ``{"mean", "low",
    "high", "width", "n"}``. Raises ValueError on fewer than 2 samples."""
    if len(samples) < 2:
        raise ValueError("an interval needs at least 2 units")
    mean = statistics.fmean(samples)
    half = _t975(len(samples) - 1) * statistics.stdev(samples) / len(samples) ** 0.5
    return {"mean": round(mean, 4), "low": round(mean - half, 4), "high": round(mean + half, 4),
            "width": round(2 * half, 4), "n": len(samples)}


def set_size(game: str, seats: int) -> int:
    """Games per duplicate set: 2 in a partnership game (its rules object's ``teams``, e.g.
    Bazaar Blot: each partnership holds each side once), else ``seats``."""
    return 2 if get_game(game).teams else seats


def rotations(game: str, seats: int) -> list[list[int]]:
    """Per game of a set, the lineup index at each table seat."""
    return [[(s + r) % seats for s in range(seats)] for r in range(set_size(game, seats))]


def _own(name: str, lineup: Sequence[str], order: list[int], returns: Sequence[float]) -> float:
    """The edge of ``name``: its seats' mean return minus the other seats' mean."""
    mine = [r for s, r in enumerate(returns) if lineup[order[s]] == name]
    rest = [r for s, r in enumerate(returns) if lineup[order[s]] != name]
    return statistics.fmean(mine) - (statistics.fmean(rest) if rest else 0.0)


def run(game: str, lineup: Sequence[str], games: int, seed: int = 1,
        config: dict[str, Any] | None = None) -> dict[str, Any]:
    """Play ``games`` plain games and ``games`` duplicate games (rounded down to whole sets).

    Returns ``{"game", "games", "sets", "set_size", "interval", "plain": {name: ci},
    "duplicate": {name: ci}, "ratio", "histories"}`` (ci from :func:`t_interval` of the
    edge per game: own seats' mean return minus the others'; ``histories`` the duplicate games'
    ``(set, order, outcome)``).

    Raises:
        ValueError: fewer than 2 sets' worth of games; what ``play_match`` raises.
    """
    n = len(lineup)
    rots = rotations(game, n)
    sets = games // len(rots)
    if sets < 2:
        raise ValueError(f"--duplicate needs at least {2 * len(rots)} games, got {games}")
    games = sets * len(rots)
    rules_cfg = get_game(game).config(config or {})
    policies = [get_policy(game, k, rules_cfg) for k in lineup]
    names = sorted(set(lineup))
    plain: dict[str, list[float]] = {k: [] for k in names}
    for g in range(games):
        order = [(s + g) % n for s in range(n)]
        out = play_match(game, [policies[i] for i in order], seed * 7_919 + 10_000_000 + g,
                         config=config, policy_seed=("plain", seed, g))
        for k in names:
            plain[k].append(_own(k, lineup, order, out.returns))
    dup: dict[str, list[float]] = {k: [] for k in names}
    histories = []
    for b in range(sets):
        per: dict[str, list[float]] = {k: [] for k in names}
        for r, order in enumerate(rots):
            out = play_match(game, [policies[i] for i in order], seed * 7_919 + b,
                             config=config, policy_seed=("dup", seed, b, r))
            histories.append((b, order, out))
            for k in names:
                per[k].append(_own(k, lineup, order, out.returns))
        for k in names:
            dup[k].append(statistics.fmean(per[k]))
    p = {k: t_interval(v) for k, v in plain.items()}
    d = {k: t_interval(v) for k, v in dup.items()}
    first = lineup[0]
    ratio = p[first]["width"] / d[first]["width"] if d[first]["width"] else float("inf")
    return {"game": game, "games": games, "sets": sets, "set_size": len(rots),
            "interval": "95% Student t; unit: game (plain), set (duplicate)",
            "plain": p, "duplicate": d, "ratio": round(ratio, 2), "histories": histories}


def format_result(result: dict[str, Any]) -> str:
    """Plain text: per bot, plain and duplicate edge [95% CI], then the width ratio."""
    lines = [f"{result['game']}: {result['games']} games each; duplicate in {result['sets']} "
             f"sets of {result['set_size']} ({result['interval']})"]
    for k in result["plain"]:
        for arm in ("plain", "duplicate"):
            c = result[arm][k]
            lines.append(f"{k:<10}{arm:<10} edge {c['mean']:.3f} [{c['low']:.3f}, {c['high']:.3f}]"
                         f" width {c['width']:.3f}")
    lines.append(f"interval width ratio plain/duplicate: {result['ratio']}")
    return "\n".join(lines)
