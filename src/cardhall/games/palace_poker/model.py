"""The data of one Palace Poker hand (rules 4-14) and the transitions the rule modules return.

:class:`Hand` holds everything a hand is made of, as plain data with a few small read-only
helpers. Each field that a view shows has the name of its view key (``chips``, ``committed``,
``to_act``, ``battle``, ``last_battle``, ``outcome`` ...; see :mod:`.views`). The rule modules
(:mod:`.deal`, :mod:`.turns`, :mod:`.battle`, :mod:`.showdown`) change cards and chips and
return a *transition*; only :mod:`.state` changes :attr:`Hand.phase` and sets
:attr:`Hand.outcome`, by following those transitions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ...engine.game import Outcome, OutcomeReason
from .config import PalacePokerConfig

MAX_SOLDIERS = 5
"""Rules 7, 9 / PP-7: a seat ends its turn and every discard with at most five soldiers."""


class Phase(StrEnum):
    """The phases of a hand (the spec's state machine, rules 4-11), shown as the view's
    ``phase``. ``BANNER_DEAL``, ``PALACE_DEAL`` and ``RESHUFFLE`` wait for a chance action."""

    BANNER_DEAL = "banner_deal"
    """Rule 5: the banners are dealt (chance)."""
    PALACE_DEAL = "palace_deal"
    """Rule 6: the palaces and the stock are dealt (chance)."""
    TURN = "turn"
    """Rule 7: ``to_act`` chooses Buy, Discard, Bet (battle), Stay or Fold."""
    BATTLE = "battle"
    """Rule 8: ``to_act`` answers a bet or raise: fold, call or raise."""
    DISCARD = "discard"
    """Rules 7, 9: after a Buy or a capture, ``to_act`` discards down to five soldiers."""
    RESHUFFLE = "reshuffle"
    """Rule 7 / PP-31: a Buy found the stock empty; the discard pile is shuffled (chance)."""
    OVER = "over"
    """Rule 11: the hand has ended; :attr:`Hand.outcome` says how."""


CHANCE_PHASES = frozenset({Phase.BANNER_DEAL, Phase.PALACE_DEAL, Phase.RESHUFFLE})
"""Phases whose next action is a chance action (``seat=None``)."""


@dataclass(slots=True)
class BattleInProgress:
    """The battle being bet (rule 8), shown as the view's ``battle``.

    Attributes:
        attacker: the seat that bet (its turn; the turn passes on from it, rule 10).
        defender: the seat it named.
        owed: chips each of the two seats must still put in to call (seat -> chips).
        raises: raises made so far in this battle (PP-13 caps them under ``limit``).
    """

    attacker: int
    defender: int
    owed: dict[int, int]
    raises: int = 0

    def other(self, seat: int) -> int:
        """The opponent of ``seat`` (one of the two battlers)."""
        return self.defender if seat == self.attacker else self.attacker


@dataclass(frozen=True, slots=True)
class LastBattle:
    """The public record of the last battle (section 4: the table sees the result), shown as
    the view's ``last_battle``.

    Attributes:
        attacker, defender: the two battlers.
        called: True if it ended in a call (a comparison), False if one side folded.
        winner: the capturer, ``None`` after an exact tie (PP-20).
        losers: the seats it put out of the hand (both after a tie).
        captured_count: cards the winner captured (soldiers + banner, rule 9).
    """

    attacker: int
    defender: int
    called: bool
    winner: int | None
    losers: tuple[int, ...]
    captured_count: int

    def to_json(self) -> dict[str, Any]:
        """The record as the view shows it."""
        return {"attacker": self.attacker, "defender": self.defender, "called": self.called,
                "winner": self.winner, "losers": list(self.losers),
                "captured_count": self.captured_count}


@dataclass(slots=True)
class Hand:
    """One hand of Palace Poker. Seats ``0..num_seats-1``; chips are whole chips.

    Attributes:
        config: the rules config of the table.
        num_seats: seats at the table (dealt in or not).
        dealer: the dealer's seat.
        order: the seats dealt in, from the dealer's left (players ``p1 … pn``, rule 5).
        starting_chips: each seat's stack before the ante (for ``returns``).
        chips: each seat's chips behind (not in the pot).
        in_hand: per seat: still in the hand (dealt in and not out).
        committed: per seat: chips put into the single main pot this hand (ante included).
        phase: where the hand is (only :mod:`.state` changes it).
        banners: per seat: the banner card (rule 5), ``None`` if not dealt in. A banner stays
            here after its seat leaves the hand (it is then a soldier or a discard).
        rejected: the rejected banner cards, in the order they were turned (public).
        palaces: per seat: the three palace cards as dealt (rule 6), kept after the seat leaves
            the hand (its cards are then in :attr:`discards`).
        soldiers: per seat: its soldiers, in the order they came (public, PP-6).
        stock: the face-down stock, top first.
        discards: the face-down discard pile, in the order cards went there.
        to_act: the seat whose decision is due (``None`` before the first turn and at the end;
            through a reshuffle it stays the buyer, who draws after it).
        turn_seat: while a battle and the discard after its capture run: the attacker, whose
            turn they belong to (the turn passes on from it, rule 10); else ``None``.
        battle: the battle being bet, or ``None``.
        last_battle: the public record of the last battle, or ``None``.
        quiet: per seat: has taken a quiet turn (Stay, Discard, Fold) since the last Buy or Bet
            (rule 11c).
        revealed_palaces: per seat: the seats whose palace it saw in a called battle (rule 8).
        public_palaces: seats whose palace everyone saw (public battle reveal, showdown).
        outcome: how the hand ended (only :mod:`.state` sets it), ``None`` while it runs.
    """

    config: PalacePokerConfig
    num_seats: int
    dealer: int
    order: list[int]
    starting_chips: tuple[int, ...]
    chips: list[int]
    in_hand: list[bool]
    committed: list[int]
    phase: Phase = Phase.BANNER_DEAL
    banners: list[str | None] = field(default_factory=list)
    rejected: list[str] = field(default_factory=list)
    palaces: list[list[str]] = field(default_factory=list)
    soldiers: list[list[str]] = field(default_factory=list)
    stock: list[str] = field(default_factory=list)
    discards: list[str] = field(default_factory=list)
    to_act: int | None = None
    turn_seat: int | None = None
    battle: BattleInProgress | None = None
    last_battle: LastBattle | None = None
    quiet: list[bool] = field(default_factory=list)
    revealed_palaces: list[set[int]] = field(default_factory=list)
    public_palaces: set[int] = field(default_factory=set)
    outcome: Outcome | None = None

    @property
    def pot(self) -> int:
        """Chips in the single main pot (rule 13: no side pots)."""
        return sum(self.committed)

    def alive(self) -> list[int]:
        """Seats still in the hand, in order from the dealer's left."""
        return [s for s in self.order if self.in_hand[s]]

    def next_in_hand(self, seat: int) -> int:
        """The next seat still in the hand clockwise after ``seat`` (``seat`` itself if it is
        the only one)."""
        for i in range(1, self.num_seats + 1):
            s = (seat + i) % self.num_seats
            if self.in_hand[s]:
                return s
        raise AssertionError("no seat in the hand")  # pragma: no cover

    def own_cards(self, seat: int) -> list[str]:
        """Palace + soldiers + banner of ``seat`` (rule 8, PP-15); ``[]`` once it is out."""
        if not self.in_hand[seat]:
            return []
        banner = self.banners[seat]
        return [*self.palaces[seat], *self.soldiers[seat], *([banner] if banner else [])]


# ----- transitions: what a rule module asks :mod:`.state` to do next ---------------------------
@dataclass(frozen=True, slots=True)
class BattleOpened:
    """Rule 8: ``battle`` was bet; the defender answers (phase ``battle``)."""

    battle: BattleInProgress


@dataclass(frozen=True, slots=True)
class BetRaised:
    """Rule 8: a raise; ``facing`` now answers it."""

    facing: int


@dataclass(frozen=True, slots=True)
class DiscardDue:
    """Rules 7, 9 / PP-7: ``seat`` drew a soldier and now discards down to five."""

    seat: int


@dataclass(frozen=True, slots=True)
class ReshuffleDue:
    """Rule 7 / PP-31: a Buy found the stock empty; the discard pile is shuffled (chance)."""


@dataclass(frozen=True, slots=True)
class TurnEnded:
    """Rules 7, 10: the turn of ``seat`` is over (for a battle: the attacker's seat); after the
    hand-end check the next seat in the hand clockwise from it acts."""

    seat: int


@dataclass(frozen=True, slots=True)
class Captured:
    """Rule 9: ``capturer`` won a battle and took the loser's soldiers and banner; after the
    hand-end check it discards down to five."""

    capturer: int


@dataclass(frozen=True, slots=True)
class ShowdownDue:
    """Rule 11c: a quiet orbit closed; the seats ``alive`` show down."""

    alive: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HandWon:
    """Rules 8, 11: the hand ends; ``winners`` share the pot for ``reason``."""

    winners: tuple[int, ...]
    reason: OutcomeReason


Transition = (BattleOpened | BetRaised | DiscardDue | ReshuffleDue | TurnEnded | Captured
              | ShowdownDue | HandWon)
"""Every transition :mod:`.state` follows."""
