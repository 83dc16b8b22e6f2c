"""``/api/games``: finished games, listed with their seat results, and their histories."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query
from fastapi.requests import HTTPConnection
from fastapi.responses import JSONResponse
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from ...engine import (
    EngineError,
    History,
    apply_logged,
    filter_events,
    game_names,
    replay,
    verify_history,
)
from ...storage.interface import GameSummary
from ...storage.models import as_utc
from ..copies import ReaderDep, full_access, public_copy
from ..deps import SettingsDep, StoreDep
from ..errors import ApiError, responses

router = APIRouter(prefix="/api/games", tags=["games"])

MAX_PAGE = 200
MAX_OFFSET = 1_000_000_000
"""Larger offsets are refused (422): SQL engines overflow on them (a 500 otherwise)."""


def _iso_time(value: Any) -> Any:
    """Refuse a bare number (pydantic would read it as a Unix time): ``since``/``until`` are
    ISO 8601 times (``docs/rest.md``); 422 ``request.invalid``."""
    if isinstance(value, str):
        try:
            float(value)
        except ValueError:
            return value
        raise ValueError(f"expected an ISO 8601 time, got the number {value!r}")
    return value


IsoTime = Annotated[datetime, BeforeValidator(_iso_time)]


class SeatResultPublic(BaseModel):
    """One seat's result: chips won/lost (poker) or the team's match total (Blot)."""

    seat: int
    name: str
    result: int
    player_id: str | None
    bot: bool
    mark: Literal["win", "loss", "draw"] | None = None
    """The seat's result as a marker (``storage/rating.py``); ``null`` for an unrated game
    (abandoned, aborted) or one saved before marks were kept."""


class GameSummaryPublic(BaseModel):
    """A finished game without its history; times are UTC."""

    id: str
    game: str
    table_id: str
    started_at: datetime
    ended_at: datetime
    outcome: dict[str, Any]
    seats: list[SeatResultPublic]

    @classmethod
    def of(cls, g: GameSummary) -> GameSummaryPublic:
        seats = [SeatResultPublic(seat=s.seat, name=s.name, result=s.result,
                                  player_id=s.player_id, bot=s.is_bot,
                                  mark=s.mark)  # type: ignore[arg-type]
                 for s in g.seats]
        return cls(id=g.id, game=g.game, table_id=g.table_id, started_at=g.started_at,
                   ended_at=g.ended_at, outcome=g.outcome, seats=seats)


class GamePage(BaseModel):
    """One page of games, newest first; ``next_offset`` is ``None`` on the last page."""

    items: list[GameSummaryPublic]
    limit: int
    offset: int
    next_offset: int | None


class MismatchPublic(BaseModel):
    """One failed check: ``index`` is the entry of ``actions`` (``null``: the whole history,
    e.g. the seed does not match its commitment, or the replay ends with another outcome)."""

    index: int | None
    reason: str


class VerifyResult(BaseModel):
    """What ``GET /api/games/{id}/verify`` found (``docs/fairness.md``): ``verified`` when every
    chance action recomputes from the revealed seeds and the commitment matches."""

    game_id: str
    verified: bool
    shuffle: str
    """The seed derivation used: ``cardhall-shuffle/1`` (server seed + client seeds), or
    ``cardhall-shuffle/0`` for games stored before client seeds."""
    chance_actions: int
    """Chance actions recomputed."""
    mismatches: list[MismatchPublic]
    history_copy: str = Field("full", alias="copy")
    """``copy``: the copy checked: always the stored full copy (the seed stays on the server)."""
    checked: list[str] = []
    """The checks made."""
    not_checked: list[str] = []
    """Checks that could not be made (none for a stored game)."""


class HistoryDocument(BaseModel):
    """A finished game's ``cardhall-history/1`` document (``docs/engine.md``): these fields and
    what the store adds (ids, times, outcome, the revealed ``seed``, ``seed_commitment``,
    ``client_seeds``, ``shuffle``)."""

    model_config = ConfigDict(extra="allow")

    format: str
    game: str
    config: dict[str, Any]
    seats: list[dict[str, Any]]
    dealer: int
    stacks: list[int] | None
    actions: list[dict[str, Any]]


class ReplayStep(BaseModel):
    """One step of a finished game from one seat's perspective (``GET .../replay``)."""

    game: str
    step: int
    """Actions applied (clamped to ``steps``)."""
    steps: int
    seat: int | None
    """The game seat watched (``None``: a spectator's view)."""
    seats: list[str]
    """Seat names."""
    view: dict[str, Any]
    to_act: list[int]
    action: dict[str, Any] | None
    """The step's logged action (``None`` at step 0)."""
    events: list[dict[str, Any]]
    outcome: dict[str, Any] | None
    history_copy: str = Field(alias="copy")
    """``copy``: ``"full"`` (the caller may see every card) or ``"table"`` (a spectator's replay: the
    ``action`` of a step hides the cards the table never saw as ``??``)."""


