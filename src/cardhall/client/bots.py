"""What the SDK drives: the :class:`Bot` interface, the built-in policies wrapped as SDK bots,
and loading a bot class named ``module:Class``.

A bot is any object with ``choose(view, legal_actions)`` returning one concrete action (a dict
matching one legal entry; see ``docs/bots.md``), either directly or as an awaitable. It may also
define ``on_game_over(message)`` and ``on_error(message)``; both are optional.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Awaitable
from typing import Any, Protocol

Action = dict[str, Any]


class Bot(Protocol):
    """A bot's decision function: ``view`` is the seat's view (exactly what a person at that
    seat sees), ``legal_actions`` its non-empty list of legal entries; the result is one
    concrete action (or an awaitable of one). A sync ``choose`` runs on the event loop, so it
    must be quick; think longer in an ``async def choose`` (e.g. ``asyncio.to_thread``)."""

    def choose(self, view: dict[str, Any], legal_actions: list[Action]) -> Action | Awaitable[Action]: ...


class BuiltinBot:
    """A built-in policy (``random`` or ``rule``, :func:`cardhall.bots.get_policy`) as an SDK bot.

    Args:
        game: the game name (the rule policy is per game).
        kind: ``"random"`` or ``"rule"``.
        seed: seeds the policy's random source (``None``: fresh entropy).

    Raises:
        ValueError: unknown ``kind``.
    """

    def __init__(self, game: str, kind: str, seed: int | None = None) -> None:
        from ..bots import get_policy

        self.name = kind
        self.policy = get_policy(game, kind)
        self.rng = random.Random(seed)

    def choose(self, view: dict[str, Any], legal_actions: list[Action]) -> Action:
        return self.policy.choose(view, legal_actions, self.rng)


BUILTIN = ("random", "rule")


def load_bot(spec: str, game: str, seed: int | None = None) -> Any:
    """The bot named by ``spec``: a built-in kind (``random``, ``rule``) or ``module:Class``
    (instantiated with no arguments; the module must be importable).

    Raises:
        ValueError: ``spec`` is neither, or the class has no ``choose``.
        ImportError / AttributeError: the module or class does not exist.
    """
    if spec in BUILTIN:
        return BuiltinBot(game, spec, seed)
    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr:
        raise ValueError(f"bot {spec!r} is neither {' nor '.join(BUILTIN)} nor module:Class")
    cls = getattr(importlib.import_module(module_name), attr)
    bot = cls()
    if not callable(getattr(bot, "choose", None)):
        raise ValueError(f"bot {spec!r} has no choose(view, legal_actions) method")
    return bot
