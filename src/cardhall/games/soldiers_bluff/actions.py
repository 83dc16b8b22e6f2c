"""Parsing Soldier's Bluff action JSON (spec section 4) into a checked, typed form.

Only the *shape* is checked here (types, fields, card ids); whether the action is allowed now
is the business of the phase modules. Errors raise :class:`MalformedActionError` naming the value.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...engine.actions import Action
from ...engine.errors import MalformedActionError
from .cards import BY_ID

FIELDS: dict[str, frozenset[str]] = {
    "deal": frozenset(("type", "hands", "stock")),
    "exchange": frozenset(("type", "cards")),
    "pass": frozenset(("type",)),
    "bet": frozenset(("type", "to")),
    "check": frozenset(("type",)),
    "call": frozenset(("type",)),
    "raise": frozenset(("type", "to")),
    "fold": frozenset(("type",)),
}
"""The fields of every action type (section 4)."""

BETTING_TYPES = frozenset(("pass", "bet", "check", "call", "raise", "fold"))


@dataclass(frozen=True, slots=True)
class Parsed:
    """A well-formed action. ``to``: chips (bet/raise); ``cards``: exchange discards;
    ``hands``/``stock``: the deal's outcome (chance action)."""

    type: str
    to: int = 0
    cards: tuple[str, ...] = ()
    hands: tuple[tuple[str, ...], ...] = ()
    stock: tuple[str, ...] = ()


def _card_list(value: Any, what: str) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise MalformedActionError(f"{what} must be a list of card ids, got {value!r}")
    for c in value:
        if not isinstance(c, str) or c not in BY_ID:
            raise MalformedActionError(f"{what} holds {c!r}, which is not a Soldier's Bluff card id")
    return tuple(value)


def parse(action: Action) -> Parsed:
    """Check the shape of ``action`` and return its :class:`Parsed` form.

    Raises:
        MalformedActionError: unknown ``type``, missing or extra fields, ``to`` not a whole number,
            card lists that are not lists of known card ids.
    """
    kind = action["type"]
    fields = FIELDS.get(kind)
    if fields is None:
        seat_types = sorted(k for k in FIELDS if k != "deal")  # deal is the chance action
        raise MalformedActionError(f"unknown action type {kind!r}; a seat may send: {seat_types}")
    if set(action) != fields:
        raise MalformedActionError(
            f"action {kind!r} takes fields {sorted(fields)}, got {sorted(action, key=str)}"
        )
    match kind:
        case "deal":
            hands = action["hands"]
            if not isinstance(hands, list):
                raise MalformedActionError(f"deal 'hands' must be a list per seat, got {hands!r}")
            parsed_hands = tuple(_card_list(h, f"deal hand {i}") for i, h in enumerate(hands))
            return Parsed(kind, hands=parsed_hands, stock=_card_list(action["stock"], "deal stock"))
        case "exchange":
            return Parsed(kind, cards=_card_list(action["cards"], "exchange 'cards'"))
        case "bet" | "raise":
            to = action["to"]
            if type(to) is not int:
                raise MalformedActionError(f"{kind} 'to' must be a whole number of chips, got {to!r}")
            return Parsed(kind, to=to)
        case _:
            return Parsed(kind)
