"""The wire shapes of Palace Poker (``docs/games/palace_poker.md``): its view, legal-action entries and
events as ``TypedDict``s (:mod:`cardhall.engine.wire`). :data:`WIRE` is ``RULES.wire``;
:mod:`cardhall.protocol.games` builds the published models and schemas from it, and the
payload tests check every frame of random games against them (unknown keys fail).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal, NotRequired, TypedDict

from ...engine.wire import FrenchCard, OneOf, Outcome, Suit, WireShapes
from .model import Phase

if TYPE_CHECKING:  # built from the game's Phase enum at run time; a plain string to mypy
    PPPhaseName = str
else:
    PPPhaseName = Literal[tuple(m.value for m in Phase)]



class PPSeat(TypedDict):
    seat: int
    chips: int
    in_hand: bool
    dealt_in: bool
    committed: int
    banner: FrenchCard | None
    soldiers: list[FrenchCard]
    soldier_count: int
    attack_cost: int


class PPBattle(TypedDict):
    attacker: int
    defender: int
    facing: int
    owed: dict[str, int]
    raises: int
    raise_by: int | None
    """Chips a ``raise`` adds on top of what is owed (``big_bet`` under ``limit``; ``None``
    under ``no_limit``, whose entry carries ``min_by``/``max_by``)."""


class PPLastBattle(TypedDict):
    attacker: int
    defender: int
    winner: int | None
    losers: list[int]
    called: bool
    captured_count: int


class PPView(TypedDict):
    """``view(seat)`` of a Palace Poker hand (``docs/games/palace_poker.md``, "Views")."""

    game: Literal["palace_poker"]
    phase: PPPhaseName
    seat: int | None
    dealer: int
    order: list[int]
    to_act: int | None
    decision: Literal["turn", "discard", "battle_response"] | None
    palace: list[FrenchCard] | None
    revealed_palaces: dict[str, list[FrenchCard]]
    seats: list[PPSeat]
    pot: int
    battle: PPBattle | None
    last_battle: PPLastBattle | None
    stock_size: int
    discard_size: int
    rejected: list[FrenchCard]
    outcome: Outcome | None


class PPPlainEntry(TypedDict):
    type: Literal["buy", "stay", "call", "raise", "fold"]


class PPBattleEntry(TypedDict):
    type: Literal["battle"]
    target: int


class PPDiscardEntry(TypedDict):
    type: Literal["discard"]
    cards_from: list[FrenchCard]
    min_cards: int
    max_cards: int


PPEntry = Annotated[PPPlainEntry | PPBattleEntry | PPDiscardEntry, OneOf("type")]


class PPBanners(TypedDict):
    kind: Literal["banners"]
    banners: list[FrenchCard]
    rejected: list[FrenchCard]


class PPPalace(TypedDict):
    """Private to ``seat``: its palace."""

    kind: Literal["palace"]
    seat: int
    cards: list[FrenchCard]


class PPPalacesDealt(TypedDict):
    kind: Literal["palaces_dealt"]
    stock_size: int


class PPSeatOnly(TypedDict):
    kind: Literal["stay", "fold", "battle_fold"]
    seat: int


class PPPaid(TypedDict):
    kind: Literal["buy", "raise"]
    seat: int
    paid: int


class PPCall(TypedDict):
    kind: Literal["call"]
    seat: int
    paid: int
    all_in: bool


class PPSoldier(TypedDict):
    kind: Literal["soldier"]
    seat: int
    card: FrenchCard


class PPDiscard(TypedDict):
    kind: Literal["discard"]
    seat: int
    count: int


class PPBattleStart(TypedDict):
    kind: Literal["battle"]
    attacker: int
    defender: int
    paid: int
    extra: int


class PPDecided(TypedDict):
    """What decided between the best hand and the next (:mod:`.explain`): ``by`` the
    ``category``, the first differing ``rank`` (``ranks``: seat -> rank letter), the ``cards``
    an incomplete hand lacks, the ``own_suit`` count (PP-19), or a ``tie``; ``seats``: the
    better seat first."""

    by: Literal["category", "rank", "cards", "own_suit", "tie"]
    seats: list[int]
    ranks: NotRequired[dict[str, Literal[
        "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"]] | None]


class PPBattleReveal(TypedDict):
    """Private to the two battlers: both palaces, the eligible cards and the hands' names."""

    kind: Literal["battle_reveal"]
    attacker: int
    defender: int
    palaces: dict[str, list[FrenchCard]]
    eligible: dict[str, list[FrenchCard]]
    hands: dict[str, str]
    own_suit_counts: NotRequired[dict[str, int] | None]
    """Cards of each side's own banner suit, when equal hands needed the tie-break (PP-19)."""
    excluded: NotRequired[dict[str, Suit] | None]
    """Per side, the suit that did not count for it: the opponent's banner suit (PP-16)."""
    best: NotRequired[dict[str, list[FrenchCard]] | None]
    """Per side, the five (or fewer) eligible cards that made its hand."""
    decided: NotRequired[PPDecided | None]


class PPBattleResult(TypedDict):
    """A battle's result: ``winner`` takes ``loser``'s ``captured`` cards; or a tie
    (``tie: true``) that ``split``s the pot between the last two or knocks both ``out``."""

    kind: Literal["battle_result"]
    winner: NotRequired[int | None]
    loser: NotRequired[int | None]
    captured: NotRequired[list[FrenchCard] | None]
    tie: NotRequired[bool | None]
    split: NotRequired[list[int] | None]
    out: NotRequired[list[int] | None]


class PPReshuffle(TypedDict):
    """The discard pile was shuffled into a new stock (chance)."""

    kind: Literal["reshuffle"]
    stock_size: int


class PPCompared(TypedDict):
    """What a showdown compared (rule 11c): each seat's hand category (``hands``); under
    battle rules (``rule: "battle"``, two left, PP-25) also the ``eligible`` cards, the suit
    ``excluded`` from each side (the opponent's banner suit, PP-16) and ``own_suit_counts``
    when the tie-break was needed; for both rules each seat's ``best`` five cards and what
    ``decided``."""

    rule: Literal["battle", "normal"]
    hands: dict[str, str]
    best: NotRequired[dict[str, list[FrenchCard]] | None]
    decided: NotRequired[PPDecided | None]
    eligible: NotRequired[dict[str, list[FrenchCard]] | None]
    excluded: NotRequired[dict[str, Suit | None] | None]
    own_suit_counts: NotRequired[dict[str, int] | None]


class PPHandEnd(TypedDict):
    kind: Literal["hand_end"]
    reason: str
    pot: int
    winners: list[int]
    shares: dict[str, int]
    shown: NotRequired[dict[str, list[FrenchCard]] | None]
    compared: NotRequired[PPCompared | None]


PPEvent = Annotated[
    PPBanners | PPPalace | PPPalacesDealt | PPSeatOnly | PPPaid | PPCall | PPSoldier
    | PPDiscard | PPBattleStart | PPBattleReveal | PPBattleResult | PPReshuffle | PPHandEnd,
    OneOf("kind"),
]


WIRE = WireShapes(view=PPView, entry=PPEntry, event=PPEvent)
