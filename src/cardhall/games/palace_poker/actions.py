"""Palace Poker actions (section 3): wire JSON -> one frozen dataclass per action type.

:func:`parse_action` checks only the shape (fields, types, card codes); whether the action is
legal now (whose decision, which cards, which target, enough chips) is :mod:`.legal`'s job.
Card lists become tuples. Each class's ``type`` (a class attribute) is its wire ``type``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ...engine.actions import Action
from ...engine.errors import MalformedActionError
from .cards import ALL_CARDS


@dataclass(frozen=True, slots=True)
class DealBanners:
    """Chance, rule 5: ``{"type": "deal_banners", "banners": [card or null per seat],
    "rejected": [cards in the order they were turned]}``."""

    type: ClassVar[str] = "deal_banners"
    banners: tuple[str | None, ...]
    rejected: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class DealPalaces:
    """Chance, rule 6: ``{"type": "deal_palaces", "palaces": [[3 cards] or null per seat],
    "stock": [cards, top first]}``."""

    type: ClassVar[str] = "deal_palaces"
    palaces: tuple[tuple[str, ...] | None, ...]
    stock: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Reshuffle:
    """Chance, rule 7 / PP-31: ``{"type": "reshuffle", "stock": [cards, top first]}``."""

    type: ClassVar[str] = "reshuffle"
    stock: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Buy:
    """Rule 7: ``{"type": "buy"}`` - pay ``small_bet`` and draw a soldier."""

    type: ClassVar[str] = "buy"


@dataclass(frozen=True, slots=True)
class Discard:
    """Rules 7, 9: ``{"type": "discard", "cards": [own soldiers]}`` (a discard turn, or the
    discard after a Buy or a capture)."""

    type: ClassVar[str] = "discard"
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Battle:
    """Rules 7, 8: ``{"type": "battle", "target": seat}``; under ``no_limit`` also
    ``"extra": E`` (whole chips, PP-11). ``extra`` is 0 under ``limit``."""

    type: ClassVar[str] = "battle"
    target: int
    extra: int = 0


@dataclass(frozen=True, slots=True)
class Stay:
    """Rule 7: ``{"type": "stay"}``."""

    type: ClassVar[str] = "stay"


@dataclass(frozen=True, slots=True)
class Fold:
    """Rules 7, 8: ``{"type": "fold"}`` - on the own turn, or facing a bet or raise."""

    type: ClassVar[str] = "fold"


@dataclass(frozen=True, slots=True)
class Call:
    """Rule 8: ``{"type": "call"}`` - pay what is owed (all-in if short, rule 13)."""

    type: ClassVar[str] = "call"


@dataclass(frozen=True, slots=True)
class Raise:
    """Rule 8: ``{"type": "raise"}``; under ``no_limit`` ``"by": R`` (whole chips, PP-12).
    ``by`` is ``None`` under ``limit`` (the raise is ``big_bet``)."""

    type: ClassVar[str] = "raise"
    by: int | None = None


PalaceAction = (DealBanners | DealPalaces | Reshuffle | Buy | Discard | Battle | Stay | Fold
                | Call | Raise)
"""Every parsed Palace Poker action."""

CHANCE_ACTIONS = (DealBanners, DealPalaces, Reshuffle)
"""The chance action classes (``seat=None``)."""

_FIELDS: dict[str, tuple[str, ...]] = {
    "deal_banners": ("banners", "rejected"),
    "deal_palaces": ("palaces", "stock"),
    "reshuffle": ("stock",),
    "buy": (), "discard": ("cards",), "battle": ("target",),
    "stay": (), "fold": (), "call": (), "raise": (),
}
_NO_LIMIT_FIELDS = {"battle": ("extra",), "raise": ("by",)}
_KEYS = {kind: frozenset({"type", *fields}) for kind, fields in _FIELDS.items()}
"""Every key of each action type under ``limit``."""
_NO_LIMIT_KEYS = {**_KEYS, **{kind: _KEYS[kind] | set(extra)
                              for kind, extra in _NO_LIMIT_FIELDS.items()}}
"""Every key of each action type under ``no_limit``."""
_BARE: dict[str, Buy | Stay | Fold | Call] = {"buy": Buy(), "stay": Stay(), "fold": Fold(),
                                              "call": Call()}


def parse_action(action: Action, num_seats: int, no_limit: bool = False) -> PalaceAction:
    """The parsed form of ``action`` (a JSON object with a string ``type``). Under
    ``no_limit`` a ``battle`` carries ``extra`` and a ``raise`` carries ``by`` (section 3).

    Raises:
        MalformedActionError: unknown type, missing or extra fields, wrong types, a target that
            is not a seat, unknown or repeated card codes (the message names the value).
    """
    kind = action["type"]
    want = (_NO_LIMIT_KEYS if no_limit else _KEYS).get(kind)
    if want is None:
        raise MalformedActionError(f"unknown Palace Poker action type {kind!r}")
    if action.keys() != want:
        raise MalformedActionError(f"{kind!r} takes fields {sorted(want - {'type'})}, "
                                   f"got {sorted(set(action) - {'type'})}")
    bare = _BARE.get(kind)
    if bare is not None:
        return bare
    match kind:
        case "discard":
            return Discard(_cards(action["cards"], "cards"))
        case "battle":
            target = action["target"]
            if type(target) is not int or not 0 <= target < num_seats:
                raise MalformedActionError(f"battle target {target!r} is not a seat")
            return Battle(target, _chips(action.get("extra", 0), "extra"))
        case "raise":
            return Raise(_chips(action["by"], "by") if no_limit else None)
        case "reshuffle":
            return Reshuffle(_cards(action["stock"], "stock"))
        case "deal_palaces":
            return DealPalaces(_palaces(action["palaces"], num_seats),
                               _cards(action["stock"], "stock"))
    return DealBanners(_banners(action["banners"], num_seats),
                       _cards(action["rejected"], "rejected", distinct=False))


def _chips(value: Any, name: str) -> int:
    if type(value) is not int or value < 0:
        raise MalformedActionError(f"{name!r} must be a whole number of chips, got {value!r}")
    return value


def _cards(value: Any, name: str, distinct: bool = True) -> tuple[str, ...]:
    if not isinstance(value, list) or not _all_cards(value):
        if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
            raise MalformedActionError(f"{name!r} must be a list of card codes, got {value!r}")
        bad = [c for c in value if c not in ALL_CARDS]
        raise MalformedActionError(f"{name!r} holds unknown card code {bad[0]!r}")
    if distinct and len(set(value)) != len(value):
        raise MalformedActionError(f"{name!r} repeats a card: {value!r}")
    return tuple(value)


def _all_cards(value: list[Any]) -> bool:
    """True if every item is a card code (the common case, checked in one pass)."""
    try:
        return ALL_CARDS.issuperset(value)
    except TypeError:  # an unhashable item (a list, an object) is never a card code
        return False


def _per_seat(value: Any, num_seats: int, name: str) -> list[Any]:
    if not isinstance(value, list) or len(value) != num_seats:
        raise MalformedActionError(f"{name!r} must list one entry per seat ({num_seats}), got {value!r}")
    return value


def _banners(value: Any, num_seats: int) -> tuple[str | None, ...]:
    out: list[str | None] = []
    for item in _per_seat(value, num_seats, "banners"):
        if item is not None and (not isinstance(item, str) or item not in ALL_CARDS):
            raise MalformedActionError(f"'banners' holds unknown card code {item!r}")
        out.append(item)
    return tuple(out)


def _palaces(value: Any, num_seats: int) -> tuple[tuple[str, ...] | None, ...]:
    return tuple(None if item is None else _cards(item, "palaces")
                 for item in _per_seat(value, num_seats, "palaces"))
