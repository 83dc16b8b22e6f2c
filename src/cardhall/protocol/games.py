"""The per-game payloads of a ``state`` message: legal-action entries, views and events.

One set of models per registered game (``docs/games/<game>.md``): :data:`GAME_PAYLOADS` maps a
game name to its ``(view, legal entry, event)`` types. Phases and card ids come from the game
packages themselves (their ``Phase`` enums and deck tables), so the schema cannot drift from
the engine on those. :mod:`cardhall.protocol.messages` builds the typed ``state`` messages of
:data:`~cardhall.protocol.messages.SERVER_TYPED` from them (one ``oneOf`` branch per ``game``).

These models describe the wire; the server never validates its outgoing frames with them (the
fan-out builds frames without pydantic). Tests validate every frame of random games of every
game against them, and ``docs/protocol.schema.json`` / ``docs/asyncapi.json`` publish them.
Views and entries forbid unknown keys, so a new view key or event field fails those tests
until it is described here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag, create_model

from ..games.bazaar_blot.model import Phase as BlotPhase
from ..games.palace_poker.model import Phase as PalacePhase
from ..games.soldiers_bluff.cards import CARD_IDS as SB_CARD_IDS
from ..games.soldiers_bluff.model import Phase as SBPhase


class _P(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


Suit = Literal["c", "d", "h", "s"]
FrenchCard = Annotated[str, Field(pattern=r"^[2-9TJQKA][cdhs]$")]
"""A French card code: rank ``2``-``9 T J Q K A`` + suit ``c d h s`` (``design.md`` 3)."""
BlotCard = Annotated[str, Field(pattern=r"^[789TJQKA][cdhs]$")]
"""A Bazaar Blot card: the 32 cards ``7``..``A``."""
if TYPE_CHECKING:  # built from the games' own tables at run time; plain strings to mypy
    SBCard = str
    SBPhaseName = str
    PPPhaseName = str
    BBPhaseName = str
else:
    SBCard = Literal[SB_CARD_IDS]
    """A Soldier's Bluff card id (``cards.json``)."""
    SBPhaseName = Literal[tuple(m.value for m in SBPhase)]
    PPPhaseName = Literal[tuple(m.value for m in PalacePhase)]
    BBPhaseName = Literal[tuple(m.value for m in BlotPhase)]


class Outcome(_P):
    """A finished game's outcome (``engine.Outcome.to_json``)."""

    reason: str
    returns: list[int]
    detail: dict[str, Any] = {}


class GameStarted(_P):
    """Table event: a game started (table seats; ``seed_commitment`` = sha256(seed) hex)."""

    kind: Literal["game_started"]
    game_id: str
    hand: int
    seat_map: list[int]
    dealer: int
    seed_commitment: str


class Abandoned(_P):
    """Table event: the table ended the game because no client was connected."""

    kind: Literal["abandoned"]
    returns: list[int]


def _patch_of(view: type[BaseModel]) -> type[BaseModel]:
    """The ``view_patch`` model of a view: the same keys, each optional."""
    fields: dict[str, Any] = {name: (f.annotation, None) for name, f in view.model_fields.items()}
    return create_model(
        f"{view.__name__}Patch", __base__=_P,
        __doc__=f"A delta's ``view_patch``: the keys of {view.__name__} that changed.",
        **fields)


# ----- Soldier's Bluff (docs/games/soldiers_bluff.md) ---------------------------------------
class SBSeat(_P):
    seat: int
    in_hand: bool
    chips: int
    ante: int
    stake: int
    folded: bool
    exchanged: int | None
    shown: list[SBCard] | None


class SBView(_P):
    """``view(seat)`` of a Soldier's Bluff hand (``docs/games/soldiers_bluff.md``, "View")."""

    game: Literal["soldiers_bluff"]
    phase: SBPhaseName
    viewer: int | None
    dealer: int
    hand: list[SBCard]
    hand_sum: int | None = None
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


