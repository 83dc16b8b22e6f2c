"""Seeks REST (``docs/rest.md``, "Seeks (matchmaking by rating)"): ask for a game, read how
the seek stands, cancel it. The pool is :mod:`cardhall.hall.seekpool` (``app.state.seeks``);
a match seats the seekers at a new private table whose id, seat and invite code their seek
answers (take the seat with a WebSocket ``join`` carrying ``invite_code``).

A seek is its owner's: another player's id answers 404 ``seek.not_found``, like a forgotten
one, and no answer names another seeker or how many wait.
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from ...engine import EngineError
from ...hall.seekpool import SeekError
from ..deps import PlayerDep, SeeksDep
from ..errors import ApiError, responses
from ..quotas import client_network
from .lobby import GAME_ENUM, NOT_DRAINING

router = APIRouter(prefix="/api/seeks", tags=["seeks"])


class NewSeek(BaseModel):
    """A seek: a game of ``game`` at ``seats`` seats (default: the game's minimum) with
    players of close rating; ``rated`` seeks (accounts only) meet only rated seeks."""

    model_config = ConfigDict(extra="forbid", strict=True)
    game: str = Field(json_schema_extra=GAME_ENUM)
    seats: int | None = Field(default=None, ge=1, le=64)
    rated: bool = False


class SeekPublic(BaseModel):
    """A seek as its owner sees it."""

    seek_id: str
    game: str
    seats: int
    rated: bool
    rating: int
    """The owner's displayed rating in ``game`` when it sought (1000: never rated there)."""
    status: Literal["waiting", "seated", "cancelled", "expired"]
    created_at: str
    """When the seek was made (UTC, ISO 8601 with ``Z``)."""
    waited_ms: int
    """How long it waited (so far, or until it ended)."""
    rating_min: int | None
    rating_max: int | None
    """The ratings it accepts now (its window widens while it waits); ``null``: any rating
    (the window opened), or not waiting."""
    expires_in_ms: int | None
    """Until it expires unmatched; ``null`` unless waiting."""
    table_id: str | None
    seat: int | None
    invite_code: str | None
    """Seated: the private table, the seat to ``join`` and the code that join carries."""
    reason: str | None
    """Cancelled: ``cancelled`` (by its owner), ``quota.tables`` (its table could not be made:
    the owner has ``max_live_tables_per_player`` live tables) or ``shutdown``."""


def _api(exc: SeekError | EngineError) -> ApiError:
    if isinstance(exc, SeekError):
        return ApiError(exc.code, exc.message)
    if exc.code == "engine.unknown_game":
        return ApiError("engine.unknown_game", exc.message)
    return ApiError("engine.invalid_config", exc.message)


@router.post("", status_code=201, response_model=SeekPublic, dependencies=NOT_DRAINING,
             responses=responses("engine.unknown_game", "auth.missing_token",
                                 "seek.needs_account", "seek.already_waiting", "seek.pool_full",
                                 "rate.limited", "server.draining"))
async def create_seek(body: NewSeek, request: Request, pool: SeeksDep,
                      player: PlayerDep) -> dict[str, Any]:
    """Seek a game: 201 with the seek, ``waiting`` (or already ``seated`` when it completed a
    group). 422 ``engine.unknown_game``, ``engine.invalid_config`` (seats outside the game's
    range); 403 ``seek.needs_account`` (a rated seek of a guest); 409
    ``seek.already_waiting`` (one waiting seek per player; cancel it first)."""
    try:
        entry = await pool.add(player, body.game, seats=body.seats, rated=body.rated,
                               created_from=client_network(request.scope))
    except (SeekError, EngineError) as exc:
        raise _api(exc) from exc
    return pool.public(entry)


@router.get("/{seek_id}", response_model=SeekPublic,
            responses=responses("seek.not_found", "auth.missing_token"))
async def get_seek(seek_id: str, pool: SeeksDep, player: PlayerDep) -> dict[str, Any]:
    """The caller's seek (poll it while ``waiting``); 404 ``seek.not_found`` for another's,
    or one finished more than two minutes ago."""
    try:
        return pool.public(pool.get(seek_id, player.id))
    except SeekError as exc:
        raise _api(exc) from exc


@router.delete("/{seek_id}", response_model=SeekPublic,
               responses=responses("seek.not_found", "auth.missing_token"))
async def cancel_seek(seek_id: str, pool: SeeksDep, player: PlayerDep) -> dict[str, Any]:
    """Cancel the caller's waiting seek (``cancelled``); a seek that already ended is answered
    as it ended (a cancel that comes just after a match gets ``seated`` and the table)."""
    try:
        return pool.public(await pool.cancel(seek_id, player.id))
    except SeekError as exc:
        raise _api(exc) from exc
