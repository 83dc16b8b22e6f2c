"""``cardhall arena --duplicate``: plain vs duplicate evaluation at the same number of games.

Both arms play in-process (:func:`cardhall.bots.evaluate.play_match`: the deals come from
seeds, which a live server keeps secret, so a duplicate set cannot be dealt through one).

The unit of play (``unit``) is the **board** by default, as in bridge and in the duplicate
tournaments: each game is played under the game's
:attr:`~cardhall.engine.rules.GameRules.duplicate_board_config` (the caller's config on top),
so it ends after one deal (Bazaar Blot: ``target_score`` 1, one scored deal; the poker games:
one hand, which a game already is). ``unit="match"`` plays whole games under the caller's
config (a Blot match to 101): after the first deal the play diverges and a set's later deals
differ, so little cancels.

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
``correlation`` is that edge's Pearson correlation between the games of a set (the mean over
pairs of games): a set of 2 narrows the interval only when it is clearly negative (the ratio
is about ``1/√(1+ρ)``).
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import Any

from ..engine import Action, get_game
from .base import Policy, get_policy
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


UNITS = ("board", "match")
"""The units of play ``run`` knows: one board (one deal or hand) per game, or a whole match."""


def unit_config(game: str, unit: str, config: dict[str, Any] | None = None) -> dict[str, Any]:
    """The partial rules config each game is played under: for ``"board"`` the game's
    ``duplicate_board_config`` with ``config`` on top (as the tournaments build a board's
    table, ``tournaments/spec.py``), for ``"match"`` ``config`` alone.

    Raises:
        ValueError: an unknown ``unit``, or ``"board"`` for a game without a board config.
    """
    if unit not in UNITS:
        raise ValueError(f"unknown unit {unit!r}; known: {', '.join(UNITS)}")
    if unit == "match":
        return dict(config or {})
    board = get_game(game).duplicate_board_config
    if board is None:
        raise ValueError(f"{game} has no board (duplicate_board_config); use --unit match")
    return {**board, **(config or {})}


def _label(entry: str | Policy) -> str:
    return entry if isinstance(entry, str) else entry.name


def _plain(game: str, policies: Sequence[Policy], labels: Sequence[str], games: int, seed: int,
           cfg: dict[str, Any]) -> dict[str, list[float]]:
    """The plain arm: each name's edge per game, game ``g`` from its own seed, seats rotated."""
    n = len(policies)
    plain: dict[str, list[float]] = {k: [] for k in sorted(set(labels))}
    for g in range(games):
        order = [(s + g) % n for s in range(n)]
        out = play_match(game, [policies[i] for i in order], seed * 7_919 + 10_000_000 + g,
                         config=cfg, policy_seed=("plain", seed, g))
        for k in plain:
            plain[k].append(_own(k, labels, order, out.returns))
    return plain


def _duplicate(game: str, policies: Sequence[Policy], labels: Sequence[str], sets: int,
               seed: int, cfg: dict[str, Any]) -> tuple[dict[str, list[float]],
                                                      list[list[float]], list[Any]]:
    """The duplicate arm: each name's mean edge per set, the first name's edge per game of
    each set, and ``(set, order, outcome, first chance action)`` per game."""
    rots = rotations(game, len(policies))
    dup: dict[str, list[float]] = {k: [] for k in sorted(set(labels))}
    firsts: list[list[float]] = []
    histories: list[Any] = []
    for b in range(sets):
        per: dict[str, list[float]] = {k: [] for k in dup}
        for r, order in enumerate(rots):
            deals: list[Action] = []
            out = play_match(game, [policies[i] for i in order], seed * 7_919 + b,
                             config=cfg, policy_seed=("dup", seed, b, r), on_chance=deals.append)
            histories.append((b, order, out, deals[0] if deals else None))
            for k in dup:
                per[k].append(_own(k, labels, order, out.returns))
        for k in dup:
            dup[k].append(statistics.fmean(per[k]))
        firsts.append(per[labels[0]])
    return dup, firsts, histories


