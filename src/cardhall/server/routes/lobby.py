"""Lobby REST (``design.md`` section 6): list, create and fetch tables; quick seat.

Seats are taken over the WebSocket (``join``); these routes only create and describe tables.
Errors use the one REST error shape of :mod:`cardhall.server.errors`, with the engine's codes
passed through (an invalid rules config is ``422 engine.invalid_config``).
"""

from __future__ import annotations

import secrets
from typing import Annotated, Any, Literal
from urllib.parse import urlencode

from fastapi import APIRouter, Depends, Header, Query, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from ...engine import EngineError, game_names
from ...protocol.messages import SeatPublic
from ...tables.lobby import MAX_CURSOR_CHARS, decode_cursor, encode_cursor
from ..deps import HallDep, PlayerDep, SeeksDep
from ..drain import refuse_if_draining
from ..errors import ApiError, responses
from ..etags import etag_matches, etag_of
from ..quotas import client_network

router = APIRouter(prefix="/api/tables", tags=["lobby"])
NOT_DRAINING = [Depends(refuse_if_draining)]
GAME_ENUM: dict[str, Any] = {"enum": list(game_names())}
"""OpenAPI lists the registered games (another name is 422 ``engine.unknown_game``)."""
"""New tables and quick seats are refused (503 ``server.draining``) while the server drains."""


class BotSeat(BaseModel):
    """A seat a built-in bot takes when the table is created."""

    model_config = ConfigDict(extra="forbid", strict=True)
    seat: int = Field(ge=0, le=63)
    kind: str = "rule"
    """``random`` or ``rule``."""


class CreateTable(BaseModel):
    """A new table. Omitted fields take the game's and the server's defaults."""

    model_config = ConfigDict(extra="forbid", strict=True)
    game: str = Field(json_schema_extra=GAME_ENUM)
    config: dict[str, Any] = Field(default_factory=dict)
    """Partial rules config; validated by the game."""
    seats: int | None = Field(default=None, ge=1, le=64)
    """Seat count (default: the game's minimum)."""
    bots: list[BotSeat] = Field(default_factory=list, max_length=64)
    """Seats taken at once by built-in bots."""
    turn_timeout_seconds: float | None = None
    """Decision deadline (default ``CARDHALL_TURN_TIMEOUT_SECONDS``, 10)."""
    starting_stack: int | None = None
    """Chips each seat starts with (poker games only; 1 to ``CARDHALL_MAX_STARTING_STACK``)."""
    private: bool = False
    """A private table: not listed in the lobby; the answer carries ``invite_code``, which
    every ``join`` there needs (a seat's own resume does not)."""
    rated: bool = True
    """``false``: a casual table, whose games change nobody's rating."""


