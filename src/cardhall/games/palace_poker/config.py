"""The Palace Poker rules config (``palace-poker.md`` section 2, rules 2, 8, 11-14).

Every provisional choice of the spec is one field of :class:`PalacePokerConfig`; each docstring
names the rule or provisional-choice id it implements. Alternatives the spec only names as
directions (``alt``) are accepted by the type where they are implemented and otherwise rejected
with :class:`~cardhall.engine.InvalidConfigError` naming the field. Every whole-number field has
documented bounds (``bounded(default, lo, hi, unit)``; ``docs/games/palace_poker.md``, "Config"),
checked first.

PP-3 (rule 3, who deals first) is not a field: a config holds the rules of one hand, and the
dealer is an input of every hand (``new_state(..., dealer, ...)``); the table layer chooses it
and moves it one seat left each hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ...engine.config import bounded, check_bounds, require

MAX_CHIPS = 1_000_000
"""Largest bet or ante a config may set (chips). Stacks are bounded by the server
(``CARDHALL_MAX_STARTING_STACK``, 10 000 000 by default), so every pot stays far below 2**53."""


@dataclass(frozen=True, slots=True)
class PalacePokerConfig:
    """Table and rules settings of one Palace Poker hand. Amounts are whole chips."""

    small_bet: int = bounded(2, 1, MAX_CHIPS, "chips")
    """PP-1 / rule 2: the small bet (chips): price of a Buy and unit of ``f(P)``. >= 1."""

    big_bet: int = bounded(4, 1, MAX_CHIPS, "chips")
    """PP-1, PP-12 / rule 2: the big bet (chips): the limit raise ``R``. >= 1."""

    ante: int | None = bounded(None, 1, MAX_CHIPS, "chips")
    """PP-2 / rule 4: ante per player (chips); ``None`` = ``max(1, small_bet // 2)``. >= 1."""

    structure: Literal["limit", "no_limit"] = "limit"
    """Rule 2, PP-11..13: betting structure. ``limit``: no opening extra, raises of exactly
    ``big_bet``, at most ``max_raises_per_battle``. ``no_limit``: an opening extra ``E = 0`` or
    ``E >= big_bet`` and raises ``R >= big_bet``, uncapped (until chips run out)."""

    max_raises_per_battle: int = bounded(3, 0, 100, "raises")
    """PP-13 / rule 8: most raises in one battle under ``limit`` (``no_limit``: no cap). >= 0."""

    banner_groups: Literal["within_groups"] = "within_groups"
    """PP-4 / rule 5: banner suits differ only within the groups p1-p4, p5-p8, p9-p10."""

    soldiers_face_up: bool = True
    """PP-6 / rule 7: soldiers are face up (public). ``False`` is not implemented."""

    call_cost: Literal["own_formula", "attacker_formula"] = "own_formula"
    """PP-9, PP-10 / rule 8: the defender's call price: ``own_formula`` = ``f(D)`` + any
    outstanding raise; ``attacker_formula`` = ``f(A)`` + any outstanding raise."""

    battle_reveal: Literal["participants", "public"] = "participants"
    """PP-14 / rule 8, section 4: who sees the palaces after a called battle."""

    exclude_opponent_banner_suit: bool = True
    """PP-16 / rule 8: in a battle, cards of the opponent's banner suit do not count."""

    short_hands: Literal["incomplete"] = "incomplete"
    """PP-17 / rule 12: fewer than 5 eligible cards form an incomplete hand (rank groups only)."""

    wheel_allowed: bool = True
    """PP-18 / rule 12: A-2-3-4-5 is the lowest straight."""

    banner_suit_count_scope: Literal["all"] = "all"
    """PP-19 / rule 8: the own-banner-suit tie-break counts palace + soldiers + banner."""

    two_left_showdown: Literal["battle", "normal"] = "battle"
    """PP-25 / rule 11c: a quiet-orbit showdown of exactly two players uses battle rules
    (exclusion, own-suit tie-break) or a normal showdown."""

    two_left: Literal["play_on"] = "play_on"
    """PP-26: with two players left play continues (``forced_battle_now`` not implemented)."""

    side_pots: bool = False
    """PP-29 / rule 13: no side pots; a short defender may call all-in. ``True`` is not
    implemented."""

    def __post_init__(self) -> None:
        check_bounds(self)
        require(self.small_bet >= 1, "small_bet", self.small_bet, "must be at least 1")
        require(self.big_bet >= 1, "big_bet", self.big_bet, "must be at least 1")
        require(self.ante is None or self.ante >= 1, "ante", self.ante, "must be at least 1")
        require(self.max_raises_per_battle >= 0, "max_raises_per_battle",
                self.max_raises_per_battle, "must be at least 0")
        require(self.soldiers_face_up, "soldiers_face_up", self.soldiers_face_up,
                "face-down soldiers are not implemented")
        require(not self.side_pots, "side_pots", self.side_pots, "side pots are not implemented")

    @property
    def ante_chips(self) -> int:
        """The effective ante (rule 4, PP-2): ``ante`` or ``max(1, small_bet // 2)``."""
        return self.ante if self.ante is not None else max(1, self.small_bet // 2)
