"""Soldier's Bluff (``docs/rules/soldiers-bluff.md``): the rules engine.

Re-exports :data:`RULES` (registered as ``soldiers_bluff``), the config, the state and its
phases, and the card table. The module map is in ``docs/games/soldiers_bluff.md``.
"""

from .cards import CARD_IDS, DECK, Card, card_name
from .config import SoldiersBluffConfig
from .model import Phase
from .rules import RULES, SoldiersBluffRules
from .state import SoldiersBluffState

__all__ = [
    "CARD_IDS",
    "DECK",
    "RULES",
    "Card",
    "Phase",
    "SoldiersBluffConfig",
    "SoldiersBluffRules",
    "SoldiersBluffState",
    "card_name",
]
