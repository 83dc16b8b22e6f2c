"""Action JSON of Bazaar Blot (spec section 3): parsing into small tuples.

Parsed forms (cards and suits as ints, see :mod:`.cards`):

* ``("deal", hands)`` - ``{"type": "deal", "hands": [[8 cards] x 4]}`` (seat order), a
  partition of the 32 cards;
* ``("bid", level, suit)`` - ``{"type": "bid", "level": 8..16, "trump": "c"|"d"|"h"|"s"}``;
* ``("kapot", suit)`` - ``{"type": "kapot", "trump": s}``;
* ``("pass",)``, ``("contra",)``, ``("recontra",)``;
* ``("play", card, declare)`` - ``{"type": "play", "card": "Jh"}`` with an optional
  ``"declare": [cards of one combination]``; ``declare`` is a sorted tuple or ``None``.
"""

from __future__ import annotations

from typing import Any

from ...engine.errors import MalformedActionError
from .cards import CARD_OF, SUIT_OF

Parsed = tuple[Any, ...]

_FIELDS: dict[str, tuple[frozenset[str], ...]] = {
    "deal": (frozenset({"type", "hands"}),),
    "bid": (frozenset({"type", "level", "trump"}),),
    "kapot": (frozenset({"type", "trump"}),),
    "pass": (frozenset({"type"}),),
    "contra": (frozenset({"type"}),),
    "recontra": (frozenset({"type"}),),
    "play": (frozenset({"type", "card"}), frozenset({"type", "card", "declare"})),
}


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


def parse_action(action: dict[str, Any]) -> Parsed:
    """Parse a JSON action (its ``type`` already known to be a string).

    Raises:
        MalformedActionError: unknown type, missing or extra fields, wrong types, unknown cards, a
            deal that is not a partition of the 32 cards, a declaration with repeated cards.
    """
    kind = action["type"]
    if kind == "play" and len(action) == 2 and "card" in action:  # the common case, fast
        return ("play", card_of(action["card"]), None)
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
                return ("play", card, None)
            return ("play", card, _declare(action["declare"]))
        case "bid":
            level = action["level"]
            if type(level) is not int:
                raise MalformedActionError(f"bid level must be a whole number, got {level!r}")
            return ("bid", level, suit_of(action["trump"]))
        case "kapot":
            return ("kapot", suit_of(action["trump"]))
        case "deal":
            return ("deal", _hands(action["hands"]))
    return (kind,)


def _declare(value: Any) -> tuple[int, ...]:
    if not isinstance(value, list) or not value:
        raise MalformedActionError(f"'declare' must be a non-empty list of cards, got {value!r}")
    cards = sorted(card_of(c) for c in value)
    if len(set(cards)) != len(cards):
        raise MalformedActionError(f"'declare' repeats a card: {value!r}")
    return tuple(cards)


def _hands(value: Any) -> list[list[int]]:
    if not isinstance(value, list) or len(value) != 4:
        raise MalformedActionError(f"'hands' must be a list of 4 hands, got {value!r}")
    hands = []
    for i, hand in enumerate(value):
        if not isinstance(hand, list) or len(hand) != 8:
            raise MalformedActionError(f"hand {i} must be a list of 8 cards, got {hand!r}")
        hands.append(sorted(card_of(c) for c in hand))
    if len({c for h in hands for c in h}) != 32:
        raise MalformedActionError(f"'hands' is not a partition of the 32 cards: {value!r}")
    return hands
