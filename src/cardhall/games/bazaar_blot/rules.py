"""The registered Bazaar Blot game: :class:`BlotRules` and its instance :data:`RULES`.

Name ``"bazaar_blot"``, exactly 4 seats in two fixed partnerships, no chip stacks (rule 1). A
state is one whole match to the target score (rule 8); its first action is the chance deal
(:meth:`.state.BlotState.chance_action`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from ...engine.actions import Action
from ...engine.errors import InvalidConfigError
from ...engine.history import History
from ...engine.rules import GameRules, ReplayUnit
from . import redaction
from .cards import CODES
from .config import BlotConfig
from .state import BlotState


class BlotRules(GameRules[BlotConfig]):
    """The Bazaar Blot rules object."""

    name: ClassVar[str] = "bazaar_blot"
    title: ClassVar[str] = "Bazaar Blot"
    config_cls: ClassVar[type] = BlotConfig
    min_seats: ClassVar[int] = 4
    max_seats: ClassVar[int] = 4
    uses_stacks: ClassVar[bool] = False
    card_codes: ClassVar[frozenset[str]] = frozenset(CODES)
    """The 32 cards ``7c`` ... ``As``. Every card is played in a complete deal, so a table copy
    hides only the hands of a redeal (all pass, rule 5) and what an abandoned match never
    played (``docs/fairness.md`` section 7)."""

    # -- catalog facts (issue 25) --
    replay_unit: ClassVar[ReplayUnit | None] = ReplayUnit(
        "trick", frozenset({"contract", "trick_won", "deal_scored", "match_over"}))
    """Step by trick: the auction's contract, each trick, the deal's score, the match's end."""
    teams: ClassVar[int] = 2
    """Rule 1: two fixed partnerships, seats 0+2 against 1+3."""
    publish_full_copy_by_default: ClassVar[bool] = True
    """A match plays every card anyway, and its seed lets anyone verify it."""
    duplicate_board_config: ClassVar[dict[str, Any] | None] = {"target_score": 1}
    """A board is one deal: the match ends at the first deal that scores (an all-pass redeal
    or an exact tie deals again from the same seed's next shuffle)."""

    def table_actions(self, history: History,
                      public_events: list[list[dict[str, Any]]]) -> list[Action]:
        """The actions as the table saw them (:func:`.redaction.table_actions`)."""
        return redaction.table_actions(history, public_events)

    def config(self, data: dict[str, Any] | None = None) -> BlotConfig:
        """Build and validate a config from a partial JSON object (``{}``/``None``: defaults).

        Raises:
            InvalidConfigError: unknown field, wrong type or invalid value (the message names it).
        """
        if not data and isinstance(data, (dict, type(None))):
            return _DEFAULT
        return super().config(data)

    def new_state(
        self, config: BlotConfig, num_seats: int, dealer: int, stacks: Sequence[int] | None = None
    ) -> BlotState:
        """A new match whose first action is the chance deal by ``dealer``.

        Raises:
            InvalidConfigError: not 4 seats, a bad dealer, chip stacks given, or a config that is
                not a :class:`BlotConfig`.
        """
        self.check_setup(config, num_seats, dealer, stacks)
        if not isinstance(config, BlotConfig):
            raise InvalidConfigError(f"expected a BlotConfig, got {type(config).__name__}")
        return BlotState(config, dealer)


_DEFAULT = BlotConfig()
RULES = BlotRules()
"""The registered Bazaar Blot rules."""
