"""The Soldier's Bluff rules config: every provisional choice of the spec (section 3).

One frozen dataclass; each field's docstring names its rule id, unit and default. Only the
defaults of the spec must exist; alternatives the spec names but this engine does not implement
yet are rejected with :class:`InvalidConfigError` naming the field (rather than silently ignored).
Every whole-number field has documented bounds (``bounded(default, lo, hi, unit)``;
``docs/games/soldiers_bluff.md``, "Config"), checked first.
"""

# No ``from __future__ import annotations`` here: real (not string) annotations make
# ``typing.get_type_hints`` in ``config_from_dict`` cheap, which halves the cost of a hand.
from dataclasses import dataclass

from ...engine.config import bounded, check_bounds, require
from ...engine.errors import InvalidConfigError

DECK_SIZE = 40
HAND_SIZE = 6
MAX_SEATS = 5
MAX_CHIPS = 1_000_000
"""Largest ante, bet or raise a config may set (chips)."""


def _choice(field: str, value: str, implemented: tuple[str, ...], planned: tuple[str, ...]) -> None:
    if value in planned:
        raise InvalidConfigError(
            f"config field {field!r} has value {value!r}, which is not implemented yet; "
            f"implemented: {list(implemented)}"
        )
    require(value in implemented, field, value, f"expected one of {list(implemented + planned)}")


@dataclass(frozen=True, slots=True)
class SoldiersBluffConfig:
    """Rules config of Soldier's Bluff (spec section 3). Amounts are whole chips.

    Raises (on construction):
        InvalidConfigError: a value out of range, an unknown option, or a named alternative that is
            not implemented yet (the message names the field).
    """

    min_players: int = bounded(2, 2, MAX_SEATS, "players")
    """SB-1: fewest players dealt in for a hand to start (at least 2)."""
    max_players: int = bounded(5, 2, MAX_SEATS, "players")
    """SB-1: most seats at the table (at most 5, the source's maximum)."""
    ante: int = bounded(1, 0, MAX_CHIPS, "chips")
    """SB-2, rule 4: chips each player posts to be dealt in (0 allowed = no ante)."""
    min_bet: int = bounded(1, 1, MAX_CHIPS, "chips")
    """SB-10, rule 7: smallest opening bet (``to``) in round 1, chips (>= 1)."""
    min_raise: int = bounded(1, 1, MAX_CHIPS, "chips")
    """SB-10, rule 7: smallest raise increment over the highest stake ``H``, chips (>= 1)."""
    deal_pattern: str = "one_at_a_time"
    """SB-3, rule 5: cards are dealt one at a time from the dealer's left (only option)."""
    exchange_max: int = bounded(2, 0, HAND_SIZE, "cards")
    """SB-4, rule 6: most cards a player may exchange (0..; deck must suffice, SB-7)."""
    exchange_exact: bool = False
    """SB-4: if true a player exchanges either none or exactly ``exchange_max`` cards."""
    exchange_phase: str = "before_betting"
    """SB-5: exchange before betting (``"after_first_round"`` is a named, unimplemented alt)."""
    exchange_order: str = "sequential"
    """SB-6: exchanges in turn from the dealer's left; count public, cards hidden."""
    pass_is_fold: bool = False
    """SB-8: false = a round-1 ``pass`` is a check (passer stays in); true = it folds."""
    round1_bet_must_match: bool = True
    """SB-9: round-1 bets must reach ``max(H, min_bet)``; false = only ``min_bet``."""
    bet_limit: str = "no_limit"
    """SB-10: no-limit betting up to the stake cap (only option)."""
    stake_cap: str = "smallest_stack"
    """SB-10/SB-15: no stake exceeds the smallest stack after antes among players dealt in
    (``"side_pots"`` is a named, unimplemented alternative)."""
    betting_model: str = "rounds"
    """SB-11/SB-12/SB-13, rule 7: full rounds from the dealer's left; betting closes after a
    completed round >= 2 with no raise (``"poker"`` is a named, unimplemented alternative)."""
    fold_when_not_facing_bet: bool = True
    """SB-14: a player whose stake equals ``H`` may still fold on his turn."""
    tiebreak: str = "list_order"
    """SB-17, rule 9.3: equal sums are decided by the strongest single card (list position);
    ``"value_kickers"`` (split pots, SB-22) is a named, unimplemented alternative."""
    bluff_instant_win: bool = False
    """SB-19: false = the Soldier's Bluff is a showdown hand that beats everything (true is a
    named, unimplemented alternative)."""
    bluff_only_as_dealt: bool = False
    """SB-20: false = the final hand counts (an exchange may complete the Soldier's Bluff);
    true = it counts only if held as dealt (no card exchanged)."""
    split_remainder: str = "first_from_dealer_left"
    """SB-22: odd chips of a split pot (only with ``value_kickers``) go to the tied player first
    in turn order from the dealer's left."""
    show_uncontested: bool = False
    """SB-23: an uncontested winner's hand is not shown (true is unimplemented)."""
    session_mode: str = "cash"
    """SB-24, rule 11: open cash table (players join/leave between hands)."""

    def __post_init__(self) -> None:
        check_bounds(self)
        require(2 <= self.min_players <= MAX_SEATS, "min_players", self.min_players, "2..5")
        require(
            self.min_players <= self.max_players <= MAX_SEATS,
            "max_players", self.max_players, "min_players..5",
        )
        require(self.ante >= 0, "ante", self.ante, "must be >= 0")
        require(self.min_bet >= 1, "min_bet", self.min_bet, "must be >= 1")
        require(self.min_raise >= 1, "min_raise", self.min_raise, "must be >= 1")
        require(self.exchange_max >= 0, "exchange_max", self.exchange_max, "must be >= 0")
        require(
            DECK_SIZE - (HAND_SIZE + self.exchange_max) * self.max_players >= 0,
            "exchange_max", self.exchange_max,
            f"40 - (6 + exchange_max) * max_players must be >= 0 (max_players={self.max_players})",
        )
        _choice("deal_pattern", self.deal_pattern, ("one_at_a_time",), ("batches",))
        _choice("exchange_phase", self.exchange_phase, ("before_betting",), ("after_first_round",))
        _choice("exchange_order", self.exchange_order, ("sequential",), ("simultaneous",))
        _choice("bet_limit", self.bet_limit, ("no_limit",), ("fixed_limit", "pot_limit"))
        _choice("stake_cap", self.stake_cap, ("smallest_stack",), ("side_pots",))
        _choice("betting_model", self.betting_model, ("rounds",), ("poker",))
        _choice("tiebreak", self.tiebreak, ("list_order",), ("value_kickers",))
        _choice("split_remainder", self.split_remainder, ("first_from_dealer_left",), ())
        _choice("session_mode", self.session_mode, ("cash",), ("fixed_hands", "elimination"))
        if self.bluff_instant_win:
            raise InvalidConfigError("config field 'bluff_instant_win' = True is not implemented yet")
        if self.show_uncontested:
            raise InvalidConfigError("config field 'show_uncontested' = True is not implemented yet")


def check_deck(config: SoldiersBluffConfig, dealt_in: int) -> None:
    """SB-7 / rule 6: the stock always suffices: ``40 - (6 + exchange_max) * n >= 0``.

    Raises:
        InvalidConfigError: ``n = dealt_in`` players could exhaust the deck (names ``exchange_max``).
    """
    need = (HAND_SIZE + config.exchange_max) * dealt_in
    require(
        need <= DECK_SIZE, "exchange_max", config.exchange_max,
        f"{dealt_in} players could need {need} cards from a {DECK_SIZE}-card deck",
    )
