"""Action JSON of Bazaar Blot (spec section 3) -> one frozen dataclass per action type.

Cards and suits are ints inside (see :mod:`.cards`); the JSON keeps codes and letters:

* :class:`Deal` - ``{"type": "deal", "hands": [[8 cards] x 4]}`` (seat order), a partition of
  the 32 cards (the chance action, rule 3);
* :class:`Bid` - ``{"type": "bid", "level": 8, "trump": "c"|"d"|"h"|"s"}``;
* :class:`Kapot` - ``{"type": "kapot", "trump": "d"}``;
* :class:`Pass`, :class:`Contra`, :class:`Recontra` - ``{"type": "pass"}`` and so on (rule 4);
* :class:`Play` - ``{"type": "play", "card": "Jh"}`` with an optional
  ``"declare": [cards of one combination]`` (rules 5, 6).

:func:`parse_action` checks shapes only (types, fields, card codes); whether an action is legal
now is the rule modules' business. Field-less actions and plain plays are shared instances
(they are immutable), so parsing the common case allocates nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ...engine.errors import MalformedActionError
from .cards import CARD_OF, SUIT_OF, SUITS


@dataclass(frozen=True, slots=True)
class Bid:
    """A numeric bid (rule 4): ``level`` (whole number; its range is checked by the auction)
    with ``trump`` (suit number 0..3)."""

    type: ClassVar[str] = "bid"
    level: int
    trump: int

    def to_json(self) -> dict[str, Any]:
        """``{"type": "bid", "level": ..., "trump": letter}``."""
        return {"type": "bid", "level": self.level, "trump": SUITS[self.trump]}


@dataclass(frozen=True, slots=True)
class Kapot:
    """A kapot bid (all eight tricks, rule 4 / BB-12) in ``trump`` (suit number)."""

    type: ClassVar[str] = "kapot"
    trump: int

    def to_json(self) -> dict[str, Any]:
        """``{"type": "kapot", "trump": letter}``."""
        return {"type": "kapot", "trump": SUITS[self.trump]}


@dataclass(frozen=True, slots=True)
class Pass:
    """A pass in the auction or in the contra response (rule 4)."""

    type: ClassVar[str] = "pass"

    def to_json(self) -> dict[str, Any]:
        """``{"type": "pass"}`` (a fresh dict)."""
        return {"type": "pass"}


@dataclass(frozen=True, slots=True)
class Contra:
    """Contra: doubles the standing bid and ends the bidding (rule 4, BB-14)."""

    type: ClassVar[str] = "contra"

    def to_json(self) -> dict[str, Any]:
        """``{"type": "contra"}`` (a fresh dict)."""
        return {"type": "contra"}


@dataclass(frozen=True, slots=True)
class Recontra:
    """Recontra: the doubled pair redoubles (x4, rule 4, BB-16)."""

    type: ClassVar[str] = "recontra"

    def to_json(self) -> dict[str, Any]:
        """``{"type": "recontra"}`` (a fresh dict)."""
        return {"type": "recontra"}


@dataclass(frozen=True, slots=True)
class Play:
    """A card played (rule 5); in trick 1 optionally with a declared combination (rule 6):
    ``declare`` is its cards as a sorted tuple of card ints, or ``None``."""

    type: ClassVar[str] = "play"
    card: int
    declare: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class Deal:
    """The chance deal (rule 3): ``hands`` holds 8 card ints per seat (sorted), in seat order."""

    type: ClassVar[str] = "deal"
    hands: tuple[tuple[int, ...], ...]


Call = Bid | Kapot | Pass | Contra | Recontra
"""An auction or contra-response call."""
BlotAction = Call | Play | Deal
"""Any parsed Bazaar Blot action."""

PASS = Pass()
CONTRA = Contra()
RECONTRA = Recontra()
PLAYS: tuple[Play, ...] = tuple(Play(card) for card in range(32))
"""The plain play of each card int (no declaration)."""

_FIELDS: dict[str, tuple[frozenset[str], ...]] = {
    "deal": (frozenset({"type", "hands"}),),
    "bid": (frozenset({"type", "level", "trump"}),),
    "kapot": (frozenset({"type", "trump"}),),
    "pass": (frozenset({"type"}),),
    "contra": (frozenset({"type"}),),
    "recontra": (frozenset({"type"}),),
    "play": (frozenset({"type", "card"}), frozenset({"type", "card", "declare"})),
}
_BARE: dict[str, Call] = {"pass": PASS, "contra": CONTRA, "recontra": RECONTRA}


def card_of(code: Any) -> int:
    """Card int of a card code.

    Raises:
        MalformedActionError: ``code`` is not one of the 32 Blot card codes.
    """
    card = CARD_OF.get(code) if type(code) is str else None
    if card is None:
        raise MalformedActionError(f"unknown card {code!r}; expected a Blot card such as 'Jh'")
    return card


def suit_of(code: Any) -> int:
    """Suit number of a suit letter.

    Raises:
        MalformedActionError: not one of ``c d h s``.
    """
    s = SUIT_OF.get(code) if type(code) is str else None
    if s is None:
        raise MalformedActionError(f"unknown trump {code!r}; expected one of 'c', 'd', 'h', 's'")
    return s


def parse_action(action: dict[str, Any]) -> BlotAction:
    """Parse a JSON action (its ``type`` already known to be a string).

    Raises:
        MalformedActionError: unknown type, missing or extra fields, wrong types, unknown cards, a
            deal that is not a partition of the 32 cards, a declaration with repeated cards
            (the message names the value).
    """
    kind = action["type"]
    if kind == "play" and len(action) == 2 and "card" in action:  # the common case, fast
        return PLAYS[card_of(action["card"])]
    shapes = _FIELDS.get(kind)
    if shapes is None:
        raise MalformedActionError(f"unknown action type {kind!r} for bazaar_blot")
    if action.keys() not in shapes:
        raise MalformedActionError(
            f"{kind!r} action has fields {sorted(action, key=str)}; expected {sorted(shapes[-1])}")
    match kind:
        case "play":
            card = card_of(action["card"])
            if "declare" not in action:
                return PLAYS[card]
            return Play(card, _declare(action["declare"]))
        case "bid":
            level = action["level"]
            if type(level) is not int:
                raise MalformedActionError(f"bid level must be a whole number, got {level!r}")
            return Bid(level, suit_of(action["trump"]))
        case "kapot":
            return Kapot(suit_of(action["trump"]))
        case "deal":
            return Deal(_hands(action["hands"]))
    return _BARE[kind]


def _declare(value: Any) -> tuple[int, ...]:
    if not isinstance(value, list) or not value:
        raise MalformedActionError(f"'declare' must be a non-empty list of cards, got {value!r}")
    cards = sorted(card_of(c) for c in value)
    if len(set(cards)) != len(cards):
        raise MalformedActionError(f"'declare' repeats a card: {value!r}")
    return tuple(cards)


def _hands(value: Any) -> tuple[tuple[int, ...], ...]:
    if not isinstance(value, list) or len(value) != 4:
        raise MalformedActionError(f"'hands' must be a list of 4 hands, got {value!r}")
    hands = []
    get = CARD_OF.get
    for i, hand in enumerate(value):
        if not isinstance(hand, list) or len(hand) != 8:
            raise MalformedActionError(f"hand {i} must be a list of 8 cards, got {hand!r}")
        cards = [get(c, -1) if type(c) is str else -1 for c in hand]
        if -1 in cards:
            for c in hand:
                card_of(c)  # raises, naming the first bad code
        cards.sort()
        hands.append(tuple(cards))
    if len(set().union(*hands)) != 32:
        raise MalformedActionError(f"'hands' is not a partition of the 32 cards: {value!r}")
    return tuple(hands)