FullQuery = Annotated[bool, Query(description="The full copy (every card, the seed): for the "
                                              "game's players and the admin, with their token")]


async def withheld_tables(conn: HTTPConnection) -> set[str]:
    """Table ids whose finished games are withheld: boards of a tournament round not yet
    scored (:meth:`cardhall.tournaments.Director.withheld_now`: this node's and, from the
    store, every node's), since another table may still be playing the same cards. Empty
    without a tournament director."""
    director = getattr(conn.app.state, "tournaments", None)
    return set() if director is None else await director.withheld_now()


async def found_history(conn: HTTPConnection, history: dict[str, Any] | None, game_id: str, *,
                        admin: bool = False) -> dict[str, Any]:
    """``history``, or 404 ``game.not_found`` when there is none or it is withheld from this
    caller (:func:`withheld_tables`; the admin reads it)."""
    if history is None or (not admin and history.get("table_id") in await withheld_tables(conn)):
        raise ApiError("game.not_found", f"no finished game {game_id!r}")
    return history


@router.get("", responses=responses("request.invalid", "engine.unknown_game"))
async def list_games(
    conn: HTTPConnection,
    store: StoreDep,
    game: Annotated[str | None, Query(max_length=32, description="Game name",
                                      json_schema_extra={"enum": game_names()})] = None,
    player: Annotated[str | None, Query(max_length=64, description="Player id")] = None,
    since: Annotated[IsoTime | None, Query(description="ended_at >= since (UTC if naive)")]
    = None,
    until: Annotated[IsoTime | None, Query(description="ended_at < until (UTC if naive)")]
    = None,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 50,
    offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0,
    result: Annotated[Literal["win", "loss", "draw"] | None,
                      Query(description="With player: that player's mark")] = None,
) -> GamePage:
    """Finished games filtered by game, player, the player's result and end time, newest
    first. 422 ``engine.unknown_game`` for a ``game`` no registered game has (as ``POST
    /api/tables``); ``result`` without ``player`` is ignored."""
    if game is not None and game not in game_names():
        raise ApiError("engine.unknown_game",
                       f"unknown game {game!r}; known: {sorted(game_names())}")
    rows = await store.list_games(
        game=game, player_id=player, since=None if since is None else as_utc(since),
        until=None if until is None else as_utc(until), limit=limit + 1, offset=offset,
        result=result if player else None,
        exclude_tables=await withheld_tables(conn))  # before the page is cut: its size tells none
    more = len(rows) > limit
    return GamePage(items=[GameSummaryPublic.of(g) for g in rows[:limit]], limit=limit,
                    offset=offset, next_offset=offset + limit if more else None)


@router.get("/{game_id}", response_model=HistoryDocument, responses={
    200: {"description": "The `cardhall-history/1` document: the table copy, or with "
                         "`full=1` the full copy"},
    **responses("game.not_found", "auth.missing_token", "auth.invalid_token", "auth.banned",
                "game.not_participant", "request.invalid")})
async def get_game(conn: HTTPConnection, game_id: str, store: StoreDep, settings: SettingsDep,
                   who: ReaderDep, full: FullQuery = False) -> JSONResponse:
    """A finished game's history (``docs/fairness.md`` section 7): the *table copy* (cards the
    table never saw are ``??``, no seed) or, with ``full=1``, the stored *full copy*
    (replayable with ``cardhall replay``, verifiable with ``cardhall verify``) for a player of
    the game or the admin. A published game (``CARDHALL_PUBLISH_FULL_AFTER_SECONDS``) answers
    its full copy to anyone. 404 ``game.not_found``; with ``full=1``: 401
    ``auth.missing_token`` without a token, 403 ``game.not_participant`` for another player."""
    history = await found_history(conn, await store.get_game(game_id), game_id, admin=who.admin)
    if full_access(history, who, settings, full=full):
        return JSONResponse(history)
    return JSONResponse(public_copy(history, game_id))


