"""The game registry: games by name (``design.md`` section 2).

Each game module ``cardhall.games.<name>`` exposes ``RULES``, a :class:`GameRules` instance.
Adding a game = adding its module and one line to :data:`GAME_MODULES`; nothing else in the
engine or server changes.
"""

from __future__ import annotations

import importlib
from functools import cache

from .errors import UnknownGameError
from .game import GameRules

GAME_MODULES: dict[str, str] = {
    "bazaar_blot": "cardhall.games.bazaar_blot",
    "soldiers_bluff": "cardhall.games.soldiers_bluff",
    "palace_poker": "cardhall.games.palace_poker",
}


@cache
def get_game(name: str) -> GameRules:
    """The rules object registered as ``name``.

    Raises:
        UnknownGameError: no such game, or its module is not installed in this build.
    """
    module_name = GAME_MODULES.get(name)
    if module_name is None:
        raise UnknownGameError(f"unknown game {name!r}; known: {sorted(GAME_MODULES)}")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name:
            raise
        raise UnknownGameError(f"game {name!r} is not available in this build") from exc
    rules: GameRules = module.RULES
    return rules


def game_names() -> list[str]:
    """Names of the games available in this build, sorted."""
    out = []
    for name in sorted(GAME_MODULES):
        try:
            get_game(name)
        except UnknownGameError:
            continue
        out.append(name)
    return out
