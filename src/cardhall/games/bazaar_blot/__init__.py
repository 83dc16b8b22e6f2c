"""Bazaar Blot: the four-player Armenian trick-taking game (``docs/rules/bazaar-blot.md``).

``RULES`` is the registered :class:`~cardhall.engine.GameRules` (name ``"bazaar_blot"``, exactly
4 seats in two fixed partnerships, no chip stacks). A state is one whole match to the target
score. Chance: :meth:`BlotState.chance_action` hands ``shuffle`` the 32 card codes in canonical
order (suits c, d, h, s; ranks 7 8 9 T J Q K A) and deals 8 cards each, in seat order starting
left of the dealer (seat ``dealer+1`` gets shuffled cards 0-7, and so on).

The layout is in ``docs/games/bazaar_blot.md``.
"""

from __future__ import annotations

from .config import BlotConfig
from .model import Phase
from .rules import RULES, BlotRules
from .state import BlotState

__all__ = ["RULES", "BlotConfig", "BlotRules", "BlotState", "Phase"]
