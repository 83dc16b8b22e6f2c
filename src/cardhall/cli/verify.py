"""``cardhall verify``: recompute finished games' deals from their revealed seeds
(``docs/fairness.md``), over any number of games.

Inputs, in the order given: files holding one ``cardhall-history/1`` document or several
(NDJSON: one a line, or simply one after the other), directories (every ``.json``,
``.ndjson`` and ``.jsonl`` file under them, sorted), and ``-`` for standard input, read the
same way; no argument at all reads standard input when it is not a terminal. A line of a player's export (``GET /api/players/{id}/games.ndjson``: a
game summary, no history) is fetched from ``--url`` (``GET /api/games/{id}``, with
``?full=1`` when a ``--token`` is given: the full copy for a player of the game, otherwise the
table copy, or the full copy once the server publishes it) and checked like a file.

Each game's status: 0 verified, 3 a table copy consistent as far as it goes, 2 unreadable (not
JSON, not a history, a summary that could not be fetched), 1 a mismatch. The command exits
with the worst of them, ranked ``0 < 3 < 2 < 1`` (a mismatch is the alarm).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

from ..engine import EngineError, check_table_copy, is_table_copy, verify_history
from .output import fail, progress, shown

RANK = {0: 0, 3: 1, 2: 2, 1: 3}
"""Exit status -> how bad it is; the command exits with the worst."""
SUFFIXES = (".json", ".ndjson", ".jsonl")
"""What a directory's files must end with to be read."""
LABELS = {0: "verified", 1: "MISMATCH", 2: "unreadable", 3: "table copy"}


@dataclass
class Item:
    """One game to check: where it came from (``path`` or ``path:line``), and its parsed
    document or why there is none (``error``: ``(code, message)``)."""

    source: str
    doc: Any = None
    error: tuple[str, str] | None = None


@dataclass
class Inputs:
    """The games read from the arguments; ``single``: the input was one JSON document (then
    ``--json`` prints that game's object alone, as the one-file command always did)."""

    items: list[Item] = field(default_factory=list)
    single: bool = False


def _split(text: str, source: str) -> tuple[list[Item], bool]:
    """The games of ``text``: JSON documents one after the other (one document, NDJSON, or
    documents simply concatenated), each labelled ``source:line``; a single document keeps
    ``source`` alone. A document that does not parse is an unreadable item and reading goes
    on at the next line."""
    decoder, items, at = json.JSONDecoder(), [], 0
    number, counted = 1, 0  # the line number at ``counted`` (newlines are counted once)
    while True:
        while at < len(text) and text[at].isspace():
            at += 1
        if at >= len(text):
            break
        number, counted = number + text.count("\n", counted, at), at
        where = f"{source}:{number}"
        try:
            doc, at = decoder.raw_decode(text, at)
        except (ValueError, RecursionError) as exc:
            items.append(Item(where, error=("cli.bad_file", f"not JSON: {exc}")))
            newline = text.find("\n", at)
            if newline < 0:
                break
            at = newline + 1
        else:
            items.append(Item(where, doc))
    if not items:
        return [Item(source, error=("cli.bad_file", "empty: no JSON document"))], True
    if len(items) == 1:
        items[0].source = source
    return items, len(items) == 1


def _read(path: Path) -> tuple[list[Item], bool]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, ValueError) as exc:  # missing, unreadable, not UTF-8
        return [Item(str(path), error=("cli.bad_file", str(exc) or type(exc).__name__))], True
    return _split(text, str(path))


def collect(names: list[str]) -> Inputs:
    """Read every argument (module docstring); ``[]`` means standard input."""
    out = Inputs()
    parts: list[tuple[list[Item], bool]] = []
    for name in names or ["-"]:
        path = Path(name)
        if name == "-":
            parts.append(_split(sys.stdin.read(), "-"))
        elif path.is_dir():
            for f in sorted(p for p in path.rglob("*") if p.is_file() and p.suffix in SUFFIXES):
                parts.append(_read(f))
        else:
            parts.append(_read(path))
    for items, _ in parts:
        out.items += items
    out.single = len(parts) == 1 and parts[0][1] and len(out.items) == 1
    return out


def is_summary(doc: Any) -> bool:
    """Whether ``doc`` is a line of a player's export (a game summary, no ``actions``)."""
    return (isinstance(doc, dict) and "actions" not in doc and isinstance(doc.get("id"), str)
            and "table_id" in doc and "seats" in doc)