class SBExchangeEntry(_P):
    """A card choice (``cards_from``, ``min_cards``..``max_cards``), or with
    ``exchange_exact`` the concrete "exchange nothing" (``cards: []``) next to it."""

    type: Literal["exchange"]
    cards_from: list[SBCard] | None = None
    min_cards: int | None = None
    max_cards: int | None = None
    cards: list[SBCard] | None = None


class SBAmountEntry(_P):
    """``bet``/``raise`` to a total stake ``to`` in ``min_to..max_to``."""

    type: Literal["bet", "raise"]
    min_to: int
    max_to: int


class SBPlainEntry(_P):
    type: Literal["pass", "check", "call", "fold"]


SBEntry = Annotated[SBExchangeEntry | SBAmountEntry | SBPlainEntry, Field(discriminator="type")]


class SBAntes(_P):
    kind: Literal["antes"]
    posted: list[int]
    pot: int
    sitting_out: list[int]


class SBDeal(_P):
    kind: Literal["deal"]
    counts: list[int]
    stock_size: int


class SBDealt(_P):
    """Private to ``seat``: its six cards."""

    kind: Literal["dealt"]
    seat: int
    cards: list[SBCard]


class SBExchanged(_P):
    kind: Literal["exchanged"]
    seat: int
    count: int
    stock_size: int


class SBDrew(_P):
    """Private to ``seat``: its discards and the cards drawn."""

    kind: Literal["drew"]
    seat: int
    discarded: list[SBCard]
    drawn: list[SBCard]


class SBRound(_P):
    kind: Literal["round"]
    round: int
    highest: int
    cap: int


class SBBetting(_P):
    """A betting action (public): the seat's stake after it and the pot."""

    kind: Literal["pass", "bet", "check", "call", "raise", "fold"]
    seat: int
    stake: int
    pot: int
    folded: bool


class SBShowdown(_P):
    """Rule 9: the hands shown, their ``sums``, each hand's ``strongest`` card, the winner and
    ``decided_by``: the clause that separated the winner (``soldiers_bluff`` 9.1, ``sum`` 9.2,
    ``strongest_card`` 9.3)."""

    kind: Literal["showdown"]
    hands: dict[str, list[SBCard]]
    winner: int
    sums: dict[str, int] | None = None
    strongest: dict[str, SBCard] | None = None
    decided_by: Literal["soldiers_bluff", "sum", "strongest_card"] | None = None


class SBPotAwarded(_P):
    kind: Literal["pot_awarded"]
    seat: int
    chips: int
    reason: str


SBEvent = Annotated[
    SBAntes | SBDeal | SBDealt | SBExchanged | SBDrew | SBRound | SBBetting | SBShowdown
    | SBPotAwarded | GameStarted | Abandoned,
    Field(discriminator="kind"),
]


# ----- Palace Poker (docs/games/palace_poker.md) --------------------------------------------
class PPSeat(_P):
    seat: int
    chips: int
    in_hand: bool
    dealt_in: bool
    committed: int
    banner: FrenchCard | None
    soldiers: list[FrenchCard]
    soldier_count: int
    attack_cost: int


class PPBattle(_P):
    attacker: int
    defender: int
    facing: int
    owed: dict[str, int]
    raises: int
    raise_by: int | None
    """Chips a ``raise`` adds on top of what is owed (``big_bet`` under ``limit``; ``None``
    under ``no_limit``, whose entry carries ``min_by``/``max_by``)."""


class PPLastBattle(_P):
    attacker: int
    defender: int
    winner: int | None
    losers: list[int]
    called: bool
    captured_count: int


class PPView(_P):
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


class PPPlainEntry(_P):
    type: Literal["buy", "stay", "call", "raise", "fold"]


class PPBattleEntry(_P):
    type: Literal["battle"]
    target: int


class PPDiscardEntry(_P):
    type: Literal["discard"]
    cards_from: list[FrenchCard]
    min_cards: int
    max_cards: int


PPEntry = Annotated[PPPlainEntry | PPBattleEntry | PPDiscardEntry, Field(discriminator="type")]


class PPBanners(_P):
    kind: Literal["banners"]
    banners: list[FrenchCard]
    rejected: list[FrenchCard]


