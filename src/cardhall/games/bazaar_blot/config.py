"""The Bazaar Blot rules config: every provisional choice of the spec (section 2, BB-1..BB-42).

One frozen dataclass; defaults are the spec's. Choices the spec names as alternatives but this
engine does not implement are rejected with :class:`InvalidConfigError` naming the field. Every
whole-number field has documented bounds (``bounded(default, lo, hi, unit)``;
``docs/games/bazaar_blot.md``, "Config"), checked first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ...engine.config import bounded, check_bounds, require


@dataclass(frozen=True, slots=True)
class BlotConfig:
    """Rules config of Bazaar Blot (``docs/rules/bazaar-blot.md`` section 2).

    Raises:
        InvalidConfigError: from ``__post_init__`` for an out-of-range or unimplemented value.
    """

    target_score: int = bounded(101, 1, 5000, "small points")
    """Rule 1: match target in small points (101, 201, 301 or any whole number 1..5000)."""

    dealer_rotation: Literal["left", "right"] = "left"
    """BB-1: the dealer moves one seat left (clockwise, ``"left"``) or right after a deal."""

    contracts: tuple[str, ...] = ("suit",)
    """BB-4: contract types; only suit contracts (``("suit",)``) are implemented."""

    min_bid: int = bounded(8, 1, 1000, "bid levels")
    """Rule 4: lowest numeric bid level."""

    max_bid: int = bounded(16, 1, 1000, "bid levels")
    """BB-11: highest numeric bid level (16; a larger cap such as 80 is allowed)."""

    partner_raise_same_suit: bool = True
    """BB-7 / BB-12: over a partner's standing bid only the same suit may be bid (or kapot in
    it); ``False`` allows any suit."""

    redeal_rotates_dealer: bool = False
    """BB-10: after four passes the same dealer redeals (``False``) or the dealer rotates."""

    kapot_per_team_max: int = bounded(1, 1, 8, "kapot bids")
    """BB-13: kapot bids each team may make per auction."""

    undertrump_when_cannot_overtrump: Literal["free", "forced"] = "free"
    """BB-19 / rule 5.3: void in the led suit, an opponent winning with a trump you cannot beat:
    any card (``"free"``) or any trump (``"forced"`` under-trump)."""

    partner_winning: Literal["free_but_trump_must_beat", "must_ruff"] = "free_but_trump_must_beat"
    """BB-20 / rule 5.4: void in the led suit while the partner wins: any card, but a played
    trump must beat the top trump when possible; ``"must_ruff"`` treats it like rule 5.3."""

    declarations_per_player: int = bounded(1, 1, 1, "combinations")
    """BB-21: combinations each player may declare in trick 1 (only 1 is implemented)."""

    carre_rank_order: Literal["A>10>K>Q", "A>K>Q>10"] = "A>10>K>Q"
    """BB-25: top-card order of 100-point carrés when comparing declarations."""

    carre_beats_equal_value_sequence: bool = False
    """BB-26: ``False`` = source key order (a run of 5+ beats a 100 carré on length);
    ``True`` = a carré beats a sequence of equal value."""

    carre_values: Literal["source", "blot_star"] = "source"
    """BB-42: carré values; ``"source"`` J 200, 9 150, A/K/Q/10 100; ``"blot_star"`` 9 = 140
    and A = 110."""

    combination_tie: Literal["elder_hand", "none"] = "elder_hand"
    """BB-27: a complete tie of the strongest declarations goes to the elder hand, or to
    neither team (``"none"``)."""

    belote_bonus: int = bounded(0, 0, 0, "big points")
    """BB-29: big points for K+Q of trump; only 0 (absent) is implemented."""

    combinations_require_trick: bool = True
    """BB-31: a team that takes no trick scores no combinations."""

    rounding: Literal["pair_half_down"] = "pair_half_down"
    """BB-32: card small points by pair rounding (rule 7)."""

    made_test: Literal["small", "raw"] = "small"
    """BB-33: a numeric contract is made iff declarers' small points >= bid (``"small"``), or
    their raw big points (cards + awarded combinations) >= 10 x bid (``"raw"``)."""

    failed_combinations_to: Literal["defenders", "own", "none"] = "defenders"
    """BB-35: a failed contract gives the defenders 16 plus all awarded combinations
    (``"defenders"``), plus only their own (``"own"``), or plus none (``"none"``)."""

    all_tricks_card_points: int = bounded(25, 0, 1000, "small points")
    """BB-36 / BB-37: card small points of a team that took all eight tricks (and the kapot
    value: a made kapot scores this + the declarers' combinations, a failed one gives it to the
    defenders)."""

    multiplier_scope: Literal["both"] = "both"
    """BB-38: contra/recontra multiply both teams' deal scores (only ``"both"``)."""

    last_trick_bonus: int = bounded(10, 0, 1000, "big points")
    """BB-3: big points for the last trick (152 + 10 = 162)."""

    def __post_init__(self) -> None:
        check_bounds(self)
        require(self.target_score > 0, "target_score", self.target_score, "must be positive")
        require(self.dealer_rotation in ("left", "right"), "dealer_rotation",
                self.dealer_rotation, "expected 'left' or 'right'")
        require(tuple(self.contracts) == ("suit",), "contracts", self.contracts,
                "only suit contracts ('suit') are implemented")
        require(self.min_bid >= 1, "min_bid", self.min_bid, "must be at least 1")
        require(self.max_bid >= self.min_bid, "max_bid", self.max_bid,
                f"must be at least min_bid={self.min_bid}")
        require(self.max_bid <= 1000, "max_bid", self.max_bid, "must be at most 1000")
        require(self.kapot_per_team_max >= 1, "kapot_per_team_max", self.kapot_per_team_max,
                "must be at least 1")
        require(self.undertrump_when_cannot_overtrump in ("free", "forced"),
                "undertrump_when_cannot_overtrump", self.undertrump_when_cannot_overtrump,
                "expected 'free' or 'forced'")
        require(self.partner_winning in ("free_but_trump_must_beat", "must_ruff"),
                "partner_winning", self.partner_winning,
                "expected 'free_but_trump_must_beat' or 'must_ruff'")
        require(self.declarations_per_player == 1, "declarations_per_player",
                self.declarations_per_player, "only 1 is implemented")
        require(self.carre_rank_order in ("A>10>K>Q", "A>K>Q>10"), "carre_rank_order",
                self.carre_rank_order, "expected 'A>10>K>Q' or 'A>K>Q>10'")
        require(self.carre_values in ("source", "blot_star"), "carre_values",
                self.carre_values, "expected 'source' or 'blot_star'")
        require(self.combination_tie in ("elder_hand", "none"), "combination_tie",
                self.combination_tie, "expected 'elder_hand' or 'none'")
        require(self.belote_bonus == 0, "belote_bonus", self.belote_bonus,
                "only 0 (no belote) is implemented")
        require(self.rounding == "pair_half_down", "rounding", self.rounding,
                "only 'pair_half_down' is implemented")
        require(self.made_test in ("small", "raw"), "made_test", self.made_test,
                "expected 'small' or 'raw'")
        require(self.failed_combinations_to in ("defenders", "own", "none"),
                "failed_combinations_to", self.failed_combinations_to,
                "expected 'defenders', 'own' or 'none'")
        require(self.all_tricks_card_points >= 0, "all_tricks_card_points",
                self.all_tricks_card_points, "must not be negative")
        require(self.multiplier_scope == "both", "multiplier_scope", self.multiplier_scope,
                "only 'both' is implemented")
        require(0 <= self.last_trick_bonus <= 1000, "last_trick_bonus", self.last_trick_bonus,
                "must be 0..1000")
