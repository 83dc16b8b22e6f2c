"""The cardhall command: replay and verify histories, run self-play and bot arenas, serve.

Sub-commands (each ``--help`` gives an example; one module each, this one builds the parser):

* ``cardhall replay FILE [--seat N]`` (``design.md`` section 4, :mod:`.replay`) prints one
  JSON object with ``finished``, ``outcome`` and, with ``--seat``, ``view``,
  ``legal_actions`` and ``timeout_action``. An illegal action exits 1 naming its index and
  error code.
* ``cardhall verify [FILE | DIR | -] ...`` (``docs/fairness.md``, :mod:`.verify`) recomputes
  every chance action of finished histories from their revealed seeds: one line per game and a
  summary, exit the worst game's status (0 verified, 3 a table copy, 2 unreadable, 1 a
  mismatch). Reads the players' NDJSON export on stdin (``--url`` fetches the histories).
* ``cardhall selfplay --game NAME --games N --seed S [--seats N] [--json]`` plays random games
  with invariant checks (:mod:`.play`); exit 1 on any violation.
* ``cardhall serve [--host H] [--port P] [--workers N]`` starts the server (uvicorn) with
  settings from ``CARDHALL_*``; ``--workers`` > 1 needs cluster mode (``CARDHALL_REDIS_URL``,
  ``docs/scaling.md``) and exits 2 without it.
* ``cardhall arena --game NAME --bots A,B,... --games N [--url URL] [--json]`` plays bots
  against each other through a real server (``cardhall.arena``) and prints each bot's mean
  return with its 95% confidence interval; a terminal sees the standings live.
* ``cardhall db upgrade [--url URL] [--revision REV]`` applies the Alembic migrations
  (:mod:`.db`; the server also does this at start-up); ``db downgrade REV`` refuses to drop
  data unless ``--allow-data-loss``; ``db backup FILE`` / ``db restore FILE`` (SQLite).

Output (:mod:`.output`): ``--json`` makes stdout one JSON object (``verify`` of many games:
one per line, then a summary), errors included (``{"error": {"code", "message"}}``, a stable
code); without it errors are one readable line on stderr. Long commands draw a progress bar
on stderr when it is a terminal (``--quiet`` turns it off). ``replay`` always prints JSON.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from typing import Any

from .output import add_output_flags

WIDTH = 78
"""Where the help's descriptions wrap (they and the examples are printed as written)."""


def _description() -> str:
    """The top help's first lines, naming the registered games."""
    from ..engine import game_names, get_game

    titles = ", ".join(get_game(name).title for name in game_names())
    return (f"cardhall: a multiplayer card-game server ({titles}). Replay and verify game "
            "histories, play random self-play and bot arenas, serve the hall.")


def _example_selfplay() -> str:
    """A self-play example: the registered game with the most seats, at six or its most."""
    from ..engine import game_names, get_game

    rules = max((get_game(name) for name in game_names()), key=lambda r: r.max_seats)
    return f"cardhall selfplay --game {rules.name} --seats {min(6, rules.max_seats)} --games 3000"


def _example_arena(seats: int) -> str:
    """An arena example: the first registered game that seats ``seats`` (else the first),
    rule and random bots taking turns round the table."""
    from ..engine import game_names, get_game

    games = [get_game(name) for name in game_names()]
    rules = next((r for r in games if r.min_seats <= seats <= r.max_seats), games[0])
    n = max(rules.min_seats, min(seats, rules.max_seats))
    bots = ",".join(("rule", "random")[i % 2] for i in range(n))
    return f"cardhall arena --game {rules.name} --bots {bots} --games 200"


def _epilog() -> str:
    """The top help's examples (from the registry, so each names a game that exists)."""
    return f"""examples:
  {_example_selfplay()}
  {_example_arena(4)}
  cardhall verify saved-games/
  cardhall SUBCOMMAND --help      (each with an example)

--json: stdout is JSON for scripts, errors too; progress goes to stderr, only on a terminal."""


class _Version(argparse.Action):
    """``--version``: the package version and the wire protocol's, then exit 0."""

    def __init__(self, option_strings: list[str], dest: str, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, help="show the versions and exit")

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        from .. import __version__
        from ..protocol.messages import PROTOCOL_VERSION

        print(f"cardhall {__version__} (protocol {PROTOCOL_VERSION})")
        parser.exit()


Subparsers = argparse._SubParsersAction