class PPPalace(_P):
    """Private to ``seat``: its palace."""

    kind: Literal["palace"]
    seat: int
    cards: list[FrenchCard]


class PPPalacesDealt(_P):
    kind: Literal["palaces_dealt"]
    stock_size: int


class PPSeatOnly(_P):
    kind: Literal["stay", "fold", "battle_fold"]
    seat: int


class PPPaid(_P):
    kind: Literal["buy", "raise"]
    seat: int
    paid: int


class PPCall(_P):
    kind: Literal["call"]
    seat: int
    paid: int
    all_in: bool


class PPSoldier(_P):
    kind: Literal["soldier"]
    seat: int
    card: FrenchCard


class PPDiscard(_P):
    kind: Literal["discard"]
    seat: int
    count: int


class PPBattleStart(_P):
    kind: Literal["battle"]
    attacker: int
    defender: int
    paid: int
    extra: int


class PPBattleReveal(_P):
    """Private to the two battlers: both palaces, the eligible cards and the hands' names."""

    kind: Literal["battle_reveal"]
    attacker: int
    defender: int
    palaces: dict[str, list[FrenchCard]]
    eligible: dict[str, list[FrenchCard]]
    hands: dict[str, str]
    own_suit_counts: dict[str, int] | None = None
    """Cards of each side's own banner suit, when equal hands needed the tie-break (PP-19)."""
    excluded: dict[str, Suit] | None = None
    """Per side, the suit that did not count for it: the opponent's banner suit (PP-16)."""


class PPBattleResult(_P):
    """A battle's result: ``winner`` takes ``loser``'s ``captured`` cards; or a tie
    (``tie: true``) that ``split``s the pot between the last two or knocks both ``out``."""

    kind: Literal["battle_result"]
    winner: int | None = None
    loser: int | None = None
    captured: list[FrenchCard] | None = None
    tie: bool | None = None
    split: list[int] | None = None
    out: list[int] | None = None


class PPReshuffle(_P):
    """The discard pile was shuffled into a new stock (chance)."""

    kind: Literal["reshuffle"]
    stock_size: int


class PPCompared(_P):
    """What a showdown compared (rule 11c): each seat's hand category (``hands``); under
    battle rules (``rule: "battle"``, two left, PP-25) also the ``eligible`` cards, the suit
    ``excluded`` from each side (the opponent's banner suit, PP-16) and ``own_suit_counts``
    when the tie-break was needed."""

    rule: Literal["battle", "normal"]
    hands: dict[str, str]
    eligible: dict[str, list[FrenchCard]] | None = None
    excluded: dict[str, Suit | None] | None = None
    own_suit_counts: dict[str, int] | None = None


class PPHandEnd(_P):
    kind: Literal["hand_end"]
    reason: str
    pot: int
    winners: list[int]
    shares: dict[str, int]
    shown: dict[str, list[FrenchCard]] | None = None
    compared: PPCompared | None = None


PPEvent = Annotated[
    PPBanners | PPPalace | PPPalacesDealt | PPSeatOnly | PPPaid | PPCall | PPSoldier
    | PPDiscard | PPBattleStart | PPBattleReveal | PPBattleResult | PPReshuffle | PPHandEnd
    | GameStarted
    | Abandoned,
    Field(discriminator="kind"),
]


# ----- Bazaar Blot (docs/games/bazaar_blot.md) ----------------------------------------------
class BBCall(_P):
    """One call of the auction, as listed in the view."""

    seat: int
    type: Literal["bid", "kapot", "pass", "contra", "recontra"]
    level: int | None = None
    trump: Suit | None = None


class BBStanding(_P):
    seat: int
    trump: Suit
    level: int | None
    kapot: bool


class BBAuction(_P):
    calls: list[BBCall]
    standing: BBStanding | None
    contra_window: bool
    multiplier: int


class BBContract(_P):
    declarer: int
    team: int
    trump: Suit
    level: int | None
    kapot: bool
    multiplier: int


class BBTrickCard(_P):
    seat: int
    card: BlotCard


