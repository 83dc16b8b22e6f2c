"""``/api/admin/players``: list players, ban and unban (admin token required)."""

from __future__ import annotations

import contextlib
from typing import Annotated

from fastapi import APIRouter, Depends, Query
from pydantic import BaseModel

from ...storage.interface import PlayerRecord
from ...tables.errors import TableNotFoundError
from ..audit import admin_action
from ..deps import StoreDep, TablesDep, require_admin
from ..errors import ApiError, responses
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
        return cls(id=rec.id, name=rec.name, bot=rec.is_bot, banned=rec.banned,
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


async def _set_banned(store: StoreDep, player_id: str, banned: bool) -> PlayerAdmin:
    rec = await store.set_banned(player_id, banned)
    if rec is None:
        raise ApiError("player.not_found", f"no player {player_id!r}")
    return PlayerAdmin.of(rec)


@router.post("/players/{player_id}/ban", responses=responses("player.not_found"))
async def ban(player_id: str, store: StoreDep, manager: TablesDep) -> PlayerAdmin:
    """Ban a player: their token is refused (403 ``auth.banned``) from now on, an open socket
    may join no table, and every seat they hold is kicked (``table_closed``/``kicked``)."""
    player = await _set_banned(store, player_id, True)
    kicked: list[str] = []
    for table in manager.list():
        held = [s.index for s in table.seats if s.player_id == player_id and not s.bot]
        for seat in held:
            with contextlib.suppress(TableNotFoundError):  # the table closed meanwhile
                await manager.kick(table.id, seat)
                kicked.append(f"{table.id}:{seat}")
    admin_action("player.ban", player_id, kicked_seats=kicked)
    return player


@router.post("/players/{player_id}/unban", responses=responses("player.not_found"))
async def unban(player_id: str, store: StoreDep) -> PlayerAdmin:
    """Lift a ban."""
    player = await _set_banned(store, player_id, False)
    admin_action("player.unban", player_id)
    return player
