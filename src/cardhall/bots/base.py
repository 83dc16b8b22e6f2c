"""The bot policy interface and the random policy (works for every game)."""

from __future__ import annotations

import importlib
import random
from typing import Any, Protocol

from ..engine.actions import Action, sample


class Policy(Protocol):
    """A bot's decision function.

    ``choose`` gets the seat's view (exactly what a person at that seat would see) and its
    legal-action entries (non-empty) and returns one concrete action that matches an entry.
    """

    name: str

    def choose(self, view: dict[str, Any], legal_actions: list[Action], rng: random.Random) -> Action: ...


class RandomPolicy:
    """Uniformly random entry, then a random instance of it (amounts and card choices)."""

    name = "random"

    def choose(self, view: dict[str, Any], legal_actions: list[Action], rng: random.Random) -> Action:
        return sample(rng.choice(legal_actions), rng)


def get_policy(game: str, kind: str) -> Policy:
    """The built-in policy ``kind`` (``"random"`` or ``"rule"``) for ``game``.

    The rule-based policy of a game lives in ``cardhall.bots.<game>`` as ``RulePolicy``; until a
    game has one, ``"rule"`` falls back to random.

    Raises:
        ValueError: unknown ``kind``.
    """
    if kind == "random":
        return RandomPolicy()
    if kind != "rule":
        raise ValueError(f"unknown bot kind {kind!r}; known: {policy_names()}")
    try:
        module = importlib.import_module(f"cardhall.bots.{game}")
    except ModuleNotFoundError:
        return RandomPolicy()
    policy: Policy = module.RulePolicy()
    return policy


def policy_names() -> list[str]:
    """The kinds of built-in bot."""
    return ["random", "rule"]
