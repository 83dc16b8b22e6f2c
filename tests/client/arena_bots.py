"""An SDK bot loaded by the arena tests as ``arena_bots:FirstLegal``."""

from __future__ import annotations

from typing import Any

from cardhall.engine.actions import minimal


class FirstLegal:
    """Always the first legal entry, amounts at their minimum, the first allowed cards."""

    name = "first"

    def choose(self, view: dict[str, Any], legal_actions: list[dict[str, Any]]) -> dict[str, Any]:
        return minimal(legal_actions[0])
