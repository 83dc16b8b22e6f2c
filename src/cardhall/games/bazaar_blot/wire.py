"""The wire shapes of Bazaar Blot (``docs/games/bazaar_blot.md``): its view, legal-action entries and
events as ``TypedDict``s (:mod:`cardhall.engine.wire`). :data:`WIRE` is ``RULES.wire``;
:mod:`cardhall.protocol.games` builds the published models and schemas from it, and the
payload tests check every frame of random games against them (unknown keys fail).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal, NotRequired, TypedDict

from ...engine.wire import OneOf, Pattern, Suit, Tag, TaggedBy, WireShapes
from .model import Phase

BlotCard = Annotated[str, Pattern(r"^[789TJQKA][cdhs]$")]
"""A Bazaar Blot card: the 32 cards ``7``..``A``."""
if TYPE_CHECKING:  # built from the game's Phase enum at run time; a plain string to mypy
    BBPhaseName = str
else:
    BBPhaseName = Literal[tuple(m.value for m in Phase)]



class BBCall(TypedDict):
    """One call of the auction, as listed in the view."""

    seat: int
    type: Literal["bid", "kapot", "pass", "contra", "recontra"]
    level: NotRequired[int | None]
    trump: NotRequired[Suit | None]


class BBStanding(TypedDict):
    seat: int
    trump: Suit
    level: int | None
    kapot: bool


class BBAuction(TypedDict):
    calls: list[BBCall]
    standing: BBStanding | None
    contra_window: bool
    multiplier: int


class BBContract(TypedDict):
    declarer: int
    team: int
    trump: Suit
    level: int | None
    kapot: bool
    multiplier: int


class BBTrickCard(TypedDict):
    seat: int
    card: BlotCard


class BBTrick(TypedDict):
    number: int
    leader: int
    cards: list[BBTrickCard]


class BBLastTrick(TypedDict):
    leader: int
    winner: int
    cards: list[BBTrickCard]


class BBDeclaration(TypedDict):
    """A declared combination; ``cards`` from trick 2 on."""

    seat: int
    kind: str
    length: int
    value: int
    cards: NotRequired[list[BlotCard] | None]


class BBDealRecord(TypedDict):
    deal: int
    dealer: int
    contract: BBContract
    tricks: list[int]
    card_points: list[int]
    card_small: list[int]
    combinations: list[int]
    made: bool
    scores: list[int]
    totals: list[int]
    last_trick_team: NotRequired[int | None]
    """The team that took trick 8 (its ``last_trick_bonus`` card points are in ``card_points``)."""
    last_trick_bonus: NotRequired[int | None]


class BBView(TypedDict):
    """``view(seat)`` of a Bazaar Blot match (``docs/games/bazaar_blot.md``, "Views")."""

    game: Literal["bazaar_blot"]
    seat: int | None
    phase: BBPhaseName
    dealer: int
    deal_number: int
    target_score: int
    match_score: list[int]
    teams: list[list[int]]
    turn: int | None
    to_act: list[int]
    hand: list[BlotCard]
    hand_sizes: list[int]
    auction: BBAuction
    contract: BBContract | None
    trick: BBTrick | None
    last_trick: BBLastTrick | None
    tricks_won: list[int]
    card_points: list[int]
    declarations: list[BBDeclaration]
    declarations_winner_team: int | None
    deals: list[BBDealRecord]


class BBBidEntry(TypedDict):
    type: Literal["bid"]
    trump: Suit
    min_level: int
    max_level: int


class BBKapotEntry(TypedDict):
    type: Literal["kapot"]
    trump: Suit


class BBPlainEntry(TypedDict):
    type: Literal["pass", "contra", "recontra"]


class BBPlayEntry(TypedDict):
    """Play ``card``; in trick 1 optionally with exactly the combination ``declare_from``."""

    type: Literal["play"]
    card: BlotCard
    declare_from: NotRequired[list[BlotCard] | None]
    min_declare: NotRequired[int | None]
    max_declare: NotRequired[int | None]


BBEntry = Annotated[BBBidEntry | BBKapotEntry | BBPlainEntry | BBPlayEntry,
                    OneOf("type")]


class BBCallMade(TypedDict):
    """The call as sent: ``{"type": ...}`` with ``level``/``trump`` where it has them."""

    type: Literal["bid", "kapot", "pass", "contra", "recontra"]
    level: NotRequired[int | None]
    trump: NotRequired[Suit | None]


class BBCallEvent(TypedDict):
    kind: Literal["call"]
    seat: int
    call: BBCallMade


class BBDealtPrivate(TypedDict):
    """Private to ``seat``: its eight cards."""

    kind: Literal["dealt"]
    seat: int
    cards: list[BlotCard]


class BBDealtPublic(TypedDict):
    kind: Literal["dealt"]
    dealer: int
    deal_number: int


class BBRedeal(TypedDict):
    """Four passes: the same cards are dealt again (``dealer`` deals)."""

    kind: Literal["redeal"]
    dealer: int


class BBContractEvent(BBContract):
    kind: Literal["contract"]


class BBDeclared(TypedDict):
    kind: Literal["declared"]
    seat: int
    combination: str
    length: int
    value: int


class BBPlayed(TypedDict):
    kind: Literal["played"]
    seat: int
    card: BlotCard


class BBTrickWon(TypedDict):
    kind: Literal["trick_won"]
    seat: int
    cards: list[BlotCard]
    points: int


class BBDeclarationsShown(TypedDict):
    kind: Literal["declarations_shown"]
    declarations: list[BBDeclaration]
    winner_team: int | None


class BBDealScored(BBDealRecord):
    kind: Literal["deal_scored"]


class BBMatchOver(TypedDict):
    kind: Literal["match_over"]
    winner_team: int | None
    totals: list[int]


def _blot_event_tag(value: Any) -> str | None:
    """``kind``, except the two shapes of ``dealt``: ``dealt`` (public) and
    ``dealt_private`` (with ``cards``)."""
    def get(key: str) -> Any:
        return value.get(key) if isinstance(value, dict) else getattr(value, key, None)

    kind = get("kind")
    if kind == "dealt" and get("cards") is not None:
        return "dealt_private"
    return None if kind is None else str(kind)


BBEvent = Annotated[
    Annotated[BBCallEvent, Tag("call")] | Annotated[BBDealtPrivate, Tag("dealt_private")]
    | Annotated[BBDealtPublic, Tag("dealt")] | Annotated[BBRedeal, Tag("redeal")]
    | Annotated[BBContractEvent, Tag("contract")] | Annotated[BBDeclared, Tag("declared")]
    | Annotated[BBPlayed, Tag("played")] | Annotated[BBTrickWon, Tag("trick_won")]
    | Annotated[BBDeclarationsShown, Tag("declarations_shown")]
    | Annotated[BBDealScored, Tag("deal_scored")] | Annotated[BBMatchOver, Tag("match_over")],
    TaggedBy(_blot_event_tag),
]


WIRE = WireShapes(view=BBView, entry=BBEntry, event=BBEvent)
