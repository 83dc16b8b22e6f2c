"""``/api/ratings`` and the public player pages: leaderboards, profiles, rating history and a
player's games as NDJSON (``docs/rest.md``, "Ratings and profiles"). Nothing here needs a
token, and nothing here carries a card or a seed: only names, ratings and game summaries."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import datetime
from typing import Annotated, Any, Literal

import orjson
from fastapi import APIRouter, Path, Query
from fastapi.requests import HTTPConnection
from fastapi.responses import StreamingResponse
from pydantic import BaseModel

from ...engine import game_names
from ...storage.accounts import PlayerRating
from ...storage.interface import PlayerRecord, Store
from ...storage.models import as_utc
from ...storage.rating import Skill
from ..deps import StoreDep
from ..errors import ApiError, RestErrorCode, responses
from .games import MAX_OFFSET, GameSummaryPublic, IsoTime, withheld_tables

router = APIRouter(prefix="/api/ratings", tags=["ratings"])
players_router = APIRouter(prefix="/api/players", tags=["ratings"])

RECENT_GAMES = 10
"""Games shown on a profile."""
NDJSON_PAGE = 200
"""Games read from the store per query while streaming ``games.ndjson``."""
GameName = Annotated[str, Query(max_length=32, description="Game name",
                                json_schema_extra={"enum": game_names()})]
GamePath = Annotated[str, Path(max_length=32, description="Game name",
                               json_schema_extra={"enum": game_names()})]


class RatingPublic(BaseModel):
    """A rating in one game: ``rating`` is the displayed number (``round(40 * (mu - 3 sigma)
    + 1000)``; 1000 for a new player), ``mu``/``sigma`` openskill's estimate."""

    game: str
    rating: int
    mu: float
    sigma: float
    games: int
    """Rated games played."""
    wins: int
    updated_at: datetime

    @classmethod
    def of(cls, r: PlayerRating) -> RatingPublic:
        """The public form of a stored rating."""
        return cls(game=r.game, rating=Skill(r.mu, r.sigma).display, mu=r.mu, sigma=r.sigma,
                   games=r.games, wins=r.wins, updated_at=r.updated_at)


class LeaderboardEntry(RatingPublic):
    """One line of a leaderboard: its rank (1 = best) and whose rating it is."""

    rank: int
    player_id: str
    name: str
    bot: bool


class Leaderboard(BaseModel):
    """One page of a game's leaderboard, best first; ``next_offset`` ``null`` on the last."""

    game: str
    bots: bool
    items: list[LeaderboardEntry]
    limit: int
    offset: int
    next_offset: int | None


class PlayerProfile(BaseModel):
    """A player's public page: who (``registered``: an account, not a guest; never the
    login name, which only the owner and the admin see), since when (``created_at``, UTC),
    the rating per game and the last games (newest first)."""

    id: str
    name: str
    bot: bool
    registered: bool
    created_at: datetime | None
    ratings: list[RatingPublic]
    recent_games: list[GameSummaryPublic]


class RatingPointPublic(BaseModel):
    """The rating after one game (``at``: its end, UTC)."""

    game_id: str
    at: datetime
    rating: int
    mu: float
    sigma: float


class RatingHistoryPublic(BaseModel):
    """A player's rating in one game after each rated game, oldest first."""

    player_id: str
    game: str
    items: list[RatingPointPublic]


def _check_game(game: str) -> None:
    if game not in game_names():
        raise ApiError("engine.unknown_game",
                       f"unknown game {game!r}; known: {sorted(game_names())}")


async def _player(store: Store, player_id: str) -> PlayerRecord:
    rec = await store.get_player(player_id)
    if rec is None:
        raise ApiError("player.not_found", f"no player {player_id!r}")
    return rec


@router.get("", responses=responses("request.invalid", "engine.unknown_game"))
async def leaderboard(
    store: StoreDep, game: GameName,
    bots: Annotated[bool, Query(description="List the bots (else people)")] = False,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0,
) -> Leaderboard:
    """A game's ratings, best first (``mu - 3 sigma``), people or (``bots=true``) bots;
    banned and disabled identities are left out. 422 ``engine.unknown_game``."""
    _check_game(game)
    rows = await store.leaderboard(game, bots=bots, limit=limit + 1, offset=offset)
    items = [LeaderboardEntry(**RatingPublic.of(r).model_dump(), rank=offset + i + 1,
                              player_id=r.player_id, name=r.name, bot=r.is_bot)
             for i, r in enumerate(rows[:limit])]
    return Leaderboard(game=game, bots=bots, items=items, limit=limit, offset=offset,
                       next_offset=offset + limit if len(rows) > limit else None)