class BBTrick(_P):
    number: int
    leader: int
    cards: list[BBTrickCard]


class BBLastTrick(_P):
    leader: int
    winner: int
    cards: list[BBTrickCard]


class BBDeclaration(_P):
    """A declared combination; ``cards`` from trick 2 on."""

    seat: int
    kind: str
    length: int
    value: int
    cards: list[BlotCard] | None = None


class BBDealRecord(_P):
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
    last_trick_team: int | None = None
    """The team that took trick 8 (its ``last_trick_bonus`` card points are in ``card_points``)."""
    last_trick_bonus: int | None = None


class BBView(_P):
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


class BBBidEntry(_P):
    type: Literal["bid"]
    trump: Suit
    min_level: int
    max_level: int


class BBKapotEntry(_P):
    type: Literal["kapot"]
    trump: Suit


class BBPlainEntry(_P):
    type: Literal["pass", "contra", "recontra"]


class BBPlayEntry(_P):
    """Play ``card``; in trick 1 optionally with exactly the combination ``declare_from``."""

    type: Literal["play"]
    card: BlotCard
    declare_from: list[BlotCard] | None = None
    min_declare: int | None = None
    max_declare: int | None = None


BBEntry = Annotated[BBBidEntry | BBKapotEntry | BBPlainEntry | BBPlayEntry,
                    Field(discriminator="type")]


class BBCallMade(_P):
    """The call as sent: ``{"type": ...}`` with ``level``/``trump`` where it has them."""

    type: Literal["bid", "kapot", "pass", "contra", "recontra"]
    level: int | None = None
    trump: Suit | None = None


class BBCallEvent(_P):
    kind: Literal["call"]
    seat: int
    call: BBCallMade


class BBDealtPrivate(_P):
    """Private to ``seat``: its eight cards."""

    kind: Literal["dealt"]
    seat: int
    cards: list[BlotCard]


class BBDealtPublic(_P):
    kind: Literal["dealt"]
    dealer: int
    deal_number: int


class BBRedeal(_P):
    """Four passes: the same cards are dealt again (``dealer`` deals)."""

    kind: Literal["redeal"]
    dealer: int


class BBContractEvent(BBContract):
    kind: Literal["contract"]


class BBDeclared(_P):
    kind: Literal["declared"]
    seat: int
    combination: str
    length: int
    value: int


class BBPlayed(_P):
    kind: Literal["played"]
    seat: int
    card: BlotCard


class BBTrickWon(_P):
    kind: Literal["trick_won"]
    seat: int
    cards: list[BlotCard]
    points: int


class BBDeclarationsShown(_P):
    kind: Literal["declarations_shown"]
    declarations: list[BBDeclaration]
    winner_team: int | None


class BBDealScored(BBDealRecord):
    kind: Literal["deal_scored"]


class BBMatchOver(_P):
    kind: Literal["match_over"]
    winner_team: int | None
    totals: list[int]


def _blot_event_tag(value: Any) -> str | None:
    """``kind``, except the two shapes of ``dealt``: ``dealt`` (public) and
    ``dealt_private`` (with ``cards``)."""
    get = value.get if isinstance(value, dict) else (lambda k: getattr(value, k, None))
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
    | Annotated[BBDealScored, Tag("deal_scored")] | Annotated[BBMatchOver, Tag("match_over")]
    | Annotated[GameStarted, Tag("game_started")] | Annotated[Abandoned, Tag("abandoned")],
    Discriminator(_blot_event_tag),
]


GAME_PAYLOADS: dict[str, tuple[type[BaseModel], Any, Any]] = {
    "soldiers_bluff": (SBView, SBEntry, SBEvent),
    "palace_poker": (PPView, PPEntry, PPEvent),
    "bazaar_blot": (BBView, BBEntry, BBEvent),
}
"""Game name -> (view model, legal-action entry type, event type)."""

VIEW_PATCHES: dict[str, type[BaseModel]] = {g: _patch_of(v) for g, (v, _, _) in
                                            GAME_PAYLOADS.items()}
"""Game name -> the model of a delta's ``view_patch`` (every view key optional)."""
