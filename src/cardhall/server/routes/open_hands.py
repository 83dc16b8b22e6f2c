"""``GET /api/games/{id}/hands``: the replay's "open hands" perspective, every seat's own
cards at one step of a finished game, shown only as far as the caller may see them
(``docs/rest.md``, "Finished games"; ``docs/fairness.md`` section 7; ``docs/security.md``).

The rule is the two copies' (``server/copies.py``): whoever may have the *full copy* (a player
of that game or the admin, with their token; anyone once the game is published) sees every
seat's hand. Everyone else gets the *table copy*'s hands: each card the spectator's view does
not show at that step is ``"??"`` (:data:`~cardhall.engine.HIDDEN`), and every field of the
seat's view that holds no card (a Soldier's Bluff ``hand_sum``) is left out, so the answer
never holds a card the table was not shown then, nor anything derived from one. A seat's hand is what its ``view(seat)`` shows that the
spectator's ``view(None)`` does not (Blot and Soldier's Bluff: ``hand``; Palace Poker:
``palace``), so no game needs a hook.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.requests import HTTPConnection
from pydantic import BaseModel, ConfigDict, Field

from ...engine import EngineError, History, get_game, replay
from ...engine.cardcodes import cards_only
from ...engine.inspect import strings_in
from ..copies import Reader, ReaderDep, full_access
from ..deps import SettingsDep, StoreDep
from ..errors import ApiError, responses
from .games import found_history

router = APIRouter(prefix="/api/games", tags=["games"])

IDENTITY_FIELDS = frozenset({"seat", "viewer"})
"""View fields that only say whose view it is (not a card)."""


class SeatHand(BaseModel):
    """One seat's own cards at the step: the fields of its view a spectator's lacks (e.g.
    ``{"hand": ["8c", ...], "hand_sum": 27}``, Palace Poker ``{"palace": [...]}``); in the
    table copy only its cards (``"??"`` for a card the caller may not see), no other field."""

    seat: int
    name: str
    cards: dict[str, Any]


class OpenHands(BaseModel):
    """Every seat's hand at ``step`` (clamped to ``steps``): from the full copy (``copy:
    "full"``) or as the table saw it (``copy: "table"``: unseen cards ``"??"``)."""

    model_config = ConfigDict(populate_by_name=True)

    game: str
    step: int
    steps: int
    copy_: str = Field(alias="copy")
    """``full`` or ``table``."""
    hands: list[SeatHand]


def own_cards(full: dict[str, Any], public: dict[str, Any]) -> dict[str, Any]:
    """The fields of a seat's view that the spectator's view lacks or shows otherwise."""
    return {k: v for k, v in full.items()
            if k not in IDENTITY_FIELDS and public.get(k, object()) != v}


def _everything(doc: dict[str, Any], who: Reader, settings: SettingsDep) -> bool:
    """Whether the caller may have the full copy (no ``full=1`` needed here: a player's or
    the admin's token is the request)."""
    try:
        return full_access(doc, who, settings, full=True)
    except ApiError as exc:  # a guest or another player: the table copy
        if exc.code in ("auth.missing_token", "game.not_participant"):
            return False
        raise


@router.get("/{game_id}/hands", responses=responses(
    "game.not_found", "request.invalid", "auth.invalid_token", "auth.banned", "auth.disabled"),
    openapi_extra={"security": [{}, {"PlayerToken": []}]})
async def open_hands(
    game_id: str, conn: HTTPConnection, store: StoreDep, settings: SettingsDep, who: ReaderDep,
    step: Annotated[int, Query(ge=0, description="Actions applied")] = 0,
) -> OpenHands:
    """Every seat's hand after ``step`` actions: all its cards for a player of the game, the
    admin or a published game, else only those the table was shown (``"??"`` otherwise). 404
    ``game.not_found`` (also for a history this build cannot replay, and for a tournament
    board withheld until its round is scored: :func:`~.games.found_history`)."""
    doc = await found_history(conn, await store.get_game(game_id), game_id, admin=who.admin)
    try:
        history = History.from_json(doc)
        step = min(step, len(history.actions))
        everything = _everything(doc, who, settings)
        hands = _hands(history, step, everything)
    except EngineError as exc:
        raise ApiError("game.not_found", f"game {game_id!r} cannot be replayed by this build: "
                       f"[{exc.code}] {exc.message}") from exc
    return OpenHands(game=history.game, step=step, steps=len(history.actions),
                     copy="full" if everything else "table", hands=hands)


def _hands(history: History, step: int, everything: bool) -> list[SeatHand]:
    """Each seat's own cards after ``step`` actions; without ``everything``, only its cards,
    each card the spectator's view does not show at that step ``"??"``, and nothing else of
    its view (:func:`~cardhall.engine.cardcodes.cards_only`: a Soldier's Bluff ``hand_sum``
    would tell what a face-down hand holds)."""
    state = replay(history, upto=step)
    public = state.view(None)
    codes = get_game(history.game).card_codes
    shown = {s for s in strings_in(public) if s in codes}
    hands = []
    for s, info in enumerate(history.seats):
        cards = own_cards(state.view(s), public)
        if not everything:
            cards = cards_only(cards, shown.__contains__, codes) or {}
        hands.append(SeatHand(seat=s, name=info.name, cards=cards))
    return hands
