"""Palace Poker (``../shared/rules/palace-poker.md``): banners, palaces, soldiers and heads-up
battles inside a multi-player hand. Exposes :data:`RULES` and the config class."""

from .config import PalacePokerConfig
from .evaluation import set_rank_function
from .rules import RULES, PalacePokerRules
from .state import PalaceState

__all__ = ["RULES", "PalacePokerConfig", "PalacePokerRules", "PalaceState", "set_rank_function"]
