"""What the SDK drives: the :class:`Bot` interface, the built-in policies wrapped as SDK bots,
and loading a bot class named ``module:Class``.

A bot is any object with ``choose(view, legal_actions)`` returning one concrete action (a dict
matching one legal entry; see ``docs/bots.md``), either directly or as an awaitable. It may also
define ``on_game_over(message)`` and ``on_error(message)``; both are optional.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import random
import sys
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
    """The bot named by ``spec``: a built-in kind (``random``, ``rule``) or ``module:Class``.

    ``module`` is imported like ``python -m`` would: the current directory is searched first
    (so ``mybots:Plain`` finds ``./mybots.py``), then ``sys.path``. ``Class`` is called with
    **no arguments** and the instance must have a ``choose`` method.

    Raises:
        ValueError: ``spec`` is neither form, the module cannot be imported (or fails while
            importing), it has no such class, the class cannot be built without arguments, or
            the bot has no ``choose``; the message is one line naming ``spec`` and the cause.
    """
    if spec in BUILTIN:
        return BuiltinBot(game, spec, seed)
    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr:
        raise ValueError(f"bot {spec!r} is neither {' nor '.join(BUILTIN)} nor module:Class")
    try:
        module = _import_from_cwd(module_name)
    except Exception as exc:  # ImportError, SyntaxError, or whatever the module raised
        raise ValueError(f"bot {spec!r}: cannot import {module_name!r}: "
                         f"{type(exc).__name__}: {_one_line(exc)}") from exc
    cls = getattr(module, attr, None)
    if cls is None:
        raise ValueError(f"bot {spec!r}: module {module_name!r} has no {attr!r}")
    try:
        bot = cls()
    except Exception as exc:
        raise ValueError(f"bot {spec!r}: {attr}() (built with no arguments) failed: "
                         f"{type(exc).__name__}: {_one_line(exc)}") from exc
    if not callable(getattr(bot, "choose", None)):
        raise ValueError(f"bot {spec!r} has no choose(view, legal_actions) method")
    return bot


def _import_from_cwd(module_name: str) -> Any:
    """Import ``module_name`` with the current directory first on the path (as ``python -m``
    does), restoring ``sys.path`` afterwards."""
    cwd = os.getcwd()
    sys.path.insert(0, cwd)
    try:
        return importlib.import_module(module_name)
    finally:
        with contextlib.suppress(ValueError):
            sys.path.remove(cwd)


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else "(no message)"
