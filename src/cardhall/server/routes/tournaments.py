"""Tournaments REST (``docs/rest.md``, "Tournaments"; ``docs/tournaments.md``).

``POST /api/tournaments`` (any player's token) creates one and starts its first round;
``GET /api/tournaments`` lists them, newest first; ``GET /api/tournaments/{id}`` answers the
whole public document: status, rounds (pairs, bye, boards with their commitments and, once
the round is over, their seeds), tables (seats, ``table_id``, ``game_id``, ``returns``),
scores and ``standings``. A body the model refuses is 422 ``request.invalid``; a rules config
the game refuses 422 ``engine.invalid_config``.
"""

from __future__ import annotations

import functools
from typing import Annotated, Any, Literal, cast

from fastapi import APIRouter, Depends, Query, Request
from fastapi.requests import HTTPConnection

from ...engine import EngineError
from ...tournaments import (
    Director,
    TournamentLimitError,
    TournamentNotFoundError,
    TournamentQuotaError,
    TournamentRequest,
    registration,
)
from ...tournaments.entry import EntryError
from ..audit import AuditDep
from ..deps import PlayerDep, require_admin
from ..drain import refuse_if_draining
from ..errors import ApiError, RestErrorCode, responses
from ..quotas import client_network

router = APIRouter(prefix="/api/tournaments", tags=["tournaments"])


async def get_director(conn: HTTPConnection) -> Director:
    """The app's tournament director (``app.state.tournaments``, set by the lifespan)."""
    director: Director = conn.app.state.tournaments
    return director


DirectorDep = Annotated[Director, Depends(get_director)]


@router.post("", status_code=201, dependencies=[Depends(refuse_if_draining)],
             responses=responses("request.invalid", "engine.invalid_config",
                                 "auth.missing_token", "quota.tournaments", "tournament.limit",
                                 "rate.limited", "server.draining"))
async def create_tournament(body: TournamentRequest, director: DirectorDep,
                            player: PlayerDep, request: Request) -> dict[str, Any]:
    """Create a tournament of built-in bot entrants (``bots``) and start its first round;
    answers its public document (``status`` ``running``, round 1 paired and its tables laid
    out). 429 ``quota.tournaments`` while the player runs
    ``CARDHALL_MAX_RUNNING_TOURNAMENTS_PER_PLAYER`` (2) or their address
    ``CARDHALL_MAX_RUNNING_TOURNAMENTS_PER_ADDRESS`` (2); 503 ``tournament.limit`` while the
    server runs ``CARDHALL_MAX_RUNNING_TOURNAMENTS`` (16)."""
    try:
        return await director.create(body, player.id, client_network(request.scope))
    except EngineError as exc:
        raise ApiError("engine.invalid_config", exc.message) from exc
    except TournamentQuotaError as exc:
        raise ApiError("quota.tournaments", str(exc), headers={"Retry-After": "60"}) from exc
    except TournamentLimitError as exc:
        raise ApiError("tournament.limit", str(exc), headers={"Retry-After": "60"}) from exc


@router.get("")
async def list_tournaments(
    director: DirectorDep,
    status: Literal["registering", "running", "finished", "failed", "cancelled"] | None = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 50,
) -> list[dict[str, Any]]:
    """Tournaments, newest first: ``id``, ``name``, ``game``, ``kind``, ``status``,
    ``rounds_total``, ``rounds_played``, ``boards_per_round``, ``duplicate``, ``scoring``,
    ``entrants`` (a count), ``created_by``, ``created_at``."""
    return await director.list_tournaments(status=status, limit=limit)


@router.get("/{tournament_id}", responses=responses("tournament.not_found"))
async def get_tournament(tournament_id: str, director: DirectorDep) -> dict[str, Any]:
    """One tournament's public document (404 ``tournament.not_found``)."""
    try:
        return await director.get(tournament_id)
    except TournamentNotFoundError as exc:
        raise ApiError("tournament.not_found", str(exc)) from exc


@router.get("/{tournament_id}/verify", responses=responses("tournament.not_found"))
async def verify_tournament(tournament_id: str, director: DirectorDep) -> dict[str, Any]:
    """Whether every table of each board of the finished rounds got the same cards
    (``docs/tournaments.md``, "Checking the deals"): per board, the revealed seed against the
    commitment published before the round, each table's game dealt from it (no client seed,
    dealer 0), the same first deal everywhere, and each game verified on its own. No card is
    answered. 404 ``tournament.not_found``."""
    try:
        return await director.verify(tournament_id)
    except TournamentNotFoundError as exc:
        raise ApiError("tournament.not_found", str(exc)) from exc


