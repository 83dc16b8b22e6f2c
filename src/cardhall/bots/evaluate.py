"""In-process bot-vs-bot evaluation: the core of the future ``cardhall arena`` (issue 7).

:func:`play_match` plays one complete game (a poker hand, a Blot match) with one policy per
seat. Policies get only ``state.view(seat)`` and ``state.legal_actions(seat)`` (deep copies, so
a policy can never reach or change the state); chance comes from :class:`SeededShuffler`, and
everything is logged through :class:`Recorder`, so the same seed always gives the same game.

:func:`compare` plays many games in *duplicate* blocks: each block deals from one seed once per
seat rotation, so every policy sits in every seat with the same cards. The statistics treat a
block as one sample (the rotations of a block share their cards and are not independent) and
give 95% confidence intervals by the normal approximation (``mean ± z·s/√n`` with ``z`` from
:class:`statistics.NormalDist`), which is fair for the hundreds of blocks we run.

Run as ``python -m cardhall.bots.evaluate --game soldiers_bluff --bots rule,random --games 400``.
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import json
import math
import random
import statistics
from collections.abc import Callable, Sequence
from typing import Any

from ..engine import Action, Outcome, Recorder, SeatInfo, SeededShuffler, get_game, is_legal
from .base import Policy, get_policy

DEFAULT_STACK = 100
"""Starting chips per seat in the poker games (each game is one hand)."""
MAX_STEPS = 100_000


class PolicyError(RuntimeError):
    """A policy returned an action that matches none of its legal-action entries."""


def _seed_bytes(*parts: object) -> bytes:
    return hashlib.sha256(":".join(map(str, parts)).encode()).digest()


def play_match(
    game: str,
    policies: Sequence[Policy],
    seed: int,
    seats: int | None = None,
    config: dict[str, Any] | None = None,
    *,
    stacks: Sequence[int] | None = None,
    policy_seed: object = None,
    on_chance: Callable[[Action], None] | None = None,
) -> Outcome:
    """Play one complete game, seat ``i`` driven by ``policies[i]``.

    Args:
        game: registered game name.
        policies: one policy per seat.
        seed: fixes the dealer, the shuffles and (unless ``policy_seed`` is given) the policies'
            random sources.
        seats: number of seats; defaults to ``len(policies)`` and must equal it.
        config: partial rules config (defaults otherwise).
        stacks: starting chips (poker games); default ``DEFAULT_STACK`` each.
        policy_seed: extra salt for the policies' random sources (``compare`` passes the
            rotation so the same policy in another seat draws differently).
        on_chance: called with each chance action (a deal) as it is applied, in order
            (``cardhall arena --duplicate`` keeps each game's first deal).

    Only the seat whose turn it is (``to_act()[0]``) is asked; out-of-turn calls (Blot's
    contra) are made, if at all, on the seat's own turn.

    Returns:
        The game's :class:`Outcome`.

    Raises:
        ValueError: ``seats`` and ``policies`` disagree.
        PolicyError: a policy returned an illegal action (names seat, policy and action).
        RuntimeError: the game did not end within ``MAX_STEPS`` actions.
    """
    n = len(policies) if seats is None else seats
    if n != len(policies):
        raise ValueError(f"{n} seats but {len(policies)} policies")
    rules = get_game(game)
    cfg = rules.config(config or {})
    dealer = random.Random(_seed_bytes("dealer", game, seed)).randrange(n)
    if rules.uses_stacks:
        stacks = list(stacks) if stacks is not None else [DEFAULT_STACK] * n
    else:
        stacks = None
    infos = [SeatInfo(f"{getattr(p, 'name', 'bot')}-{i}", bot=True) for i, p in enumerate(policies)]
    rec = Recorder(rules, cfg, infos, dealer, stacks)
    shuffle = SeededShuffler(_seed_bytes("deal", game, seed))
    salt = seed if policy_seed is None else policy_seed
    rngs = [random.Random(_seed_bytes("policy", salt, i)) for i in range(n)]
    state = rec.state
    for _ in range(MAX_STEPS):
        if state.outcome is not None:
            return state.outcome
        if state.chance_due():
            chance = state.chance_action(shuffle)
            rec.act(None, chance)
            if on_chance is not None:
                on_chance(chance)
            continue
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        action = policies[seat].choose(copy.deepcopy(state.view(seat)), copy.deepcopy(legal), rngs[seat])
        if not is_legal(legal, action):
            name = getattr(policies[seat], "name", type(policies[seat]).__name__)
            raise PolicyError(f"policy {name!r} at seat {seat} chose {action!r}, legal: {legal!r}")
        rec.act(seat, action)
    if state.outcome is not None:
        return state.outcome
    raise RuntimeError(f"{game} seed {seed} did not end within {MAX_STEPS} actions")


def interval(samples: list[float]) -> dict[str, float]:
    """Mean and 95% normal-approximation confidence interval of ``samples``."""
    mean = statistics.fmean(samples)
    half = 0.0
    if len(samples) > 1:
        z = statistics.NormalDist().inv_cdf(0.975)
        half = z * statistics.stdev(samples) / len(samples) ** 0.5
    return {"mean": round(mean, 4), "low": round(mean - half, 4), "high": round(mean + half, 4)}


def wilson(samples: list[float]) -> dict[str, float]:
    """Mean and 95% Wilson score interval of ``samples``, each in [0, 1] (a win rate: 1 a
    win, 0.5 a tie, 0 a loss). Unlike the normal approximation the interval never leaves
    [0, 1] and is not empty at a rate of 0 or 1: with ``p`` the mean of ``n`` samples and
    ``z`` the 97.5% normal quantile, centre ``(p + z²/2n) / (1 + z²/n)``, half-width
    ``z/(1 + z²/n) · √(p(1-p)/n + z²/4n²)``."""
    n = len(samples)
    p = statistics.fmean(samples)
    z = statistics.NormalDist().inv_cdf(0.975)
    scale = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / scale
    half = z / scale * math.sqrt(max(0.0, p * (1 - p)) / n + z * z / (4 * n * n))
    return {"mean": round(p, 4), "low": round(max(0.0, centre - half), 4),
            "high": round(min(1.0, centre + half), 4)}


def _resolve(lineup: Sequence[str | Policy], game: str, config: Any = None) -> list[Policy]:
    return [get_policy(game, p, config) if isinstance(p, str) else p for p in lineup]


def compare(
    game: str,
    lineup: Sequence[str | Policy],
    games: int,
    seed: int,
    *,
    config: dict[str, Any] | None = None,
    stacks: Sequence[int] | None = None,
) -> dict[str, Any]:
    """Play ``games`` games of ``lineup`` (one policy or built-in kind per seat), rotating seats.

    Game ``g`` belongs to block ``g // n`` (its cards come from ``seed`` and the block) and
    seats ``lineup`` rotated by ``g % n``. Seats with the same policy name are pooled (a Blot
    team). Per name and block it averages: ``mean_return`` (the seats' returns: chips in poker,
    the team's match total in Blot), ``edge`` (that minus the mean return of the other seats)
    and ``win_rate`` (1 if its seats' mean return beat the others', ½ on a tie, else 0).

    Returns:
        ``{"game", "games", "blocks", "seed", "lineup", "ci", "policies": {name: {"seats",
        "mean_return", "edge", "win_rate"}}}``, each statistic as ``{"mean", "low", "high"}``
        (95% normal-approximation interval over blocks).

    Raises:
        ValueError: ``games < 1``; what :func:`play_match` raises.
    """
    if games < 1:
        raise ValueError(f"games must be >= 1, got {games}")
    policies = _resolve(lineup, game, get_game(game).config(config or {}))
    names = [p.name for p in policies]
    n = len(policies)
    labels = sorted(set(names))
    blocks: dict[int, dict[str, list[list[float]]]] = {}
    for g in range(games):
        block, rot = divmod(g, n)
        order = [(i + rot) % n for i in range(n)]
        outcome = play_match(game, [policies[k] for k in order], seed * 1_000_003 + block,
                             config=config, stacks=stacks, policy_seed=(seed, g))
        per = blocks.setdefault(block, {name: [[], [], []] for name in labels})
        for name in labels:
            mine = [outcome.returns[s] for s in range(n) if names[order[s]] == name]
            rest = [outcome.returns[s] for s in range(n) if names[order[s]] != name]
            own = statistics.fmean(mine)
            other = statistics.fmean(rest) if rest else 0.0
            per[name][0].append(own)
            per[name][1].append(own - other)
            per[name][2].append(1.0 if own > other else 0.5 if own == other else 0.0)
    result: dict[str, Any] = {
        "game": game, "games": games, "blocks": len(blocks), "seed": seed, "lineup": names,
        "ci": "95% normal approximation over duplicate blocks (statistics.NormalDist)",
        "policies": {},
    }
    for name in labels:
        stats = [[statistics.fmean(b[name][k]) for b in blocks.values()] for k in range(3)]
        result["policies"][name] = {
            "seats": names.count(name),
            "mean_return": interval(stats[0]),
            "edge": interval(stats[1]),
            "win_rate": wilson(stats[2]),
        }
    return result


def format_table(result: dict[str, Any]) -> str:
    """A plain-text results table of a :func:`compare` result."""
    lines = [f"{result['game']}: {result['games']} games in {result['blocks']} blocks, "
             f"seed {result['seed']}, lineup {','.join(result['lineup'])}",
             *result_rows("policy", result["policies"], 10), f"({result['ci']})"]
    return "\n".join(lines)


def result_rows(label: str, stats: dict[str, dict[str, Any]], width: int) -> list[str]:
    """The header and one row per name: seats, mean return, edge and win rate, each
    ``mean [low, high]`` (the 95% interval of :func:`interval`)."""
    rows = [f"{label:<{width}}{'seats':>6}  {'mean return [95% CI]':<32}{'edge [95% CI]':<32}"
            "win rate [95% CI]"]
    for name, s in stats.items():
        cells = [f"{s[k]['mean']:.3f} [{s[k]['low']:.3f}, {s[k]['high']:.3f}]"
                 for k in ("mean_return", "edge", "win_rate")]
        rows.append(f"{name:<{width}}{s['seats']:>6}  {cells[0]:<32}{cells[1]:<32}{cells[2]}")
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m cardhall.bots.evaluate``: print a :func:`compare` table (or JSON)."""
    ap = argparse.ArgumentParser(prog="python -m cardhall.bots.evaluate", description=__doc__)
    ap.add_argument("--game", required=True)
    ap.add_argument("--bots", required=True, help="comma-separated kinds, one per seat")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--config", default="{}", help="partial rules config as JSON")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    result = compare(args.game, args.bots.split(","), args.games, args.seed,
                     config=json.loads(args.config))
    print(json.dumps(result, indent=2) if args.json else format_table(result))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
