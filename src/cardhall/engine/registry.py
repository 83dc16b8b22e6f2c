"""The game registry: games by name (``docs/design.md``, "Adding a game").

The one list of games is :data:`GAME_MODULES`. Each game package ``cardhall.games.<name>``
exposes ``RULES``, its :class:`GameRules` instance. Adding a game = adding its package and one
line here (``docs/design.md`` section 12 lists the rest); the table layer, server, storage and
SDK learn everything else from ``RULES``.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

from .errors import UnknownGameError
from .rules import GameRules

GAME_MODULES: dict[str, str] = {
    "bazaar_blot": "cardhall.games.bazaar_blot",
    "palace_poker": "cardhall.games.palace_poker",
    "soldiers_bluff": "cardhall.games.soldiers_bluff",
}
"""Registered game name -> the module exposing its ``RULES``."""


@cache
def get_game(name: str) -> GameRules[Any]:
    """The rules object registered as ``name``.

    Raises:
        UnknownGameError: no game is registered under ``name`` (the message lists the known).
    """
    module_name = GAME_MODULES.get(name) if isinstance(name, str) else None
    if module_name is None:
        raise UnknownGameError(f"unknown game {name!r}; known: {sorted(GAME_MODULES)}")
    rules: GameRules[Any] = importlib.import_module(module_name).RULES
    return rules


def game_names() -> list[str]:
    """Names of the registered games, sorted."""
    return sorted(GAME_MODULES)
