"""The registered Soldier's Bluff rules object (``RULES``): seats, config and setup (rules 1-4).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from ...engine.actions import Action
from ...engine.errors import InvalidConfigError
from ...engine.history import History
from ...engine.rules import GameRules, ReplayUnit
from . import dealing, redaction
from .cards import CARD_IDS
from .config import SoldiersBluffConfig, check_deck
from .state import SoldiersBluffState
from .wire import WIRE


class SoldiersBluffRules(GameRules[SoldiersBluffConfig]):
    """Soldier's Bluff: 2-5 seats with chip stacks; one state = one hand."""

    name = "soldiers_bluff"
    title = "Soldier's Bluff"
    config_cls = SoldiersBluffConfig
    min_seats = 2
    max_seats = 5
    uses_stacks = True
    card_codes = frozenset(CARD_IDS)
    """The 40 card ids. Public at the table (kept by a table copy): the hands shown at a
    showdown (rule 9). Hidden: folded hands, the winner's hand of an uncontested pot (rule 8,
    SB-23), exchanged cards (rule 6, SB-6) and the stock never drawn
    (``docs/fairness.md`` section 7)."""

    # -- catalog facts (issue 25) --
    replay_unit = ReplayUnit("round", frozenset({"round", "pot_awarded"}))
    """Step by round: the exchange and each betting round, ended by the next round's start or
    by the pot."""
    duplicate_board_config: ClassVar[dict[str, Any] | None] = {}
    """A tournament board is one hand, which a state already is: the director records the
    table's first hand and closes it (``docs/tournaments.md``, "Tables of N"); a bot-only
    table deals no second hand."""

    def table_actions(self, history: History,
                      public_events: list[list[dict[str, Any]]]) -> list[Action]:
        """The actions as the table saw them (:func:`.redaction.table_actions`)."""
        return redaction.table_actions(history, public_events)

    def min_stack(self, config: SoldiersBluffConfig) -> int:
        """Rule 4 / SB-2: a seat needs the ante to be dealt in, and at least 1 chip (with
        ``ante=0`` a seat without chips would cap every stake at 0, SB-10)."""
        return max(1, config.ante)

    def min_players(self, config: SoldiersBluffConfig) -> int:
        """SB-1: at least ``min_players`` seats must be dealt in."""
        return max(self.min_seats, config.min_players)

    def new_state(
        self,
        config: SoldiersBluffConfig,
        num_seats: int,
        dealer: int,
        stacks: Sequence[int] | None = None,
    ) -> SoldiersBluffState:
        """A hand with antes posted (rule 4), waiting for the deal (a chance action).

        Seats with fewer than ``ante`` chips sit out this hand.

        Raises:
            InvalidConfigError: seats outside ``min_players..max_players`` (SB-1), a bad dealer or
                stacks, fewer than ``max(2, min_players)`` seats able to post the ante (rule 4),
                or a deck that could run out (SB-7: ``40 - (6 + exchange_max) * n < 0``).
        """
        if not isinstance(config, SoldiersBluffConfig):
            raise InvalidConfigError(f"expected a SoldiersBluffConfig, got {type(config).__name__}")
        self.check_setup(config, num_seats, dealer, stacks)
        assert stacks is not None
        if not config.min_players <= num_seats <= config.max_players:
            raise InvalidConfigError(
                f"{num_seats} seats is outside min_players={config.min_players}.."
                f"max_players={config.max_players}"
            )
        dealt_in = sum(1 for s in stacks if s >= config.ante)
        if dealt_in < config.min_players:
            raise InvalidConfigError(
                f"only {dealt_in} seats can post the ante of {config.ante} (stacks {list(stacks)});"
                f" at least {config.min_players} must be dealt in"
            )
        check_deck(config, dealt_in)
        return SoldiersBluffState(config, num_seats, dealer, stacks)

    # ----- wire shapes and documented deal order (docs/design.md section 12) ------------
    wire = WIRE
    deal_deck = CARD_IDS
    """Soldier's Bluff's deal shuffles the 40 card ids in strength order (rule 5)."""

    def deals_from(self, deck: list[str], action: Action) -> bool | None:
        """See :func:`.dealing.deals_from`."""
        return dealing.deals_from(deck, action)
    example_configs = ({}, {"pass_is_fold": True, "exchange_exact": True,
                            "round1_bet_must_match": False, "fold_when_not_facing_bet": False})
    """The defaults, and passes that fold with exact exchanges (other entries and events)."""
    # ----- end of wire shapes and deal order --------------------------------------------


RULES = SoldiersBluffRules()
"""The rules object registered as ``soldiers_bluff``."""