def set_correlation(per_set: Sequence[Sequence[float]]) -> float | None:
    """The mean Pearson correlation between the games of a set over every pair of game
    positions (``per_set``: one edge per game, sets of equal size); ``None`` when a position's
    edges are all equal (no correlation is defined)."""
    size = len(per_set[0])
    cols = [[row[i] for row in per_set] for i in range(size)]
    try:
        pairs = [statistics.correlation(cols[i], cols[j])
                 for i in range(size) for j in range(i + 1, size)]
    except statistics.StatisticsError:
        return None
    return round(statistics.fmean(pairs), 3)


def run(game: str, lineup: Sequence[str | Policy], games: int, seed: int = 1,
        config: dict[str, Any] | None = None, unit: str = "board") -> dict[str, Any]:
    """Play ``games`` plain games and ``games`` duplicate games (rounded down to whole sets),
    each one board (``unit="board"``) or one whole match (``"match"``, :func:`unit_config`).

    ``lineup``: one built-in kind (``"rule"``, ``"random"``) or policy object per seat; seats
    of the same name are pooled (a Blot team).

    Returns ``{"game", "unit", "config", "games", "sets", "set_size", "bot", "interval", "plain":
    {name: ci}, "duplicate": {name: ci}, "ratio", "correlation", "histories"}`` (ci from
    :func:`t_interval` of the edge per game: own seats' mean return minus the others';
    ``ratio`` and ``correlation`` (:func:`set_correlation`) of the first name's (``bot``)
    edge; ``histories`` the
    duplicate games' ``(set, order, outcome, first chance action)``).

    Raises:
        ValueError: fewer than 2 sets' worth of games, a bad unit; what ``play_match`` raises.
    """
    n = len(lineup)
    size = set_size(game, n)
    sets = games // size
    if sets < 2:
        raise ValueError(f"--duplicate needs at least {2 * size} games, got {games}")
    cfg = unit_config(game, unit, config)
    rules_cfg = get_game(game).config(cfg)
    policies = [get_policy(game, k, rules_cfg) if isinstance(k, str) else k for k in lineup]
    labels = [_label(k) for k in lineup]
    p = {k: t_interval(v) for k, v in _plain(game, policies, labels, sets * size, seed,
                                             cfg).items()}
    dup, firsts, histories = _duplicate(game, policies, labels, sets, seed, cfg)
    d = {k: t_interval(v) for k, v in dup.items()}
    first = labels[0]
    ratio = p[first]["width"] / d[first]["width"] if d[first]["width"] else float("inf")
    return {"game": game, "unit": unit, "config": cfg, "games": sets * size, "sets": sets,
            "set_size": size, "bot": first,
            "interval": "95% Student t; unit: game (plain), set (duplicate)",
            "plain": p, "duplicate": d, "ratio": round(ratio, 2),
            "correlation": set_correlation(firsts), "histories": histories}


def format_result(result: dict[str, Any]) -> str:
    """Plain text: per bot, plain and duplicate edge [95% CI], then the width ratio and the
    within-set correlation."""
    lines = [f"{result['game']}: {result['games']} games each, one {result['unit']} per game; "
             f"duplicate in {result['sets']} sets of {result['set_size']} ({result['interval']})"]
    for k in result["plain"]:
        for arm in ("plain", "duplicate"):
            c = result[arm][k]
            lines.append(f"{k:<10}{arm:<10} edge {c['mean']:.3f} [{c['low']:.3f}, {c['high']:.3f}]"
                         f" width {c['width']:.3f}")
    lines.append(f"interval width ratio plain/duplicate ({result['bot']}): {result['ratio']}")
    lines.append(f"within-set correlation of {result['bot']}'s edge: {result['correlation']}")
    return "\n".join(lines)
