"""``cardhall replay``: re-run a hand history and print the result as one JSON object."""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..engine import EngineError, History, ReplayError
from ..engine import replay as replay_history
from .output import fail


def load(path: str) -> Any:
    """The JSON document in ``path``. Raises ``OSError``, ``ValueError`` (bad JSON or UTF-8) or
    ``RecursionError`` (too deep nesting)."""
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def replay(args: argparse.Namespace) -> int:
    """``{"finished", "outcome"}`` and with ``--seat`` ``view``, ``legal_actions`` and
    ``timeout_action``; exit 1 for an illegal action (``--json``: the error names its
    ``index``), 2 for a file that is not JSON or a seat the game does not have."""
    try:
        doc = load(args.file)
    except (OSError, ValueError, RecursionError) as exc:  # also bad UTF-8, too deep nesting
        return fail(args, "cli.bad_file", str(exc) or type(exc).__name__, 2)
    try:
        state = replay_history(History.from_json(doc))
    except ReplayError as exc:
        if args.json:
            err = {"code": exc.code, "index": exc.index, "message": exc.message}
            print(json.dumps({"error": err}))
            return 1
        return fail(args, exc.code, f"action {exc.index}: {exc.message}", 1)
    except EngineError as exc:
        return fail(args, exc.code, exc.message, 1)
    out: dict[str, Any] = {
        "finished": state.is_over,
        "outcome": None if state.outcome is None else state.outcome.to_json(),
    }
    if args.seat is not None:
        if not 0 <= args.seat < state.num_seats:
            return fail(args, "cli.bad_seat", f"no seat {args.seat}", 2)
        out["view"] = state.view(args.seat)
        out["legal_actions"] = state.legal_actions(args.seat)
        timer = state.timer_seat()
        out["timeout_action"] = state.timeout_action(args.seat) if timer == args.seat else None
    print(json.dumps(out, indent=2 if args.pretty else None, ensure_ascii=False))
    return 0