def _add(sub: Subparsers, name: str, summary: str, description: str,
         *examples: str) -> argparse.ArgumentParser:
    """A sub-command parser whose help ends with its examples."""
    head = "examples:" if len(examples) > 1 else "example:"
    parser: argparse.ArgumentParser = sub.add_parser(
        name, help=summary, description=textwrap.fill(description, WIDTH),
        epilog="\n  ".join((head, *examples)),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    return parser


def _game_choices() -> list[str]:
    from ..engine import game_names

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


def _replay_parser(sub: Subparsers) -> None:
    from .replay import replay

    r = _add(sub, "replay", "re-run a hand history and print the result as JSON",
             "Re-run a hand history through the rules and print one JSON object: finished, "
             "outcome and, with --seat, that seat's view, legal actions and timeout action.",
             "cardhall replay game.json --seat 1 --pretty")
    r.add_argument("file")
    r.add_argument("--seat", type=int, default=None, help="also print this seat's view")
    r.add_argument("--pretty", action="store_true", help="indent the JSON")
    r.add_argument("--json", action="store_true",
                   help="errors as one JSON object on stdout too (the result is always JSON)")
    r.set_defaults(func=replay)


def _verify_parser(sub: Subparsers) -> None:
    from .verify import verify

    f = _add(sub, "verify", "recompute finished games' deals from their revealed seeds",
             "Recompute every deal of finished games from their revealed seeds and check the "
             "seed commitment (docs/fairness.md). One line per game and a summary; exit 0 all "
             "verified, 3 a table copy (checked as far as it goes), 2 unreadable, 1 a "
             "mismatch (the worst game's).",
             "cardhall verify game.json other.json saved-games/",
             "curl -s $URL/api/players/$ID/games.ndjson | cardhall verify --url $URL "
             "--token $TOKEN")
    f.add_argument("files", nargs="*", metavar="FILE",
                   help="history files, NDJSON files, directories, or - for standard input "
                        "(the default when it is not a terminal)")
    f.add_argument("--url", default=None,
                   help="server to fetch the histories of export lines (games.ndjson) from")
    f.add_argument("--token", default=None,
                   help="bearer token for the full copies (default: CARDHALL_TOKEN)")
    f.add_argument("--pretty", action="store_true", help="indent the JSON of a single game")
    add_output_flags(f, json_help="JSON: one object per game and a summary (one game: its "
                                  "object alone)")
    f.set_defaults(func=verify)


def _selfplay_parser(sub: Subparsers) -> None:
    from .play import selfplay

    s = _add(sub, "selfplay", "random self-play with invariant checks",
             "Play random games with every invariant checked after each step; exit 1 on any "
             "violation.", _example_selfplay())
    s.add_argument("--game", required=True, help=f"one of {', '.join(_game_choices())}")
    s.add_argument("--games", type=_positive_int, default=100, help="games to play (default 100)")
    s.add_argument("--seed", type=int, default=1, help="default 1")
    s.add_argument("--seats", type=int, default=None, help="default: the game's minimum")
    s.add_argument("--no-check", action="store_true", help="skip invariant checks (speed)")
    s.add_argument("--probe", type=_share, default=0.0,
                   help="share of steps at which unlisted actions are tried (0..1, default 0)")
    add_output_flags(s, json_help="one JSON object instead of lines")
    s.set_defaults(func=selfplay)


def _serve_parser(sub: Subparsers) -> None:
    v = _add(sub, "serve", "start the server",
             "Start the server with settings from CARDHALL_* (README).",
             "CARDHALL_DATABASE_URL=sqlite+aiosqlite:///hall.db cardhall serve --port 8000")
    v.add_argument("--host", default=None)
    v.add_argument("--port", type=int, default=None)
    v.add_argument("--workers", type=_positive_int, default=1,
                   help="worker processes (default 1; more needs CARDHALL_REDIS_URL, "
                        "docs/scaling.md)")
    v.set_defaults(func=_serve)


def _serve(args: argparse.Namespace) -> int:
    from ..server.main import serve

    return serve(host=args.host, port=args.port, workers=args.workers)


def _arena_parser(sub: Subparsers) -> None:
    from .play import arena

    a = _add(sub, "arena", "bots against bots through a real server",
             "Play bots against each other through a real server and print each bot's mean "
             "return, edge and win rate with 95% intervals; a terminal sees the standings "
             "live.", _example_arena(2))
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
    a.add_argument("--duplicate", action="store_true",
                   help="play in-process plain and duplicate sets (same seeded deal, seats "
                   "rotated) at the same number of games and compare their 95%% intervals")
    a.add_argument("--unit", choices=["board", "match"], default=None,
                   help="with --duplicate: each game is one board (one deal or hand, the "
                   "game's tournament board config; default) or a whole match")
    add_output_flags(a, json_help="print one JSON object")
    a.set_defaults(func=arena)


def _db_parser(sub: Subparsers) -> None:
    from .db import backup, downgrade, restore, stamp, upgrade

    d = _add(sub, "db", "database maintenance", "Database maintenance.",
             "cardhall db upgrade --url sqlite+aiosqlite:///hall.db")
    dsub = d.add_subparsers(dest="db_command", required=True)
    u = _add(dsub, "upgrade", "apply the migrations (default: to head)",
             "Apply the migrations, one at a time (the server also does this at start-up).",
             "cardhall db upgrade --url sqlite+aiosqlite:///hall.db")
    u.add_argument("--url", default=None, help="database URL (default: CARDHALL_DATABASE_URL)")
    u.add_argument("--revision", default="head")
    add_output_flags(u, json_help="print one JSON object")
    u.set_defaults(func=upgrade)
    g = _add(dsub, "downgrade", "go back to a revision, refusing to drop data",
             "Downgrade to REVISION. First plans what it would drop (on a throw-away copy) and "
             "refuses when a dropped table or column holds data, unless --allow-data-loss.",
             "cardhall db downgrade 0005 --dry-run --url sqlite+aiosqlite:///hall.db")
    g.add_argument("revision", help="target revision (e.g. 0005, base)")
    g.add_argument("--url", default=None, help="database URL (default: CARDHALL_DATABASE_URL)")
    g.add_argument("--dry-run", action="store_true", help="only say what it would drop")
    g.add_argument("--allow-data-loss", action="store_true",
                   help="drop tables and columns that hold data")
    add_output_flags(g, json_help="print one JSON object")
    g.set_defaults(func=downgrade)
    t = _add(dsub, "stamp", "record a revision without running migrations",
             "Record REVISION as the database's, running nothing: the repair of a database "
             "stamped at a revision it never ran (docs/operations.md, 'Schema drift'); then "
             "`cardhall db upgrade`.", "cardhall db stamp 0004 --url sqlite+aiosqlite:///hall.db")
    t.add_argument("revision", help="the revision the database really is at")
    t.add_argument("--url", default=None, help="database URL (default: CARDHALL_DATABASE_URL)")
    add_output_flags(t, json_help="print one JSON object")
    t.set_defaults(func=stamp)
    for name, func, summary, text, example in (
            ("backup", backup, "copy the live SQLite database to a new file",
             "Copy the live SQLite database (the server may keep running) to FILE.",
             "cardhall db backup backups/hall-2026-12-02.db"),
            ("restore", restore, "put a SQLite backup in place of the database",
             "Put the backup FILE in place of the SQLite database (stop the server first; the "
             "replaced file is kept beside it).", "cardhall db restore backups/hall.db")):
        b = _add(dsub, name, summary, text, example)
        b.add_argument("file")
        b.add_argument("--url", default=None,
                       help="database URL (default: CARDHALL_DATABASE_URL)")
        add_output_flags(b, json_help="print one JSON object")
        b.set_defaults(func=func)


def build_parser() -> argparse.ArgumentParser:
    """The ``cardhall`` argument parser (every sub-command)."""
    p = argparse.ArgumentParser(prog="cardhall", description=textwrap.fill(_description(), WIDTH),
                                epilog=_epilog(),
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", action=_Version)
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in (_replay_parser, _verify_parser, _selfplay_parser, _serve_parser,
                _arena_parser, _db_parser):
        add(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``cardhall`` console script; returns the exit code."""
    args = build_parser().parse_args(argv)
    from pydantic import ValidationError

    try:
        return int(args.func(args))
    except BrokenPipeError:  # e.g. `cardhall replay FILE | head`
        sys.stderr.close()
        return 0
    except ValidationError as exc:  # a CARDHALL_* setting refused: one line, no traceback
        from .output import fail

        return fail(args, "cli.bad_settings", settings_error(exc), 2)


def settings_error(exc: Any) -> str:
    """A pydantic ``ValidationError`` of :class:`~cardhall.config.Settings` as one line naming
    each refused environment variable (``CARDHALL_PORT: Input should be a valid integer``)."""
    parts = []
    for err in exc.errors():
        field = ".".join(str(x) for x in err.get("loc", ()))
        name = f"CARDHALL_{field.upper()}" if field else "settings"
        parts.append(f"{name}: {err.get('msg', 'invalid')}")
    return "; ".join(parts)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
