"""The bot policy interface and the random policy (works for every game)."""

from __future__ import annotations

import importlib
import random
from typing import Any, Protocol

from ..engine.actions import Action, sample
from ..engine.registry import game_names


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


RULE_POLICIES: dict[str, str] = {name: f"cardhall.bots.{name}" for name in game_names()}
"""The module holding each registered game's ``RulePolicy``: ``cardhall.bots.<game>``, by the
registry's names (every registered game has one; a test checks)."""


def get_policy(game: str, kind: str, config: Any = None) -> Policy:
    """The built-in policy ``kind`` (``"random"`` or ``"rule"``) for ``game``, playing under
    ``config`` (the table's rules config; ``None``: the game's defaults). A rule bot needs the
    config where the rules it plays by are not in the view (e.g. Blot's ``carre_values``).

    The rule-based policy of a game is the ``RulePolicy`` class of the module named in
    :data:`RULE_POLICIES` (imported on first use: the rule bots import this module).

    Raises:
        ValueError: unknown ``kind``, or no rule policy for ``game``.
    """
    if kind == "random":
        return RandomPolicy()
    if kind != "rule":
        raise ValueError(f"unknown bot kind {kind!r}; known: {policy_names()}")
    if game not in RULE_POLICIES:
        raise ValueError(f"no rule bot for game {game!r}; games with one: {sorted(RULE_POLICIES)}")
    policy: Policy = importlib.import_module(RULE_POLICIES[game]).RulePolicy(config)
    return policy


def policy_names() -> list[str]:
    """The kinds of built-in bot."""
    return ["random", "rule"]