@router.get("/{game_id}/replay", response_model=ReplayStep, responses=responses(
    "game.not_found", "table.bad_seat", "request.invalid", "auth.missing_token",
    "auth.invalid_token", "auth.banned", "game.not_participant"))
async def replay_step(
    conn: HTTPConnection,
    game_id: str,
    store: StoreDep,
    settings: SettingsDep,
    who: ReaderDep,
    seat: Annotated[int | None, Query(ge=0, le=63, description="Game seat; omit to watch")]
    = None,
    step: Annotated[int, Query(ge=0, description="Actions applied (0 = before the first)")] = 0,
    full: FullQuery = False,
) -> dict[str, Any]:
    """One step of a finished game, replayed on the server from ``seat``'s perspective (the
    browser never runs rules): ``{"game", "step", "steps", "seat", "seats": [names], "view",
    "to_act", "action" (the step's logged action or null), "events" (what ``seat`` saw of that
    step), "outcome" (at the last step), "copy"}``. ``step`` past the end is clamped.
    Without the full copy (``full=1`` with a player's or the admin's token, or a published
    game) only the spectator's perspective is answered and ``action`` is the table copy's
    (``copy: "table"``): a ``seat`` is 403 ``game.not_participant``. 404 ``game.not_found``,
    422 ``table.bad_seat``, 401 ``auth.missing_token`` for ``full=1`` without a token."""
    doc = await found_history(conn, await store.get_game(game_id), game_id, admin=who.admin)
    try:
        history = History.from_json(doc)
    except EngineError as exc:
        raise ApiError("game.not_found", f"game {game_id!r} has no replayable history") from exc
    if seat is not None and seat >= len(history.seats):
        raise ApiError("table.bad_seat", f"no seat {seat} (seats: {len(history.seats)})")
    everything = full_access(doc, who, settings, full=full)
    if seat is not None and not everything:
        raise ApiError("game.not_participant", "a seat's perspective shows its cards: it needs "
                       "the full copy (full=1 with the token of a player of this game)")
    steps = len(history.actions)
    step = min(step, steps)
    try:  # a stored game this build's rules no longer accept (a removed config field, ...)
        state = replay(history, upto=max(0, step - 1))
        entry = history.actions[step - 1] if step > 0 else None
        applied = [] if entry is None else apply_logged(state, entry.seat, entry.action)
    except EngineError as exc:
        raise ApiError("game.not_found", f"game {game_id!r} cannot be replayed by this "
                       f"build: [{exc.code}] {exc.message}") from exc
    events = filter_events(applied, seat)
    outcome = state.outcome
    action = None if entry is None else entry.to_json()
    if action is not None and not everything:
        action = public_copy(doc, game_id)["actions"][step - 1]
    return {"game": history.game, "step": step, "steps": steps, "seat": seat,
            "seats": [s.name for s in history.seats], "view": state.view(seat),
            "to_act": [] if outcome is not None else list(state.to_act()),
            "action": action, "events": events,
            "outcome": None if outcome is None else outcome.to_json(),
            "copy": "full" if everything else "table"}


@router.get("/{game_id}/verify", responses=responses("game.not_found"))
async def verify_game(conn: HTTPConnection, game_id: str, store: StoreDep) -> VerifyResult:
    """Recompute every chance action of a finished game from its server seed and client
    seeds, and check ``SHA-256(seed) == seed_commitment`` (the same check as ``cardhall
    verify``; :func:`~cardhall.engine.verify_history`), for anyone: the server runs it on the
    stored full copy and answers each check's result, never the seed or a face-down card
    (``docs/fairness.md`` section 7). A stored history this build
    cannot read or replay answers ``verified: false`` with a mismatch naming why (``index``
    null). 404 ``game.not_found``."""
    doc = await found_history(conn, await store.get_game(game_id), game_id)
    try:
        result = verify_history(doc).to_json()
    except EngineError as exc:
        result = {"verified": False, "shuffle": str(doc.get("shuffle", "unknown")),
                  "chance_actions": 0,
                  "mismatches": [{"index": None, "reason": f"[{exc.code}] {exc.message}"}]}
    return VerifyResult(game_id=game_id, **result)
