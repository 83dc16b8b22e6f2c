"""The wire shapes of Soldier's Bluff (``docs/games/soldiers_bluff.md``): its view, legal-action entries and
events as ``TypedDict``s (:mod:`cardhall.engine.wire`). :data:`WIRE` is ``RULES.wire``;
:mod:`cardhall.protocol.games` builds the published models and schemas from it, and the
payload tests check every frame of random games against them (unknown keys fail).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal, NotRequired, TypedDict

from ...engine.wire import OneOf, Outcome, WireShapes
from .cards import CARD_IDS
from .model import Phase

if TYPE_CHECKING:  # built from the game's own tables at run time; plain strings to mypy
    SBCard = str
    SBPhaseName = str
else:
    SBCard = Literal[CARD_IDS]
    """A Soldier's Bluff card id (``cards.json``)."""
    SBPhaseName = Literal[tuple(m.value for m in Phase)]



class SBSeat(TypedDict):
    seat: int
    in_hand: bool
    chips: int
    ante: int
    stake: int
    folded: bool
    exchanged: int | None
    shown: list[SBCard] | None


class SBView(TypedDict):
    """``view(seat)`` of a Soldier's Bluff hand (``docs/games/soldiers_bluff.md``, "View")."""

    game: Literal["soldiers_bluff"]
    phase: SBPhaseName
    viewer: int | None
    dealer: int
    hand: list[SBCard]
    hand_sum: NotRequired[int | None]
    """Points of the own hand (rule 9.2); ``None`` for a spectator or an empty hand."""
    seats: list[SBSeat]
    pot: int
    round: int
    highest: int
    cap: int
    to_act: int | None
    stock_size: int
    min_bet: int
    min_raise: int
    outcome: Outcome | None


class SBExchangeEntry(TypedDict):
    """A card choice (``cards_from``, ``min_cards``..``max_cards``), or with
    ``exchange_exact`` the concrete "exchange nothing" (``cards: []``) next to it."""

    type: Literal["exchange"]
    cards_from: NotRequired[list[SBCard] | None]
    min_cards: NotRequired[int | None]
    max_cards: NotRequired[int | None]
    cards: NotRequired[list[SBCard] | None]


class SBAmountEntry(TypedDict):
    """``bet``/``raise`` to a total stake ``to`` in ``min_to..max_to``."""

    type: Literal["bet", "raise"]
    min_to: int
    max_to: int


class SBPlainEntry(TypedDict):
    type: Literal["pass", "check", "call", "fold"]


SBEntry = Annotated[SBExchangeEntry | SBAmountEntry | SBPlainEntry, OneOf("type")]


class SBAntes(TypedDict):
    kind: Literal["antes"]
    posted: list[int]
    pot: int
    sitting_out: list[int]


class SBDeal(TypedDict):
    kind: Literal["deal"]
    counts: list[int]
    stock_size: int


class SBDealt(TypedDict):
    """Private to ``seat``: its six cards."""

    kind: Literal["dealt"]
    seat: int
    cards: list[SBCard]


class SBExchanged(TypedDict):
    kind: Literal["exchanged"]
    seat: int
    count: int
    stock_size: int


class SBDrew(TypedDict):
    """Private to ``seat``: its discards and the cards drawn."""

    kind: Literal["drew"]
    seat: int
    discarded: list[SBCard]
    drawn: list[SBCard]


class SBRound(TypedDict):
    kind: Literal["round"]
    round: int
    highest: int
    cap: int


class SBBetting(TypedDict):
    """A betting action (public): the seat's stake after it and the pot."""

    kind: Literal["pass", "bet", "check", "call", "raise", "fold"]
    seat: int
    stake: int
    pot: int
    folded: bool


class SBShowdown(TypedDict):
    """Rule 9: the hands shown, their ``sums``, each hand's ``strongest`` card, the winner and
    ``decided_by``: the clause that separated the winner (``soldiers_bluff`` 9.1, ``sum`` 9.2,
    ``strongest_card`` 9.3)."""

    kind: Literal["showdown"]
    hands: dict[str, list[SBCard]]
    winner: int
    sums: NotRequired[dict[str, int] | None]
    strongest: NotRequired[dict[str, SBCard] | None]
    decided_by: NotRequired[Literal["soldiers_bluff", "sum", "strongest_card"] | None]


class SBPotAwarded(TypedDict):
    kind: Literal["pot_awarded"]
    seat: int
    chips: int
    reason: str


SBEvent = Annotated[
    SBAntes | SBDeal | SBDealt | SBExchanged | SBDrew | SBRound | SBBetting | SBShowdown
    | SBPotAwarded,
    OneOf("kind"),
]


WIRE = WireShapes(view=SBView, entry=SBEntry, event=SBEvent)
