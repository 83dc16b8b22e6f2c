"""``/api/players``: create guest and bot identities, and who-am-I (``design.md`` section 6)."""

from __future__ import annotations

import unicodedata
from typing import Annotated

from fastapi import APIRouter
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints

from ...storage.interface import PlayerRecord
from ..deps import OptionalPlayerDep, PlayerDep, StoreDep
from ..errors import responses

router = APIRouter(prefix="/api/players", tags=["players"])

def _printable(name: str) -> str:
    """Refuse control and format characters (category C*) in a display name."""
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        raise ValueError("name must not contain control or format characters")
    return name


PlayerName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=32),
                       AfterValidator(_printable)]
"""A display name: 1-32 printable characters after trimming."""


class PlayerCreate(BaseModel):
    """``POST /api/players`` body: a display name (1-32 characters) and whether it is a bot."""

    model_config = ConfigDict(extra="forbid", strict=True)

    name: PlayerName
    bot: bool = False


class PlayerPublic(BaseModel):
    """A player as others may see it."""

    id: str
    name: str
    bot: bool
    owner_id: str | None = Field(None, description="The player who created this bot")

    @classmethod
    def of(cls, rec: PlayerRecord) -> PlayerPublic:
        return cls(id=rec.id, name=rec.name, bot=rec.is_bot, owner_id=rec.owner_id)


class PlayerCreated(PlayerPublic):
    """The new identity and its bearer token (shown once; only its hash is stored)."""

    token: str


@router.post("", status_code=201, responses=responses(
    "request.invalid", "auth.invalid_token", "auth.banned"),
    openapi_extra={"security": [{}, {"PlayerToken": []}]})  # the token is optional here
async def create_player(body: PlayerCreate, store: StoreDep,
                        caller: OptionalPlayerDep) -> PlayerCreated:
    """Create a guest (or a bot) identity and return its token.

    A bot created with a caller's bearer token is owned by that caller (``owner_id``); an
    invalid token is refused rather than ignored.
    """
    owner = caller.id if body.bot and caller is not None else None
    rec, token = await store.create_player(body.name, is_bot=body.bot, owner_id=owner)
    return PlayerCreated(**PlayerPublic.of(rec).model_dump(), token=token)


@router.get("/me", responses=responses("auth.missing_token", "auth.invalid_token",
                                       "auth.banned"))
async def me(player: PlayerDep) -> PlayerPublic:
    """The identity of the bearer token."""
    return PlayerPublic.of(player)
