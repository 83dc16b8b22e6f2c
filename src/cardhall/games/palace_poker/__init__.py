"""Palace Poker (``docs/rules/palace-poker.md``): banners, palaces, soldiers and heads-up
battles inside a multi-player hand. Exposes :data:`RULES`, the config class, the state class and
its data (:class:`Hand`, :class:`Phase`)."""

from .config import PalacePokerConfig
from .evaluation import set_rank_function
from .model import Hand, Phase
from .rules import RULES, PalacePokerRules
from .state import PalaceState

__all__ = ["RULES", "Hand", "PalacePokerConfig", "PalacePokerRules", "PalaceState", "Phase",
           "set_rank_function"]
