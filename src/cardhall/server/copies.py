"""Which copy of a finished history a REST caller gets (``docs/fairness.md`` section 7,
``docs/rest.md`` "Finished games").

The store keeps the *full copy*. The *table copy* is derived from it on each read
(:func:`cardhall.engine.table_copy`, about a millisecond for a poker hand), so the database
holds one document per game and a change to a game's redaction rule applies to every stored
game at once. A caller gets the full copy when it asks for it (``full=1``) and is an admin
(``CARDHALL_ADMIN_TOKEN`` as its bearer token) or a player of that game (its player token; a
player is in the game when its id is one of the history's ``seats[].player_id``), or when the
game is published (``Settings.publish_full_after_seconds``); everyone else gets the table copy.
"""

from __future__ import annotations

import functools
import hmac
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any

import orjson
from fastapi import Depends

from ..config import Settings
from ..engine import EngineError, table_copy
from ..engine.actions import copy_json
from .deps import Credentials, SettingsDep, StoreDep, player_bearer
from .errors import ApiError
from .security import authenticate


@dataclass(frozen=True, slots=True)
class Reader:
    """Who reads a finished game: the admin, a player (``player_id``) or a guest (neither)."""

    admin: bool = False
    player_id: str | None = None


async def reader(store: StoreDep, settings: SettingsDep,
                 creds: Annotated[Credentials, Depends(player_bearer)]) -> Reader:
    """The caller of a finished-game route: no bearer token -> a guest; the admin token
    (constant-time compare) -> the admin; else the player it belongs to (401
    ``auth.invalid_token``, 403 ``auth.banned`` as every player route)."""
    token = None if creds is None else creds.credentials
    if not token:
        return Reader()
    expected = settings.admin_token
    if expected and hmac.compare_digest(token.encode(), expected.encode()):
        return Reader(admin=True)
    player = await authenticate(store, token)
    return Reader(player_id=player.id)


ReaderDep = Annotated[Reader, Depends(reader)]


def played(doc: dict[str, Any], player_id: str | None) -> bool:
    """Whether ``player_id`` held a seat of the game (``seats[].player_id``)."""
    return player_id is not None and any(
        isinstance(s, dict) and s.get("player_id") == player_id for s in doc.get("seats") or ())


def published(doc: dict[str, Any], settings: Settings, now: datetime) -> bool:
    """Whether the full copy of ``doc`` is public by now: its game is listed in
    ``publish_full_after_seconds`` and that many seconds have passed since ``ended_at`` (a
    history without ``ended_at`` counts as published only with a delay of 0)."""
    delay = settings.publish_full_after_seconds.get(str(doc.get("game")))
    if delay is None:
        return False
    try:
        ended = datetime.fromisoformat(str(doc["ended_at"]))
    except (KeyError, ValueError):
        return delay == 0
    if ended.tzinfo is None:
        ended = ended.replace(tzinfo=UTC)
    return now >= ended + timedelta(seconds=delay)


def full_access(doc: dict[str, Any], who: Reader, settings: Settings, *, full: bool,
                now: datetime | None = None) -> bool:
    """Whether the caller gets the full copy of ``doc``: published games always; with
    ``full`` (``?full=1``) the admin and the game's players.

    Raises:
        ApiError: ``full`` from a guest (401 ``auth.missing_token``) or from a player who did
            not play the game (403 ``game.not_participant``), unless the game is published.
    """
    if published(doc, settings, now or datetime.now(UTC)):
        return True
    if not full:
        return False
    if who.admin or played(doc, who.player_id):
        return True
    if who.player_id is None:
        raise ApiError("auth.missing_token", "the full copy needs 'Authorization: Bearer "
                       "<token>' of a player of this game (or the admin token)")
    raise ApiError("game.not_participant", f"player {who.player_id} did not play this game: "
                   "its full copy is for its players and the admin")


def public_copy(doc: dict[str, Any], game_id: str) -> dict[str, Any]:
    """The table copy of the stored full copy ``doc`` (a fresh document); 404
    ``game.not_found`` when this build cannot replay it (nothing of it is shown then)."""
    try:
        return copy_json(_table_copy_of(orjson.dumps(doc)))
    except EngineError as exc:
        raise ApiError("game.not_found", f"game {game_id!r} cannot be replayed by this "
                       f"build: [{exc.code}] {exc.message}") from exc


TABLE_COPIES_KEPT = 64
"""Table copies :func:`public_copy` keeps, by the JSON text of their full copy: the replay
viewer asks for one step at a time, and each step's ``action`` is the table copy's, which
replays the whole game (a 400-action Blot match: 400 replays per viewing without it)."""


@functools.lru_cache(maxsize=TABLE_COPIES_KEPT)
def _table_copy_of(text: bytes) -> dict[str, Any]:
    """:func:`~cardhall.engine.table_copy` of the full copy whose JSON is ``text`` (kept by
    the exact text, so only the same document gets it; never changed by its readers:
    :func:`public_copy` hands out copies)."""
    return table_copy(orjson.loads(text))
