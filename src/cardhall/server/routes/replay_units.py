"""``GET /api/games/{id}/steps``: where a finished game's tricks, betting rounds or battles end,
so the replay viewer can step by them as well as by action (``docs/rest.md``, "Finished
games").

Each game names its unit on its rules object (``GameRules.replay_unit``: Blot's trick,
Soldier's Bluff's round, Palace Poker's battle). The stops are found by replaying the game once and reading the *public* events of each step
(what a spectator saw), so they say nothing a spectator did not see: a stop is a step count
``k`` (actions applied) after which one unit is complete.
"""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.requests import HTTPConnection
from pydantic import BaseModel

from ...engine import EngineError, History, apply_logged, filter_events, get_game
from ...engine.history import start_state
from ..deps import StoreDep
from ..errors import ApiError, responses
from .games import found_history

router = APIRouter(prefix="/api/games", tags=["games"])

class ReplayUnits(BaseModel):
    """``unit`` (``trick``, ``round``, ``battle``, or ``action`` for a game without units) and
    ``stops``: ascending step counts after which a unit is complete (the last is ``steps``)."""

    game: str
    steps: int
    unit: str
    stops: list[int]


@router.get("/{game_id}/steps", responses=responses("game.not_found"))
async def replay_units(game_id: str, conn: HTTPConnection, store: StoreDep) -> ReplayUnits:
    """The stops of the replay viewer's "step by trick / round / battle". 404
    ``game.not_found`` for an unknown game, one withheld (a tournament board whose round is
    not scored yet: its stops would tell how its tricks fell) or one this build cannot
    replay."""
    doc = await found_history(conn, await store.get_game(game_id), game_id)
    try:
        history = History.from_json(doc)
        found = get_game(history.game).replay_unit  # the game's fact (its rules object)
        unit, kinds = (found.name, found.ends_with) if found else ("action", frozenset[str]())
        stops = _stops(history, kinds)
    except EngineError as exc:
        raise ApiError("game.not_found", f"game {game_id!r} cannot be replayed by this build: "
                       f"[{exc.code}] {exc.message}") from exc
    return ReplayUnits(game=history.game, steps=len(history.actions), unit=unit, stops=stops)


def _stops(history: History, kinds: frozenset[str]) -> list[int]:
    """Step counts whose step showed a spectator one of ``kinds`` (every step when ``kinds``
    is empty), and the last step."""
    _, state = start_state(history)
    stops: list[int] = []
    for k, entry in enumerate(history.actions, start=1):
        events = filter_events(apply_logged(state, entry.seat, entry.action), None)
        if not kinds or any(e.get("kind") in kinds for e in events):
            stops.append(k)
    if history.actions and (not stops or stops[-1] != len(history.actions)):
        stops.append(len(history.actions))
    return stops
