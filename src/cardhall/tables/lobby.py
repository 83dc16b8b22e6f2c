"""The lobby's pages (``docs/rest.md``, "Lobby: tables"): small rows, an opaque cursor.

``GET /api/tables`` answers one page of the live public tables at a time, oldest first (by
``created_at``, then ``id``), each as a :func:`lobby_row` (what the lobby shows) unless the full
summary is asked for. A page ends with the key of its last table; the next page starts after
it (keyset pagination: a table that opens or closes meanwhile shifts no other table from one
page to the next). The key travels as an opaque cursor (:func:`encode_cursor`). The same
functions page the one process's tables and, in cluster mode, the registry's summaries.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from .actor import Table, _iso

T = TypeVar("T")
Key = tuple[str, str]
"""A table's place in the lobby: ``(created_at, id)`` (ISO 8601 text sorts as time)."""

MAX_CURSOR_CHARS = 200
"""Longest cursor accepted (a real one is about 60 characters)."""
ROW_SEAT_FIELDS = ("seat", "name", "player_id", "bot", "bot_level")
"""What a lobby row tells of each taken seat."""


def lobby_row(summary: dict[str, Any]) -> dict[str, Any]:
    """The lobby's row of a table from its full summary (``Table.summary()``): ``id``,
    ``game``, ``status``, ``version``, ``num_seats``, ``seats_taken``, ``players`` (the taken
    seats only, each ``{"seat", "name", "player_id", "bot", "bot_level"}``; a seat not listed
    is free), ``tournament`` (a tournament's table: ``{"tournament_id", "name", "round",
    "board"}``, else ``None``), ``created_by``, ``created_at``. About a tenth of a full summary for a waiting
    table of ten seats."""
    return {
        "id": summary["id"], "game": summary["game"], "status": summary["status"],
        "version": summary["version"], "num_seats": summary["num_seats"],
        "seats_taken": summary["seats_taken"],
        "players": [{k: s.get(k) for k in ROW_SEAT_FIELDS} for s in summary["seats"]
                    if s["player_id"] is not None],
        "tournament": summary.get("tournament"),
        "watchable": summary.get("watchable", True),
        "created_by": summary["created_by"], "created_at": summary["created_at"],
    }


def summary_key(summary: dict[str, Any]) -> Key:
    """The lobby key of a summary (:data:`Key`)."""
    return (summary["created_at"], summary["id"])


def encode_cursor(key: Key) -> str:
    """The opaque cursor of a page ending at ``key`` (URL-safe base64 of a JSON pair)."""
    raw = json.dumps(list(key), separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor: str) -> Key:
    """The key a cursor of :func:`encode_cursor` holds.

    Raises:
        ValueError: not such a cursor (too long, not base64, not a pair of strings).
    """
    if len(cursor) > MAX_CURSOR_CHARS:
        raise ValueError(f"a cursor is at most {MAX_CURSOR_CHARS} characters")
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        key = json.loads(raw)
    except (binascii.Error, ValueError) as exc:
        raise ValueError("not a cursor of this lobby") from exc
    if not (isinstance(key, list) and len(key) == 2 and all(isinstance(k, str) for k in key)):
        raise ValueError("not a cursor of this lobby")
    return (key[0], key[1])


def page(items: Iterable[T], key: Callable[[T], Key], limit: int,
         after: Key | None) -> tuple[list[T], Key | None]:
    """The ``limit`` first items whose key is past ``after`` (all of them when ``None``), in
    key order, and the key to continue after (``None``: this is the last page)."""
    listed = list(items)
    keyed = sorted((key(item), n) for n, item in enumerate(listed))
    rest = [(k, n) for k, n in keyed if after is None or k > after]
    chosen = rest[:limit]
    more = len(rest) > limit and bool(chosen)
    return [listed[n] for _, n in chosen], (chosen[-1][0] if more else None)


def table_key(table: Table) -> Key:
    """The lobby key of a live table, without building its summary."""
    return (_iso(table.created_at), table.id)
