"""``POST /api/admin/bots``: the admin creates a bot identity (optionally owned by a player).

Players create their own bots with ``POST /api/players`` (``bot: true`` plus their bearer
token); this route is for house bots and for bots made on a player's behalf. The answer carries
the bot's bearer token, shown once (only its hash is stored). See ``docs/bots.md``.
"""

from __future__ import annotations

from fastapi import APIRouter, Depends
from pydantic import BaseModel, ConfigDict, Field

from ..audit import AuditDep
from ..deps import StoreDep, require_admin
from ..errors import ApiError, responses
from .players import PlayerCreated, PlayerName, PlayerPublic

router = APIRouter(
    prefix="/api/admin", tags=["admin"], dependencies=[Depends(require_admin)],
    responses=responses("admin.disabled", "admin.invalid_token"),
)


class BotCreate(BaseModel):
    """A bot's display name (1-32 characters) and, optionally, the player who owns it."""

    model_config = ConfigDict(extra="forbid")

    name: PlayerName
    owner_id: str | None = Field(None, max_length=64, description="An existing player's id")


@router.post("/bots", status_code=201, responses=responses("request.invalid",
                                                           "player.not_found"))
async def create_bot(body: BotCreate, store: StoreDep, audit: AuditDep) -> PlayerCreated:
    """Create a bot identity (``bot: true``) and return its token; 404 ``player.not_found``
    when ``owner_id`` names no player."""
    if body.owner_id is not None and await store.get_player(body.owner_id) is None:
        raise ApiError("player.not_found", f"no player {body.owner_id!r}")
    rec, token = await store.create_player(body.name, is_bot=True, owner_id=body.owner_id)
    await audit.record("bot.create", rec.id, name=rec.name, owner_id=rec.owner_id)
    return PlayerCreated(**PlayerPublic.of(rec).model_dump(), token=token)
