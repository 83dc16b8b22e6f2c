"""Soldier's Bluff (``../shared/rules/soldiers-bluff.md``): the rules engine.

Exposes :data:`RULES` (registered as ``soldiers_bluff``), the config and the card table.
"""

from .cards import CARD_IDS, DECK, Card, card_name
from .config import SoldiersBluffConfig
from .rules import RULES, SoldiersBluffRules
from .state import SoldiersBluffState

__all__ = [
    "CARD_IDS",
    "DECK",
    "RULES",
    "Card",
    "SoldiersBluffConfig",
    "SoldiersBluffRules",
    "SoldiersBluffState",
    "card_name",
]
