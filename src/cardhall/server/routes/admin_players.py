"""``/api/admin/players``: list players, ban and unban (admin token required)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request
from pydantic import BaseModel

from ...storage.interface import PlayerRecord
from ..audit import AuditDep
from ..deps import HallDep, StoreDep, require_admin
from ..errors import ApiError, responses
from ..ws import close_sessions
from .games import MAX_OFFSET

router = APIRouter(
    prefix="/api/admin", tags=["admin"], dependencies=[Depends(require_admin)],
    responses=responses("admin.disabled", "admin.invalid_token"),
)


class PlayerAdmin(BaseModel):
    """A player as the admin sees it (with the ban flag)."""

    id: str
    name: str
    bot: bool
    banned: bool
    owner_id: str | None

    @classmethod
    def of(cls, rec: PlayerRecord) -> PlayerAdmin:
        """The admin's view of ``rec``."""
        return PlayerAdmin(id=rec.id, name=rec.name, bot=rec.is_bot, banned=rec.banned,
                   owner_id=rec.owner_id)


class PlayerPage(BaseModel):
    """One page of players, oldest first; ``next_offset`` is ``None`` on the last page."""

    items: list[PlayerAdmin]
    limit: int
    offset: int
    next_offset: int | None


@router.get("/players")
async def list_players(
    store: StoreDep,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
    offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0,
) -> PlayerPage:
    """Every identity, oldest first."""
    rows = await store.list_players(limit=limit + 1, offset=offset)
    more = len(rows) > limit
    return PlayerPage(items=[PlayerAdmin.of(r) for r in rows[:limit]], limit=limit,
                      offset=offset, next_offset=offset + limit if more else None)


@router.get("/players/{player_id}", responses=responses("player.not_found"))
async def get_player(player_id: str, store: StoreDep) -> PlayerAdmin:
    """One identity."""
    rec = await store.get_player(player_id)
    if rec is None:
        raise ApiError("player.not_found", f"no player {player_id!r}")
    return PlayerAdmin.of(rec)


class BanResult(PlayerAdmin):
    """What a ban did: the player as it is now, ``changed`` (this call banned it),
    ``seats_kicked`` (``"<table id>:<seat>"`` of every seat this call kicked, the owned bots'
    included), ``bots_banned`` (ids of the player's bots this call banned) and
    ``sockets_closed`` (open WebSockets of these identities this call closed)."""

    changed: bool
    seats_kicked: list[str]
    bots_banned: list[str]
    sockets_closed: int


class UnbanResult(PlayerAdmin):
    """What an unban did: the player as it is now and ``changed`` (this call lifted a ban)."""

    changed: bool


async def _set_banned(store: StoreDep, player_id: str, banned: bool) -> tuple[PlayerRecord, bool]:
    """Set the flag; returns the player now and whether this call changed it (404 if none)."""
    before = await store.get_player(player_id)
    if before is None:
        raise ApiError("player.not_found", f"no player {player_id!r}")
    rec = await store.set_banned(player_id, banned)
    if rec is None:
        raise ApiError("player.not_found", f"no player {player_id!r}")
    return rec, before.banned != banned


@router.post("/players/{player_id}/ban", responses=responses("player.not_found"))
async def ban(player_id: str, request: Request, store: StoreDep, hall: HallDep,
              audit: AuditDep) -> BanResult:
    """Ban a player and the bots it owns (``players.owner_id``): their tokens are refused
    (403 ``auth.banned``) from now on, their open sockets are told ``auth.banned`` and closed
    (4003), and every seat they hold at any live table is kicked (``table_closed``/``kicked``;
    mid-game a stand-in bot plays the seat until the game ends). Idempotent: a second ban
    answers ``changed: false`` and empty lists."""
    player, changed = await _set_banned(store, player_id, True)
    identities = [player_id]
    bots_banned: list[str] = []
    for bot in await store.bots_of(player_id):
        _, bot_changed = await _set_banned(store, bot.id, True)
        identities.append(bot.id)
        if bot_changed:
            bots_banned.append(bot.id)
    cache = getattr(request.app.state, "auth_cache", None)
    if cache is not None:  # before the kicks: a join while they run must see the ban
        cache.invalidate(identities)
    kicked: list[str] = []
    for identity in identities:  # every node's seats (the kicked get table_closed first)
        kicked += await hall.kick_player(identity, reason="banned")
    closed = close_sessions(request.app.state.sessions, set(identities), cache)
    result = BanResult(**PlayerAdmin.of(player).model_dump(), changed=changed,
                       seats_kicked=kicked, bots_banned=bots_banned, sockets_closed=closed)
    await audit.record("player.ban", player_id, changed=changed, seats_kicked=kicked,
                       bots_banned=bots_banned, sockets_closed=closed)
    return result


@router.post("/players/{player_id}/unban", responses=responses("player.not_found"))
async def unban(player_id: str, store: StoreDep, audit: AuditDep) -> UnbanResult:
    """Lift a player's ban (only its own: bots banned with their owner stay banned until each
    is unbanned). Idempotent: ``changed: false`` when the player was not banned."""
    player, changed = await _set_banned(store, player_id, False)
    await audit.record("player.unban", player_id, changed=changed)
    return UnbanResult(**PlayerAdmin.of(player).model_dump(), changed=changed)
