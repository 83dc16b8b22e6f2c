"""The ``cardhall`` command: replay histories, run self-play, serve the app.

Sub-commands:

* ``cardhall replay FILE [--seat N]`` (``design.md`` section 4) prints one JSON object with
  ``finished``, ``outcome`` and, with ``--seat``, ``view``, ``legal_actions`` and
  ``timeout_action``. An illegal action exits 1 naming its index and error code.
* ``cardhall verify FILE`` (``docs/fairness.md``) recomputes every chance action of a finished
  history from its revealed server seed and client seeds and checks the seed commitment; it
  prints ``{"verified", "shuffle", "chance_actions", "mismatches": [{"index", "reason"}],
  "copy", "checked", "not_checked"}`` and exits 0 when verified, 1 when not, 2 for a file that
  is not a readable history. A *table copy* (``"copy": "table"``: no seed, face-down cards) is
  checked as far as it can be (:func:`~cardhall.engine.check_table_copy`): exit 3 when
  nothing failed, ``not_checked`` names what needs the full copy.
* ``cardhall selfplay --game NAME --games N --seed S [--seats N] [--json]`` plays random games
  with invariant checks; exit 1 on any violation.
* ``cardhall serve [--host H] [--port P] [--workers N]`` starts the server (uvicorn) with
  settings from ``CARDHALL_*``; ``--workers`` > 1 needs cluster mode (``CARDHALL_REDIS_URL``,
  ``docs/scaling.md``) and exits 2 without it.
* ``cardhall arena --game NAME --bots A,B,... --games N [--url URL] [--concurrency K]
  [--turn-timeout S] [--json]`` plays bots against each other through a real server
  (``cardhall.arena``) and prints each bot's mean return with its 95% confidence interval.
* ``cardhall db upgrade [--url URL] [--revision REV]`` applies the Alembic migrations
  (the server also does this at start-up); the URL defaults to ``CARDHALL_DATABASE_URL``.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .engine import (
    EngineError,
    History,
    ReplayError,
    check_table_copy,
    is_table_copy,
    replay,
    verify_history,
)


def _load(path: str) -> Any:
    """The JSON document in ``path``. Raises ``OSError``, ``ValueError`` (bad JSON or UTF-8) or
    ``RecursionError`` (too deep nesting)."""
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def _replay(args: argparse.Namespace) -> int:
    try:
        doc = _load(args.file)
    except (OSError, ValueError, RecursionError) as exc:  # also bad UTF-8, too deep nesting
        msg = str(exc) or type(exc).__name__
        print(json.dumps({"error": {"code": "cli.bad_file", "message": msg}}))
        return 2
    try:
        state = replay(History.from_json(doc))
    except ReplayError as exc:
        err = {"code": exc.code, "index": exc.index, "message": exc.message}
        print(json.dumps({"error": err}))
        return 1
    except EngineError as exc:
        print(json.dumps({"error": {"code": exc.code, "message": exc.message}}))
        return 1
    out: dict[str, Any] = {
        "finished": state.is_over,
        "outcome": None if state.outcome is None else state.outcome.to_json(),
    }
    if args.seat is not None:
        if not 0 <= args.seat < state.num_seats:
            print(json.dumps({"error": {"code": "cli.bad_seat", "message": f"no seat {args.seat}"}}))
            return 2
        out["view"] = state.view(args.seat)
        out["legal_actions"] = state.legal_actions(args.seat)
        timer = state.timer_seat()
        out["timeout_action"] = state.timeout_action(args.seat) if timer == args.seat else None
    print(json.dumps(out, indent=2 if args.pretty else None, ensure_ascii=False))
    return 0


def _verify(args: argparse.Namespace) -> int:
    try:
        doc = _load(args.file)
    except (OSError, ValueError, RecursionError) as exc:
        return _error("cli.bad_file", str(exc) or type(exc).__name__, 2)
    try:
        result = check_table_copy(doc) if is_table_copy(doc) else verify_history(doc)
    except EngineError as exc:  # not a history, unreadable seeds, an unknown game
        return _error(exc.code, exc.message, 2)
    print(json.dumps(result.to_json(), indent=2 if args.pretty else None))
    if result.mismatches:
        return 1
    return 0 if result.verified else 3  # 3: a table copy, consistent as far as it goes


def _error(code: str, message: str, status: int) -> int:
    """Print ``{"error": {"code", "message"}}`` on stdout (the command's one JSON object)."""
    print(json.dumps({"error": {"code": code, "message": message}}))
    return status


def _selfplay(args: argparse.Namespace) -> int:
    from .selfplay import run

    try:
        report = run(args.game, args.games, args.seed, args.seats, check=not args.no_check,
                     probe=args.probe)
    except EngineError as exc:
        return _error(exc.code, exc.message, 2)
    data = report.to_json()
    if args.json:
        print(json.dumps(data))
    else:
        for k, v in data.items():
            print(f"{k:>20}: {v}")
    return 1 if report.violations else 0


def _serve(args: argparse.Namespace) -> int:
    from .server.main import serve

    return serve(host=args.host, port=args.port, workers=args.workers)


def _arena(args: argparse.Namespace) -> int:
    import asyncio

    import httpx

    from .arena import ArenaSpec, format_table, run
    from .client import ClientError

    try:
        config = json.loads(args.config)
    except ValueError as exc:
        return _error("cli.bad_config", f"--config is not JSON: {exc}", 2)
    spec = ArenaSpec(game=args.game, bots=args.bots.split(","), games=args.games,
                     seed=args.seed, url=args.url, concurrency=args.concurrency,
                     turn_timeout_seconds=args.turn_timeout, config=config,
                     stack=args.stack, store=args.store)
    try:
        result = asyncio.run(run(spec))
    except EngineError as exc:  # an unknown game (an EngineError is also a ValueError)
        return _error(exc.code, exc.message, 2)
    except ValueError as exc:  # a bot that cannot be loaded, a bad game count
        return _error("cli.bad_bot" if "bot " in str(exc) else "cli.bad_argument", str(exc), 2)
    except TimeoutError as exc:  # a game that did not end (TimeoutError is an OSError)
        return _error("cli.arena_failed", f"TimeoutError: {exc}".splitlines()[0], 1)
    except (OSError, httpx.HTTPError, ClientError) as exc:  # no server at --url, or it went
        where = args.url or "the in-process server"
        why = f"{type(exc).__name__}: {exc}".splitlines()[0]
        return _error("cli.server_unreachable", f"cannot play at {where}: {why}", 1)
    except RuntimeError as exc:  # a table could not be created
        return _error("cli.arena_failed", str(exc).splitlines()[0], 1)
    print(json.dumps(result) if args.json else format_table(result))
    return 0


def _db_upgrade(args: argparse.Namespace) -> int:
    import asyncio

    from .config import Settings
    from .storage.sql import upgrade_database

    url = args.url or Settings().database_url
    try:
        asyncio.run(upgrade_database(url, args.revision))
    except Exception as exc:  # any driver/URL/migration failure: one line, no traceback
        return _error("cli.db_error", f"{type(exc).__name__}: {exc}".splitlines()[0], 1)
    print(json.dumps({"upgraded": args.revision}))
    return 0


def _game_choices() -> list[str]:
    from .engine import game_names

    return game_names()


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _share(text: str) -> float:
    value = float(text)
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1, got {value}")
    return value


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="cardhall", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)

    r = sub.add_parser("replay", help="re-run a hand history and print the result as JSON")
    r.add_argument("file")
    r.add_argument("--seat", type=int, default=None, help="also print this seat's view")
    r.add_argument("--pretty", action="store_true", help="indent the JSON")
    r.set_defaults(func=_replay)

    f = sub.add_parser("verify", help="recompute a finished game's deals from its revealed seeds")
    f.add_argument("file")
    f.add_argument("--pretty", action="store_true", help="indent the JSON")
    f.set_defaults(func=_verify)

    s = sub.add_parser("selfplay", help="random self-play with invariant checks")
    s.add_argument("--game", required=True, help=f"one of {', '.join(_game_choices())}")
    s.add_argument("--games", type=_positive_int, default=100, help="games to play (default 100)")
    s.add_argument("--seed", type=int, default=1, help="default 1")
    s.add_argument("--seats", type=int, default=None, help="default: the game's minimum")
    s.add_argument("--json", action="store_true", help="one JSON object instead of lines")
    s.add_argument("--no-check", action="store_true", help="skip invariant checks (speed)")
    s.add_argument("--probe", type=_share, default=0.0,
                   help="share of steps at which unlisted actions are tried (0..1, default 0)")
    s.set_defaults(func=_selfplay)

    v = sub.add_parser("serve", help="start the server")
    v.add_argument("--host", default=None)
    v.add_argument("--port", type=int, default=None)
    v.add_argument("--workers", type=_positive_int, default=1,
                   help="worker processes (default 1; more needs CARDHALL_REDIS_URL, "
                        "docs/scaling.md)")
    v.set_defaults(func=_serve)

    a = sub.add_parser("arena", help="bots against bots through a real server")
    a.add_argument("--game", required=True)
    a.add_argument("--bots", required=True,
                   help="one per seat, comma-separated: random, rule or module:Class")
    a.add_argument("--games", type=int, default=100)
    a.add_argument("--seed", type=int, default=1, help="seeds the bots (deals are the server's)")
    a.add_argument("--url", default=None,
                   help="a running server's base URL (default: start one in-process)")
    a.add_argument("--concurrency", type=int, default=8, help="tables played at once")
    a.add_argument("--turn-timeout", type=float, default=5.0, help="seconds per decision")
    a.add_argument("--config", default="{}", help="partial rules config as JSON")
    a.add_argument("--stack", type=int, default=100, help="starting chips (poker games)")
    a.add_argument("--store", choices=["memory", "sqlite"], default="memory",
                   help="the in-process server's store")
    a.add_argument("--json", action="store_true", help="print one JSON object")
    a.set_defaults(func=_arena)

    d = sub.add_parser("db", help="database maintenance")
    dsub = d.add_subparsers(dest="db_command", required=True)
    u = dsub.add_parser("upgrade", help="apply the migrations (default: to head)")
    u.add_argument("--url", default=None, help="database URL (default: CARDHALL_DATABASE_URL)")
    u.add_argument("--revision", default="head")
    u.set_defaults(func=_db_upgrade)
    return p


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``cardhall`` console script; returns the exit code."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except BrokenPipeError:  # e.g. `cardhall replay FILE | head`
        sys.stderr.close()
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