class Fetcher:
    """Fetches a summary's history from ``url`` (module docstring); one HTTP client for all."""

    def __init__(self, url: str | None, token: str | None) -> None:
        self.url, self.token = url, token
        self.http: Any = None

    def history(self, game_id: str) -> tuple[Any, tuple[str, str] | None]:
        """``(document, None)`` or ``(None, (code, message))``."""
        if self.url is None:
            return None, ("cli.needs_url", f"game {game_id} is an export line without its "
                                           "history: give --url (and --token) to fetch it")
        import httpx

        if self.http is None:
            self.http = httpx.Client(base_url=self.url.rstrip("/"), timeout=30.0)
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        params = {"full": "1"} if self.token else {}
        try:
            r = self.http.get(f"/api/games/{quote(game_id, safe='')}", params=params,
                              headers=headers)
            body = r.json()
        except (httpx.HTTPError, ValueError) as exc:
            why = f"{type(exc).__name__}: {exc}".splitlines()[0]
            return None, ("cli.server_unreachable", f"cannot fetch game {game_id}: {why}")
        if r.status_code != 200:
            err = body.get("error", {}) if isinstance(body, dict) else {}
            return None, (str(err.get("code", "cli.fetch_failed")),
                          f"GET /api/games/{game_id}: {r.status_code} {err.get('message', '')}")
        return body, None

    def close(self) -> None:
        if self.http is not None:
            self.http.close()


def check(item: Item, fetcher: Fetcher) -> dict[str, Any]:
    """The result of one game: ``{"source", "game_id", "game", "status"}`` and either the
    verification's fields (``verified``, ``mismatches``, ...) or ``error``."""
    doc, error = item.doc, item.error
    if error is None and is_summary(doc):
        doc, error = fetcher.history(doc["id"])
    out: dict[str, Any] = {"source": item.source}
    if isinstance(doc, dict):
        out |= {"game_id": doc.get("id"), "game": doc.get("game")}
    if error is None:
        try:
            result = check_table_copy(doc) if is_table_copy(doc) else verify_history(doc)
        except EngineError as exc:  # not a history, unreadable seeds, an unknown game
            error = (exc.code, exc.message)
        else:
            status = 1 if result.mismatches else 0 if result.verified else 3
            return out | {"status": status, **result.to_json()}
    return out | {"status": 2, "error": {"code": error[0], "message": error[1]}}


def line(r: dict[str, Any]) -> str:
    """One readable line for the result ``r`` of :func:`check`, its control characters
    escaped (:func:`~.output.shown`: the game's own id, name and messages must not rewrite
    the terminal)."""
    name = " ".join(str(x) for x in (r.get("game"), r.get("game_id")) if x)
    where = f"{name} ({r['source']})" if name else r["source"]
    status = r["status"]
    if status == 2:
        what = f"{r['error']['message']} [{r['error']['code']}]"
    elif status == 1:
        first = r["mismatches"][0]
        at = "history" if first["index"] is None else f"action {first['index']}"
        more = len(r["mismatches"]) - 1
        what = f"{at}: {first['reason']}" + (f" (and {more} more)" if more else "")
    elif status == 3:
        what = "a table copy, consistent as far as it goes (deals need the full copy)"
    else:
        what = f"{r['chance_actions']} chance actions recomputed, commitment and outcome hold"
    return shown(f"{LABELS[status]:<11}{where}: {what}")


def summarize(results: list[dict[str, Any]]) -> dict[str, int]:
    """``{"games", "verified", "table_copy", "unreadable", "mismatch", "exit"}``."""
    counts = {s: sum(1 for r in results if r["status"] == s) for s in RANK}
    worst = max((r["status"] for r in results), key=RANK.__getitem__, default=0)
    return {"games": len(results), "verified": counts[0], "table_copy": counts[3],
            "unreadable": counts[2], "mismatch": counts[1], "exit": worst}


def verify(args: argparse.Namespace) -> int:
    """The ``cardhall verify`` command (module docstring); returns the worst status."""
    if not args.files and sys.stdin.isatty():
        return fail(args, "cli.no_input", "give history files, a directory, or NDJSON on "
                                          "standard input ('-')", 2)
    inputs = collect(args.files)
    if not inputs.items:
        return fail(args, "cli.no_games", f"no game found in {' '.join(args.files) or '-'}", 2)
    fetcher = Fetcher(args.url, args.token or os.environ.get("CARDHALL_TOKEN") or None)
    results = []
    try:
        with progress(args, "verify", len(inputs.items)) as advance:
            for item in inputs.items:
                r = check(item, fetcher)
                results.append(r)
                if not inputs.single:
                    print(json.dumps(r) if args.json else line(r), flush=True)
                advance()
    finally:
        fetcher.close()
    total = summarize(results)
    if inputs.single and args.json:  # one document: its object alone, as always
        r = results[0]
        if "error" in r:
            return fail(args, r["error"]["code"], r["error"]["message"], 2)
        body = {k: v for k, v in r.items() if k not in ("source", "game_id", "game", "status")}
        print(json.dumps(body, indent=2 if args.pretty else None))
    elif inputs.single:
        print(line(results[0]))
    else:
        print(json.dumps({"summary": total}) if args.json else
              f"{total['games']} games: {total['verified']} verified, {total['table_copy']} "
              f"table cop{'y' if total['table_copy'] == 1 else 'ies'}, {total['unreadable']} "
              f"unreadable, {total['mismatch']} mismatched; exit {total['exit']}")
    return total["exit"]
