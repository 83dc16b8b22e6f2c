"""Lobby REST (``design.md`` section 6): list, create and fetch tables; quick seat.

Seats are taken over the WebSocket (``join``); these routes only create and describe tables.
Errors are ``{"detail": {"code": ..., "message": ...}}`` with the engine's codes passed through
(an invalid rules config is ``422 engine.invalid_config``).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, HTTPException, Request
from pydantic import BaseModel, ConfigDict, Field

from ...engine import EngineError, UnknownGame
from ...storage.interface import PlayerRecord
from ...tables.manager import TableManager

router = APIRouter(prefix="/api/tables", tags=["lobby"])


def _fail(status: int, code: str, message: str) -> HTTPException:
    return HTTPException(status_code=status, detail={"code": code, "message": message})


async def current_player(
    request: Request, authorization: Annotated[str | None, Header()] = None
) -> PlayerRecord:
    """The player of the ``Authorization: Bearer <token>`` header (401 ``auth.bad_token``).

    A local helper until ``server/deps.py`` provides the shared dependency."""
    scheme, _, token = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not token:
        raise _fail(401, "auth.required", "send Authorization: Bearer <player token>")
    player = await request.app.state.store.player_for_token(token.strip())
    if player is None:
        raise _fail(401, "auth.bad_token", "the token belongs to no player")
    if player.banned:
        raise _fail(403, "auth.banned", f"player {player.id} is banned")
    return player


def tables(request: Request) -> TableManager:
    return request.app.state.tables


Player = Annotated[PlayerRecord, Depends(current_player)]
Tables = Annotated[TableManager, Depends(tables)]


class BotSeat(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int = Field(ge=0, le=63)
    kind: str = "rule"
    """``random`` or ``rule``."""


class CreateTable(BaseModel):
    """A new table. Omitted fields take the game's and the server's defaults."""

    model_config = ConfigDict(extra="forbid")
    game: str
    config: dict[str, Any] = Field(default_factory=dict)
    """Partial rules config; validated by the game."""
    seats: int | None = Field(default=None, ge=1, le=64)
    """Seat count (default: the game's minimum)."""
    bots: list[BotSeat] = Field(default_factory=list)
    """Seats taken at once by built-in bots."""
    turn_timeout_seconds: float | None = None
    starting_stack: int | None = None
    """Chips each seat starts with (poker games only)."""


class QuickSeat(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str


@router.get("")
async def list_tables(manager: Tables, game: str | None = None) -> list[dict[str, Any]]:
    """Live tables: id, game, status, seats taken, each seat's public facts."""
    return [t.summary() for t in manager.list(game)]


@router.post("", status_code=201)
async def create_table(body: CreateTable, manager: Tables, player: Player) -> dict[str, Any]:
    """Create a table; bots take their seats at once. 422 with the engine's code when the
    game, config, seats, bots, timeout or stack are invalid."""
    bots = {b.seat: b.kind for b in body.bots}
    if len(bots) != len(body.bots):
        raise _fail(422, "engine.invalid_config", "a seat is listed twice in bots")
    try:
        table = await manager.create(body.game, config=body.config, num_seats=body.seats,
                                     bots=bots, turn_timeout_seconds=body.turn_timeout_seconds,
                                     starting_stack=body.starting_stack)
    except UnknownGame as exc:
        raise _fail(422, exc.code, exc.message) from exc
    except EngineError as exc:
        raise _fail(422, exc.code, exc.message) from exc
    except RuntimeError as exc:
        raise _fail(503, "table.limit", str(exc)) from exc
    return table.summary()


@router.post("/quick-seat")
async def quick_seat(body: QuickSeat, manager: Tables, player: Player) -> dict[str, Any]:
    """A waiting table of ``game`` with a free seat (created when there is none):
    ``{"table_id", "seat", "table"}``; take the seat with a WebSocket ``join``."""
    try:
        table, seat = await manager.quick_seat(body.game)
    except EngineError as exc:
        raise _fail(422, exc.code, exc.message) from exc
    return {"table_id": table.id, "seat": seat, "table": table.summary()}


@router.get("/{table_id}")
async def get_table(table_id: str, manager: Tables) -> dict[str, Any]:
    """One live table's public facts (404 ``table.not_found``)."""
    table = manager.get(table_id)
    if table is None:
        raise _fail(404, "table.not_found", f"no live table {table_id!r}")
    return table.summary()
