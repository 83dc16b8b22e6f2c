"""The registered Palace Poker rules object (``design.md`` section 2)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from ...engine.actions import Action
from ...engine.history import History
from ...engine.rules import GameRules, ReplayUnit
from . import deal, evaluation, redaction
from .cards import ALL_CARDS, CANONICAL
from .config import PalacePokerConfig
from .state import PalaceState
from .wire import WIRE


class PalacePokerRules(GameRules[PalacePokerConfig]):
    """Palace Poker: 2-10 seats, chip stacks carried between hands."""

    name: ClassVar[str] = "palace_poker"
    title: ClassVar[str] = "Palace Poker"
    config_cls: ClassVar[type] = PalacePokerConfig
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 10
    uses_stacks: ClassVar[bool] = True
    card_codes: ClassVar[frozenset[str]] = ALL_CARDS
    """The 52 French cards. Public at the table (so kept by a table copy): banners and
    rejected banner cards (rule 5), soldiers, discarded ones included (rule 7, face up until
    discarded), captured cards (rule 9), palaces revealed to everyone (PP-14 ``public``, a
    showdown, rule 11c). Hidden: folded palaces (PP-22), palaces shown only to the two
    battlers (PP-14 ``participants``), the stock never bought (``docs/fairness.md`` section 7)."""

    # -- catalog facts (issue 25) --
    replay_unit: ClassVar[ReplayUnit | None] = ReplayUnit(
        "battle", frozenset({"battle_result", "battle_fold", "hand_end"}))
    """Step by battle: each battle and the hand's end."""
    duplicate_board_config: ClassVar[dict[str, Any] | None] = {}
    """A tournament board is one hand, which a state already is: the director records the
    table's first hand and closes it (``docs/tournaments.md``, "Tables of N"); a bot-only
    table deals no second hand."""

    def set_rank_function(self, fn: evaluation.RankFn | None) -> None:
        """Install a faster complete-hand rank function (``cardhall.evaluators``); ``None``
        restores the pure-Python one (:func:`.evaluation.set_rank_function`)."""
        evaluation.set_rank_function(fn)

    def table_actions(self, history: History,
                      public_events: list[list[dict[str, Any]]]) -> list[Action]:
        """The actions as the table saw them (:func:`.redaction.table_actions`)."""
        return redaction.table_actions(history, public_events)

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

    # ----- wire shapes and documented deal order (docs/design.md section 12) ------------
    wire = WIRE
    deal_deck = CANONICAL
    """Palace Poker's banner deal shuffles the 52 cards in canonical order (rule 5)."""

    def deals_from(self, deck: list[str], action: Action) -> bool | None:
        """See :func:`.deal.deals_from`."""
        return deal.deals_from(deck, action)
    # ----- end of wire shapes and deal order --------------------------------------------


RULES = PalacePokerRules()