class QuickSeat(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    game: str = Field(json_schema_extra=GAME_ENUM)


class TournamentLabel(BaseModel):
    """Which board of which round of which tournament a table plays
    (``docs/tournaments.md``, "A round"); ``board`` is ``None`` at an arena's table without
    duplicate boards (it draws its own seed, "Arena")."""

    tournament_id: str
    name: str
    round: int
    board: int | None


class TablePublic(BaseModel):
    """A live table's public facts (``Table.summary()``; fields in its order, so the JSON is
    the same as the summary's)."""

    id: str
    game: str
    status: Literal["waiting", "playing", "between_hands", "finished", "closed"]
    version: int
    num_seats: int
    seats_taken: int
    seats_out_of_chips: int
    """Poker: seats whose holder has fewer chips than the ante."""
    min_buy_in: int | None = None
    """Poker: the fewest chips a seat buys in with here (``join.buy_in``); ``null`` elsewhere."""
    max_buy_in: int | None = None
    """Poker: the most chips a seat buys in with here (the table's ``starting_stack``), and
    the most its stack may reach by rebuys; ``null`` elsewhere."""
    seats: list[SeatPublic]
    hand: int
    """Hands dealt so far at this table."""
    turn_timeout_seconds: float
    config: dict[str, Any]
    """The partial rules config the table was created with."""
    next_seed_commitment: str
    """SHA-256 of the next game's server seed, published before its client seeds are fixed
    (``docs/fairness.md``)."""
    private: bool = False
    """A private table (never listed by ``GET /api/tables``)."""
    tournament: TournamentLabel | None = None
    """A tournament's table: its tournament, round and board; ``null`` elsewhere."""
    watchable: bool = True
    """``false``: nobody may watch (a duplicate tournament's table with people entrants)."""
    rated: bool = True
    """``false``: a casual table (its games change no rating)."""
    created_by: str | None
    """The player id of the table's creator (``null``: the server made it, e.g. quick-seat)."""
    created_at: str
    """When the table was created (UTC, ISO 8601 with ``Z``)."""
    last_active_at: str
    """The last request of a client or bot, or version change (UTC; starts again at a restart)."""


class LobbyPlayer(BaseModel):
    """A taken seat as the lobby shows it."""

    seat: int
    name: str | None
    player_id: str | None
    bot: bool
    bot_level: Literal["random", "rule"] | None = None


class LobbyRow(BaseModel):
    """A table as the lobby lists it (``GET /api/tables``, ``view=row``): a tenth of its
    summary. ``players`` are the taken seats; a seat not listed is free. The rest of a
    table's facts: ``GET /api/tables/{id}``."""

    id: str
    game: str
    status: Literal["waiting", "playing", "between_hands", "finished", "closed"]
    version: int
    num_seats: int
    seats_taken: int
    players: list[LobbyPlayer]
    tournament: TournamentLabel | None = None
    """A tournament's table: its tournament, round and board; ``null`` elsewhere."""
    watchable: bool = True
    """``false``: nobody may watch (a duplicate tournament's table with people entrants)."""
    created_by: str | None
    created_at: str


DEFAULT_LIMIT = 50
MAX_LIMIT = 100
"""Rows of a lobby page: by default and at most (``limit``)."""
LOBBY_HEADERS: dict[str, Any] = {
    "ETag": {"description": "Of this page (rows and next link): send it back in "
                            "``If-None-Match`` for a 304 while it is unchanged",
             "schema": {"type": "string"}},
    "Link": {"description": 'The next page: ``<url>; rel="next"`` (absent on the last page)',
             "schema": {"type": "string"}},
}


class CreatedTable(TablePublic):
    """A new table; a private one with its ``invite_code`` (shown to its creator only)."""

    invite_code: str | None = None


class QuickSeatAnswer(BaseModel):
    """A free seat (not reserved: take it with a WebSocket ``join``) and its table."""

    table_id: str
    seat: int
    table: TablePublic
    invite_code: str | None = None
    """Only when a quick seat completed a group of seekers (``docs/rest.md``, "Seeks"): the
    new private table's code, which the ``join`` carries (absent otherwise)."""


ROW_PAGE = TypeAdapter(list[LobbyRow])
FULL_PAGE = TypeAdapter(list[TablePublic])


def _engine_error(exc: EngineError) -> ApiError:
    code = exc.code if exc.code in ("engine.unknown_game",) else "engine.invalid_config"
    return ApiError(code, exc.message)


@router.get("", response_model=None, responses={
    200: {"model": list[LobbyRow] | list[TablePublic], "headers": LOBBY_HEADERS,
          "description": "One page of the lobby: rows (``view=row``) or full summaries"},
    304: {"description": "The page is unchanged since the ``If-None-Match`` ETag (no body)",
          "headers": {"ETag": LOBBY_HEADERS["ETag"]}},
    **responses("request.invalid")})
async def list_tables(
    request: Request, hall: HallDep, game: str | None = None,
    limit: Annotated[int, Query(ge=1, le=MAX_LIMIT)] = DEFAULT_LIMIT,
    cursor: Annotated[str | None, Query(max_length=MAX_CURSOR_CHARS)] = None,
    view: Literal["row", "full"] = "row",
    if_none_match: Annotated[str | None, Header(max_length=1024)] = None,
) -> Response:
    """One page of the live public tables, oldest first (in cluster mode every node's, from
    the shared registry): ``limit`` rows (default 50, at most 100) after ``cursor``; a
    ``Link: <...>; rel="next"`` header points to the next page. ``view=row`` (the default)
    answers the lobby's small rows, ``view=full`` each table's whole summary. The answer has
    an ``ETag``; an ``If-None-Match`` naming it gets 304 with no body. 422
    ``request.invalid`` for a cursor this lobby did not give."""
    try:
        after = None if cursor is None else decode_cursor(cursor)
    except ValueError as exc:
        raise ApiError("request.invalid", f"cursor: {exc}") from exc
    rows, last = await hall.lobby(game, limit, after, full=view == "full")
    shape: TypeAdapter[Any] = FULL_PAGE if view == "full" else ROW_PAGE  # documented fields
    body = bytes(JSONResponse(shape.dump_python(shape.validate_python(rows), mode="json")).body)
    headers = {"Cache-Control": "no-cache"}
    if last is not None:
        query = {k: v for k, v in (("game", game), ("limit", str(limit)),
                                   ("view", view if view != "row" else None)) if v}
        query["cursor"] = encode_cursor(last)
        headers["Link"] = f'<{request.url.path}?{urlencode(query)}>; rel="next"'
    headers["ETag"] = etag_of(body, headers.get("Link", ""))
    if if_none_match is not None and etag_matches(if_none_match, headers["ETag"]):
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/json", headers=headers)


@router.post("", status_code=201, response_model=CreatedTable, dependencies=NOT_DRAINING,
             response_model_exclude_unset=True,
             responses=responses("engine.invalid_config", "auth.missing_token", "table.limit",
                                 "quota.tables", "rate.limited", "server.draining"))
async def create_table(body: CreateTable, request: Request, hall: HallDep,
                       player: PlayerDep) -> dict[str, Any]:
    """Create a table; bots take their seats at once. 422 with the engine's code when the
    game, config, seats, bots, timeout or stack are invalid; 429 ``quota.tables`` when the
    player already has ``max_live_tables_per_player`` live tables, or the client address
    ``max_waiting_tables_per_address`` tables still waiting for players; 503 ``table.limit``."""
    bots = {b.seat: b.kind for b in body.bots}
    if len(bots) != len(body.bots):
        raise ApiError("engine.invalid_config", "a seat is listed twice in bots")
    code = secrets.token_urlsafe(9) if body.private else None
    try:
        out = await hall.create(body.game, created_by=player.id,
                                created_from=client_network(request.scope), config=body.config,
                                num_seats=body.seats,
                                bots=bots, turn_timeout_seconds=body.turn_timeout_seconds,
                                starting_stack=body.starting_stack, private=body.private,
                                invite_code=code, rated=body.rated)
    except EngineError as exc:
        raise _engine_error(exc) from exc
    return out if code is None else {**out, "invite_code": code}


@router.post("/quick-seat", response_model=QuickSeatAnswer, dependencies=NOT_DRAINING,
             response_model_exclude_unset=True,
             responses=responses("engine.unknown_game", "auth.missing_token", "table.limit",
                                 "quota.tables", "rate.limited", "server.draining"))
async def quick_seat(body: QuickSeat, request: Request, hall: HallDep, seeks: SeeksDep,
                     player: PlayerDep) -> dict[str, Any]:
    """A seat for ``game`` now: ``{"table_id", "seat", "table"}``; take the seat with a
    WebSocket ``join``. An account first completes a group of waiting rated seeks of close
    rating (``docs/rest.md``, "Seeks"): then the table is a new private one and the answer
    carries its ``invite_code`` (the join needs it). Otherwise a waiting table of ``game`` with
    a free seat (created when there is none)."""
    try:
        found = await seeks.quick_match(player, body.game,
                                        created_from=client_network(request.scope))
        if found is not None:
            table, seat, code = found
            return {"table_id": table["id"], "seat": seat, "table": table, "invite_code": code}
        table, seat = await hall.quick_seat(body.game, created_by=player.id)
    except EngineError as exc:
        raise _engine_error(exc) from exc
    return {"table_id": table["id"], "seat": seat, "table": table}


@router.get("/{table_id}", response_model=TablePublic, responses=responses("table.not_found"))
async def get_table(table_id: str, hall: HallDep) -> dict[str, Any]:
    """One live table's public facts (404 ``table.not_found``)."""
    table = await hall.summary(table_id)
    if table is None:
        raise ApiError("table.not_found", f"no live table {table_id!r}")
    return table
