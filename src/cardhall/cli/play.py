"""``cardhall selfplay`` and ``cardhall arena``: the commands that play many games, each with a
progress bar on a terminal (:mod:`.output`); the arena's also shows the standings so far."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from ..engine import EngineError
from .output import fail, live, progress

if TYPE_CHECKING:
    from rich.table import Table


def selfplay(args: argparse.Namespace) -> int:
    """Random self-play with invariant checks; exit 1 on any violation, 2 on a bad game or
    seat count."""
    from ..selfplay import run

    try:
        with progress(args, f"selfplay {args.game}", args.games) as advance:
            report = run(args.game, args.games, args.seed, args.seats, check=not args.no_check,
                         probe=args.probe, on_game=advance)
    except EngineError as exc:
        return fail(args, exc.code, exc.message, 2)
    data = report.to_json()
    if args.json:
        print(json.dumps(data))
    else:
        for k, v in data.items():
            print(f"{k:>20}: {v}")
    return 1 if report.violations else 0


def standings(lineup: list[str], played: list[dict[str, Any]]) -> Table:
    """The live standings: per bot, its seats, the games so far and its mean return and win
    rate, each with its 95% interval (:func:`cardhall.arena.summarize`)."""
    from rich.table import Table

    from ..arena import summarize

    table = Table("bot", "seats", "games", "mean return [95% CI]", "win rate [95% CI]",
                  box=None, pad_edge=False)
    if not played:
        for name in sorted(set(lineup)):
            table.add_row(name, str(lineup.count(name)), "0", "", "")
        return table
    for name, s in summarize(lineup, played).items():
        cells = [f"{s[k]['mean']:.3f} [{s[k]['low']:.3f}, {s[k]['high']:.3f}]"
                 for k in ("mean_return", "win_rate")]
        table.add_row(name, str(s["seats"]), str(len(played)), *cells)
    return table


def arena(args: argparse.Namespace) -> int:
    """Bots against bots through a real server (:mod:`cardhall.arena`); the plain-text table
    (or with ``--json`` the result object) on stdout."""
    import asyncio

    import httpx

    from ..arena import ArenaSpec, format_table, run
    from ..client import ClientError

    try:
        config = json.loads(args.config)
    except ValueError as exc:
        return fail(args, "cli.bad_config", f"--config is not JSON: {exc}", 2)
    if getattr(args, "duplicate", False):
        return duplicate(args, config)
    if getattr(args, "unit", None) is not None:
        return fail(args, "cli.bad_argument", "--unit is a flag of --duplicate only", 2)
    spec = ArenaSpec(game=args.game, bots=args.bots.split(","), games=args.games,
                     seed=args.seed, url=args.url, concurrency=args.concurrency,
                     turn_timeout_seconds=args.turn_timeout, config=config,
                     stack=args.stack, store=args.store)
    lineup: list[str] = list(spec.bots)
    played: list[dict[str, Any]] = []

    try:
        with live(args, f"arena {args.game}", args.games,
                  lambda: standings(lineup, played)) as advance:

            def on_game(game: dict[str, Any]) -> None:
                played.append(game)
                if advance is not None:
                    advance()

            result = asyncio.run(run(spec, on_game=on_game))
    except EngineError as exc:  # an unknown game (an EngineError is also a ValueError)
        return fail(args, exc.code, exc.message, 2)
    except ValueError as exc:  # a bot that cannot be loaded, a bad game count
        return fail(args, "cli.bad_bot" if "bot " in str(exc) else "cli.bad_argument",
                    str(exc), 2)
    except TimeoutError as exc:  # a game that did not end (TimeoutError is an OSError)
        return fail(args, "cli.arena_failed", f"TimeoutError: {exc}".splitlines()[0], 1)
    except (OSError, httpx.HTTPError, ClientError) as exc:  # no server at --url, or it went
        where = args.url or "the in-process server"
        why = f"{type(exc).__name__}: {exc}".splitlines()[0]
        return fail(args, "cli.server_unreachable", f"cannot play at {where}: {why}", 1)
    except RuntimeError as exc:  # a table could not be created
        return fail(args, "cli.arena_failed", str(exc).splitlines()[0], 1)
    print(json.dumps(result) if args.json else format_table(result))
    return 0


def duplicate(args: argparse.Namespace, config: dict[str, Any]) -> int:
    """``cardhall arena --duplicate`` (:mod:`cardhall.bots.duplicate`): in-process, seeded
    deals, each game one board or match (``--unit``); exit 2 with a typed error on ``--url``,
    a bad game, bot or game count, or a game without a board."""
    from ..bots.duplicate import format_result, run

    if args.url:
        return fail(args, "cli.bad_argument",
                    "--duplicate plays in-process (a server keeps its seeds secret); drop --url",
                    2)
    try:
        result = run(args.game, args.bots.split(","), args.games, args.seed, config,
                     unit=args.unit or "board")
    except EngineError as exc:
        return fail(args, exc.code, exc.message, 2)
    except (ValueError, KeyError) as exc:
        code = "cli.bad_bot" if "bot" in str(exc) or "polic" in str(exc) else "cli.bad_argument"
        return fail(args, code, str(exc).strip("'"), 2)
    result.pop("histories")
    print(json.dumps(result) if args.json else format_result(result))
    return 0
