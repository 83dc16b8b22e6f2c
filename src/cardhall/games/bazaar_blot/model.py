"""The data of a Bazaar Blot match: plain dataclasses, no rules (those live in the rule modules).

A :class:`Match` is the whole match (rule 8): dealer, phase, match score, the scored deals, and
the current :class:`DealState`. The rule modules (:mod:`.auction`, :mod:`.tricks`,
:mod:`.declarations`, :mod:`.scoring`) read and change a :class:`DealState`; only
:mod:`.state` changes :attr:`Match.phase`, the dealer and the match score.

Cards and suits are ints (:mod:`.cards`); teams are 0 (seats 0, 2) and 1 (seats 1, 3), so the
team of seat ``s`` is ``s & 1``. Field names are the keys of the view that shows them
(:mod:`.views`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, NamedTuple

from .actions import Call
from .config import BlotConfig


class Phase(StrEnum):
    """The deal state machine of the spec (section 1): ``deal`` (a chance deal is due) ->
    ``auction`` -> (redeal | ``contra_response``) -> ``play`` -> scoring -> ``deal`` ... ->
    ``over``. The view shows the value."""

    DEAL = "deal"
    AUCTION = "auction"
    CONTRA_RESPONSE = "contra_response"
    PLAY = "play"
    OVER = "over"


# The members again as plain module constants, for the hot paths: on Python 3.11 every
# ``Phase.X`` lookup goes through ``EnumType.__getattr__`` (about 0.2 us, 15 times a name lookup).
DEAL, AUCTION, CONTRA_RESPONSE, PLAY, OVER = (
    Phase.DEAL, Phase.AUCTION, Phase.CONTRA_RESPONSE, Phase.PLAY, Phase.OVER)


@dataclass(frozen=True, slots=True)
class StandingBid:
    """The highest bid so far (rule 4): by ``seat`` in ``trump`` (suit number) at ``level``,
    or ``level=None`` for a kapot (view: ``auction.standing``)."""

    seat: int
    trump: int
    level: int | None

    @property
    def kapot(self) -> bool:
        """True for a kapot bid (all eight tricks)."""
        return self.level is None


@dataclass(slots=True)
class Auction:
    """The auction of one deal (rule 4, BB-5..BB-16; view: ``auction``).

    Attributes:
        calls: every call in order, as ``(seat, call)`` (contra-response calls included).
        standing: the standing bid, ``None`` before the first bid.
        passes: passes since the last bid (since the start when no bid stands).
        contra_window: opponents of the standing bidder may call contra (BB-14).
        kapots: kapot bids made per team (BB-13).
        multiplier: 1, 2 after contra, 4 after recontra.
        responses: passes in the contra response (declarer, then partner; BB-16).
    """

    calls: list[tuple[int, Call]] = field(default_factory=list)
    standing: StandingBid | None = None
    passes: int = 0
    contra_window: bool = False
    kapots: list[int] = field(default_factory=lambda: [0, 0])
    multiplier: int = 1
    responses: int = 0


@dataclass(frozen=True, slots=True)
class Contract:
    """The contract fixed when the auction closes (rule 4; view: ``contract``): ``declarer``
    seat, ``trump`` suit number, numeric ``level`` or ``None`` for a kapot, ``multiplier``
    (1, 2 or 4)."""

    declarer: int
    trump: int
    level: int | None
    multiplier: int

    @property
    def team(self) -> int:
        """The declaring team (0 or 1)."""
        return self.declarer & 1

    @property
    def kapot(self) -> bool:
        """True for a kapot contract."""
        return self.level is None


@dataclass(slots=True)
class Trick:
    """A trick (rule 5; view: ``trick``, and ``last_trick`` once finished): its ``leader`` seat
    and ``cards`` in play order; ``winning_index`` is the index in ``cards`` of the card
    winning it so far and ``winning_strength`` that card's :func:`.tricks.card_key`."""

    leader: int = -1
    cards: list[int] = field(default_factory=list)
    winning_index: int = 0
    winning_strength: int = -1

    @property
    def winner(self) -> int:
        """The seat winning the trick so far (its winner once finished)."""
        return (self.leader + self.winning_index) & 3


class Declaration(NamedTuple):
    """A combination declared in trick 1 (rule 6): the ``seat`` and the combination's
    ``cards`` (sorted card ints)."""

    seat: int
    cards: tuple[int, ...]


def _four_empty_hands() -> list[list[int]]:
    return [[], [], [], []]


@dataclass(slots=True)
class DealState:
    """One deal, from the chance deal until the next one (its public facts stay visible after
    scoring; rules 3-7).

    Attributes:
        hands: the cards of each seat (4 lists of card ints; emptied after scoring or a redeal).
        turn: the seat whose decision is due, -1 when none.
        auction: the calls (rule 4).
        contract: fixed when the auction closes, else ``None``.
        trick: the trick in progress.
        tricks_played: finished tricks (0..8).
        tricks_won: tricks per team.
        card_points: card big points per team, last-trick bonus included (rule 7).
        last_trick: the last finished trick, ``None`` before the first.
        declarations: the trick-1 declarations in order (rule 6).
        declarations_shown: the declared cards were shown (from trick 2).
        declarations_winner_team: the team whose combinations count, once shown (or ``None``).
        declarations_awarded: combination big points per team, once shown (before voiding).
        legal_cards_cache: the turn seat's legal cards, until the next card is played.
        combinations_cache: each seat's declarable combinations (its initial hand), per deal.
    """

    hands: list[list[int]] = field(default_factory=_four_empty_hands)
    turn: int = -1
    auction: Auction = field(default_factory=Auction)
    contract: Contract | None = None
    trick: Trick = field(default_factory=Trick)
    tricks_played: int = 0
    tricks_won: list[int] = field(default_factory=lambda: [0, 0])
    card_points: list[int] = field(default_factory=lambda: [0, 0])
    last_trick: Trick | None = None
    declarations: list[Declaration] = field(default_factory=list)
    declarations_shown: bool = False
    declarations_winner_team: int | None = None
    declarations_awarded: list[int] = field(default_factory=lambda: [0, 0])
    legal_cards_cache: list[int] | None = None
    combinations_cache: list[list[tuple[int, ...]] | None] = field(
        default_factory=lambda: [None, None, None, None])


@dataclass(slots=True)
class Match:
    """A whole match (rules 1, 8).

    Attributes:
        config: the rules config.
        dealer: the dealer of the current (or next) deal.
        phase: where the match is (changed only by :mod:`.state`).
        deal_number: deals dealt so far, redeals included.
        match_score: small points per team (the view's ``match_score``).
        deals: one JSON record per scored deal (the view's ``deals``). Never mutated: a
            scored deal replaces the list with a longer one, so public views may share it.
        deal: the current deal (the last one while the next deal is due).
    """

    config: BlotConfig
    dealer: int
    phase: Phase = Phase.DEAL
    deal_number: int = 0
    match_score: list[int] = field(default_factory=lambda: [0, 0])
    deals: list[dict[str, Any]] = field(default_factory=list)
    deal: DealState = field(default_factory=DealState)