ENTRY_ERRORS: tuple[RestErrorCode, ...] = ("tournament.not_found", "tournament.closed", "auth.missing_token",
                "rate.limited")


async def _entry(step: Any, tournament_id: str, director: Director,
                 player: Any) -> dict[str, Any]:
    """Run one registration step (:mod:`cardhall.tournaments.registration`), its refusals as
    typed errors: 404 ``tournament.not_found``, 409 for an :class:`EntryError`."""
    try:
        doc: dict[str, Any] = await step(director, tournament_id, player)
    except TournamentNotFoundError as exc:
        raise ApiError("tournament.not_found", str(exc)) from exc
    except EntryError as exc:
        raise ApiError(cast(RestErrorCode, exc.code), str(exc)) from exc
    return doc


@router.post("/{tournament_id}/join", dependencies=[Depends(refuse_if_draining)],
             responses=responses(*ENTRY_ERRORS, "tournament.full", "tournament.already_entered",
                                 "server.draining"))
async def join_tournament(tournament_id: str, director: DirectorDep,
                          player: PlayerDep) -> dict[str, Any]:
    """Enter the caller in an open tournament while it registers (``docs/tournaments.md``,
    "People as entrants"): in a partnership game with a built-in ``rule`` bot as partner.
    Answers the public document. 409 ``tournament.closed`` (not registering),
    ``tournament.already_entered``, ``tournament.full``."""
    return await _entry(registration.join, tournament_id, director, player)


@router.post("/{tournament_id}/withdraw",
             responses=responses(*ENTRY_ERRORS, "tournament.not_entered"))
async def withdraw_from_tournament(tournament_id: str, director: DirectorDep,
                                   player: PlayerDep) -> dict[str, Any]:
    """Withdraw the caller: while registering the entrant is taken out; once running it is
    marked ``withdrawn``, its current table plays on (a stand-in) and it is paired no more.
    409 ``tournament.not_entered``, ``tournament.closed`` (ended, or withdrawn already)."""
    return await _entry(registration.withdraw, tournament_id, director, player)


@router.post("/{tournament_id}/start",
             responses=responses(*ENTRY_ERRORS, "tournament.not_creator"))
async def start_tournament(tournament_id: str, director: DirectorDep,
                           player: PlayerDep) -> dict[str, Any]:
    """The creator starts a registering tournament now instead of at ``starts_at``; answers
    the document (its status turns ``running``, or ``cancelled`` with too few entrants, a
    moment later). 403 ``tournament.not_creator``; 409 ``tournament.closed``."""
    return await _entry(registration.start_now, tournament_id, director, player)


@router.post("/{tournament_id}/cancel",
             responses=responses(*ENTRY_ERRORS, "tournament.not_creator"))
async def cancel_tournament(tournament_id: str, director: DirectorDep,
                            player: PlayerDep) -> dict[str, Any]:
    """The creator calls off a registering tournament before it starts: it ends
    ``cancelled`` with nothing played (the admin's is ``POST
    /api/admin/tournaments/{id}/cancel``). 403 ``tournament.not_creator``; 409
    ``tournament.closed`` (not registering)."""
    return await _entry(registration.cancel, tournament_id, director, player)


admin_router = APIRouter(prefix="/api/admin/tournaments", tags=["admin"],
                         dependencies=[Depends(require_admin)])


@admin_router.post("/{tournament_id}/cancel",
                   responses=responses("tournament.not_found", "tournament.closed",
                                       "admin.invalid_token", "admin.disabled"))
async def admin_cancel_tournament(tournament_id: str, director: DirectorDep,
                                  audit: AuditDep) -> dict[str, Any]:
    """The admin calls off a registering tournament (a stranger's that holds a place for
    hours, ``docs/tournaments.md`` "Limits"); audited. 409 ``tournament.closed`` (not
    registering)."""
    doc = await _entry(functools.partial(registration.cancel, admin=True), tournament_id,
                       director, None)
    await audit.record("tournament.cancel", tournament_id)
    return doc
