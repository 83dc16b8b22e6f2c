"""The registered Palace Poker rules object (``design.md`` section 2)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from ...engine.rules import GameRules
from .config import PalacePokerConfig
from .state import PalaceState


class PalacePokerRules(GameRules[PalacePokerConfig]):
    """Palace Poker: 2-10 seats, chip stacks carried between hands."""

    name: ClassVar[str] = "palace_poker"
    title: ClassVar[str] = "Palace Poker"
    config_cls: ClassVar[type] = PalacePokerConfig
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 10
    uses_stacks: ClassVar[bool] = True

    def min_stack(self, config: PalacePokerConfig) -> int:
        """Rule 4 / PP-2: a seat needs the ante (:attr:`PalacePokerConfig.ante_chips`) to be
        dealt in."""
        return config.ante_chips

    def new_state(self, config: PalacePokerConfig, num_seats: int, dealer: int,
                  stacks: Sequence[int] | None = None) -> PalaceState:
        """A hand with antes posted, waiting for the banner deal.

        Raises:
            InvalidConfigError: bad seats, dealer or stacks, or fewer than two seats can ante.
        """
        self.check_setup(config, num_seats, dealer, stacks)
        assert stacks is not None
        return PalaceState(config, num_seats, dealer, stacks)


RULES = PalacePokerRules()