@players_router.get("/{player_id}", responses=responses("player.not_found"))
async def profile(player_id: str, conn: HTTPConnection, store: StoreDep) -> PlayerProfile:
    """A player's public profile (its recent games leave out the withheld tournament boards,
    :func:`~.games.withheld_tables`). 404 ``player.not_found``."""
    rec = await _player(store, player_id)
    ratings = [RatingPublic.of(r) for r in await store.player_ratings(player_id)]
    games = await store.list_games(player_id=player_id, limit=RECENT_GAMES,
                                   exclude_tables=await withheld_tables(conn))
    return PlayerProfile(id=rec.id, name=rec.name, bot=rec.is_bot,
                         registered=rec.username is not None,
                         created_at=rec.created_at, ratings=ratings,
                         recent_games=[GameSummaryPublic.of(g) for g in games])


@players_router.get("/{player_id}/ratings/{game}", responses=responses(
    "player.not_found", "engine.unknown_game", "request.invalid"))
async def rating_history(
    player_id: str, game: GamePath, conn: HTTPConnection, store: StoreDep,
    limit: Annotated[int, Query(ge=1, le=2000)] = 500,
) -> RatingHistoryPublic:
    """The player's rating after each of its last ``limit`` rated games of ``game``, oldest
    first (the profile's chart), less the withheld tournament boards (their ids and the
    ratings after them: :func:`~.games.withheld_tables`). 404 ``player.not_found``, 422
    ``engine.unknown_game``."""
    _check_game(game)
    await _player(store, player_id)
    points = await store.rating_history(player_id, game, limit=limit)
    hidden = await _withheld_games(conn, store, player_id, game, len(points))
    return RatingHistoryPublic(player_id=player_id, game=game, items=[
        RatingPointPublic(game_id=p.game_id, at=p.at, rating=Skill(p.mu, p.sigma).display,
                          mu=p.mu, sigma=p.sigma) for p in points if p.game_id not in hidden])


async def _withheld_games(conn: HTTPConnection, store: StoreDep, player_id: str, game: str,
                          limit: int) -> set[str]:
    """Ids of the player's last ``limit`` games of ``game`` whose table is withheld (a
    tournament board of a round not scored yet; none looked up while nothing is withheld)."""
    tables = await withheld_tables(conn)
    if not tables or limit == 0:
        return set()
    rows = await store.list_games(game=game, player_id=player_id, limit=limit)
    return {g.id for g in rows if g.table_id in tables}


def _json_errors(*codes: RestErrorCode) -> dict[int | str, dict[str, Any]]:
    """:func:`responses` for a route whose 200 is not JSON: its errors still are (FastAPI
    would document them in the route's media type)."""
    out = responses(*codes)
    for entry in out.values():
        entry.pop("model", None)
        entry["content"] = {"application/json": {"schema": {
            "$ref": "#/components/schemas/ErrorResponse"}}}
    return out


class NdjsonResponse(StreamingResponse):
    """Newline-delimited JSON (one object per line)."""

    media_type = "application/x-ndjson"


@players_router.get("/{player_id}/games.ndjson", response_class=NdjsonResponse,
                    response_model=GameSummaryPublic, responses={
                        200: {"description": "One `GameSummaryPublic` object per line, "
                                             "newest first",
                              "content": {"application/x-ndjson": {"schema": {
                                  "$ref": "#/components/schemas/GameSummaryPublic"}}}},
                        **_json_errors("player.not_found", "engine.unknown_game",
                                       "request.invalid")})
async def games_ndjson(
    player_id: str, conn: HTTPConnection, store: StoreDep,
    game: Annotated[str | None, Query(max_length=32, description="Game name",
                                      json_schema_extra={"enum": game_names()})] = None,
    result: Annotated[Literal["win", "loss", "draw"] | None, Query()] = None,
    since: Annotated[IsoTime | None, Query()] = None,
    until: Annotated[IsoTime | None, Query()] = None,
) -> NdjsonResponse:
    """Every finished game of the player as NDJSON, newest first: one game summary per line
    (the ``GET /api/games`` item: seats, results, marks; no history, so no card and no
    seed), filtered like ``GET /api/games``. 404 ``player.not_found``."""
    if game is not None:
        _check_game(game)
    await _player(store, player_id)

    async def lines() -> AsyncIterator[bytes]:
        offset = 0
        while True:
            rows = await store.list_games(
                game=game, player_id=player_id, result=result,
                since=None if since is None else as_utc(since),
                until=None if until is None else as_utc(until),
                limit=NDJSON_PAGE, offset=offset)
            hidden = await withheld_tables(conn)  # tournament boards of a round not scored yet
            for g in rows:
                if g.table_id in hidden:
                    continue
                yield orjson.dumps(GameSummaryPublic.of(g).model_dump(mode="json")) + b"\n"
            if len(rows) < NDJSON_PAGE:
                return
            offset += NDJSON_PAGE

    return NdjsonResponse(lines(), headers={
        "Content-Disposition": f'attachment; filename="{player_id}-games.ndjson"'})
