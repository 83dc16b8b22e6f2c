"""``GET /api/games/{id}/hands``: the replay's "open hands" perspective, every seat's own
cards at one step of a finished game, shown only to those who may see them (``docs/rest.md``,
"Finished games"; ``docs/security.md``).

The rule is issue 17's: the *full copy* of a finished game (every card) is for the game's own
players (their bearer token; a player is in the game when its id is one of the history's
``seats[].player_id``) and the admin (``CARDHALL_ADMIN_TOKEN``); everyone else gets only what a
spectator was shown, so their open-hands view holds no seat's hidden cards (``hands`` empty).
A seat's hand is what its ``view(seat)`` shows that the spectator's ``view(None)`` does not
(Blot and Soldier's Bluff: ``hand``; Palace Poker: ``palace``), so no game needs a hook.
"""

from __future__ import annotations

import hmac
from typing import Annotated, Any

from fastapi import APIRouter, Query
from pydantic import BaseModel, ConfigDict, Field

from ...engine import EngineError, History, replay
from ...storage.interface import Store
from ..deps import SettingsDep, StoreDep, TokenDep
from ..errors import ApiError, responses
from ..security import authenticate

router = APIRouter(prefix="/api/games", tags=["games"])

IDENTITY_FIELDS = frozenset({"seat", "viewer"})
"""View fields that only say whose view it is (not a card)."""


class SeatHand(BaseModel):
    """One seat's own cards at the step: the fields of its view a spectator's lacks (e.g.
    ``{"hand": ["8c", ...]}``, Palace Poker ``{"palace": [...]}``)."""

    seat: int
    name: str
    cards: dict[str, Any]


class OpenHands(BaseModel):
    """Every seat's hand at ``step`` (clamped to ``steps``) for a caller who may see them
    (``copy: "full"``); for anyone else ``copy: "public"`` and no hands."""

    model_config = ConfigDict(populate_by_name=True)

    game: str
    step: int
    steps: int
    copy_: str = Field(alias="copy")
    """``full`` (every seat's hand) or ``public`` (what a spectator saw: no hands)."""
    hands: list[SeatHand]


async def sees_everything(store: Store, admin_token: str | None, token: str | None,
                          doc: dict[str, Any]) -> bool:
    """Whether the bearer ``token`` may see every card of ``doc``: the admin's token
    (constant-time compare) or the token of a player who held a seat of the game. No token:
    ``False``; a bad one: 401/403 as every player route."""
    if not token:
        return False
    if admin_token and hmac.compare_digest(token.encode(), admin_token.encode()):
        return True
    player = await authenticate(store, token)
    seats = doc.get("seats") or ()
    return any(isinstance(s, dict) and s.get("player_id") == player.id for s in seats)


def own_cards(full: dict[str, Any], public: dict[str, Any]) -> dict[str, Any]:
    """The fields of a seat's view that the spectator's view lacks or shows otherwise."""
    return {k: v for k, v in full.items()
            if k not in IDENTITY_FIELDS and public.get(k, object()) != v}


@router.get("/{game_id}/hands", responses=responses(
    "game.not_found", "request.invalid", "auth.invalid_token", "auth.banned", "auth.disabled"),
    openapi_extra={"security": [{}, {"PlayerToken": []}]})
async def open_hands(
    game_id: str, store: StoreDep, settings: SettingsDep, token: TokenDep,
    step: Annotated[int, Query(ge=0, description="Actions applied")] = 0,
) -> OpenHands:
    """Every seat's hand after ``step`` actions, for the game's players and the admin; for
    others, nothing beyond the spectator's view (``copy: "public"``, ``hands: []``). 404
    ``game.not_found`` (also for a history this build cannot replay)."""
    doc = await store.get_game(game_id)
    if doc is None:
        raise ApiError("game.not_found", f"no finished game {game_id!r}")
    try:
        history = History.from_json(doc)
        step = min(step, len(history.actions))
        everything = await sees_everything(store, settings.admin_token, token, doc)
        hands = _hands(history, step) if everything else []
    except EngineError as exc:
        raise ApiError("game.not_found", f"game {game_id!r} cannot be replayed by this build: "
                       f"[{exc.code}] {exc.message}") from exc
    return OpenHands(game=history.game, step=step, steps=len(history.actions),
                     copy="full" if everything else "public", hands=hands)


def _hands(history: History, step: int) -> list[SeatHand]:
    state = replay(history, upto=step)
    public = state.view(None)
    return [SeatHand(seat=s, name=info.name, cards=own_cards(state.view(s), public))
            for s, info in enumerate(history.seats)]
