"""The data of one hand of Soldier's Bluff (spec section 2): plain dataclasses, no rules.

A field has the name of the view key that shows it (``views.py``): a seat's ``in_hand``,
``ante``, ``stake``, ``folded``, ``exchanged``, ``shown`` and ``hand``; the hand's ``phase``,
``pot``, ``round``, ``cap`` and ``outcome``. Chip amounts are whole chips.

Who writes what: only :mod:`.state` changes ``phase`` and sets ``outcome``; the rule modules
(:mod:`.dealing`, :mod:`.betting`, :mod:`.showdown`) change the rest and tell the state what
happened by returning a transition.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from ...engine.game import Outcome
from .config import SoldiersBluffConfig


class Phase(StrEnum):
    """The phases of a hand, in order (the view's ``phase``)."""

    DEAL = "deal"
    """Antes are posted; the deal (a chance action) is due (rules 4-5)."""
    EXCHANGE = "exchange"
    """Players exchange cards in turn from the dealer's left (rule 6)."""
    BETTING = "betting"
    """Betting rounds (rule 7)."""
    OVER = "over"
    """The pot is awarded: showdown or uncontested (rules 8-10)."""


@dataclass(slots=True)
class Seat:
    """One seat's part of the hand (the view's ``seats[i]``, plus what only the owner sees).

    Attributes:
        in_hand: dealt in (posted the ante, rule 4); a seat sitting out keeps empty cards and
            zero amounts.
        start_stack: chips the seat held before the ante.
        ante: chips posted as ante (0 when sitting out).
        stake: the hand stake ``s``: chips bet this hand, ante not included (rule 7).
        folded: folded (or passed with ``pass_is_fold``, SB-8).
        hand: the seat's cards, 6 ids once dealt.
        discarded: the ids the seat exchanged away, face down, out of play (rule 6).
        exchanged: how many cards it exchanged (public); ``None`` before its exchange.
        shown: its cards as shown at a showdown (rule 9); ``None`` otherwise.
    """

    in_hand: bool
    start_stack: int
    ante: int
    stake: int = 0
    folded: bool = False
    hand: list[str] = field(default_factory=list)
    discarded: list[str] = field(default_factory=list)
    exchanged: int | None = None
    shown: list[str] | None = None


@dataclass(eq=False, slots=True)
class HandModel:
    """One hand from the ante to the pot award (the state's data; ``state.py`` adds the
    engine protocol on top of it).

    Attributes:
        config: the rules config.
        num_seats: seats at the table, dealt in or not.
        dealer: the dealer's seat.
        seats: one :class:`Seat` per seat index.
        order: the seats dealt in, clockwise from the dealer's left (turn order, rule 5).
        cap: the stake cap: the smallest stack after the ante among seats dealt in (SB-15).
        pot: chips in the pot: antes plus every stake.
        phase: see :class:`Phase`.
        stock: undealt cards, top first.
        round: the betting round, 1.. (0 before the betting).
        raised: a raise happened in the current betting round (SB-11).
        queue: seats still to act in this exchange or betting round, the one to act first.
        outcome: ``None`` until the pot is awarded.
    """

    config: SoldiersBluffConfig
    num_seats: int
    dealer: int
    seats: list[Seat]
    order: list[int]
    cap: int
    pot: int
    phase: Phase = Phase.DEAL
    stock: list[str] = field(default_factory=list)
    round: int = 0
    raised: bool = False
    queue: list[int] = field(default_factory=list)
    outcome: Outcome | None = None

    def turn_seat(self) -> int | None:
        """The seat to act now (the view's ``to_act``): the head of ``queue`` in the exchange
        and betting phases, else ``None``."""
        if self.queue and (self.phase is Phase.BETTING or self.phase is Phase.EXCHANGE):
            return self.queue[0]
        return None

    def live(self) -> list[int]:
        """Non-folded seats dealt in, in turn order from the dealer's left."""
        seats = self.seats
        return [s for s in self.order if not seats[s].folded]

    def highest(self) -> int:
        """``H``: the highest stake among non-folded players (rule 7), chips."""
        seats = self.seats
        top = 0
        for s in self.order:
            p = seats[s]
            if not p.folded and p.stake > top:
                top = p.stake
        return top

    def chips(self, seat: int) -> int:
        """Chips ``seat`` holds behind now (the view's ``chips``): start stack minus ante and
        stake; once the hand is over, start stack plus the seat's return."""
        p = self.seats[seat]
        if self.outcome is not None:
            return p.start_stack + self.outcome.returns[seat]
        return p.start_stack - p.ante - p.stake
