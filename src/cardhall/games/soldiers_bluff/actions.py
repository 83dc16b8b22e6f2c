"""Soldier's Bluff action JSON (spec section 4) -> one frozen dataclass per action type.

Only the *shape* is checked here (types, fields, card ids); whether the action is allowed now
is the business of the rule modules. Each class carries its JSON ``type`` as the class attribute
``type`` (the name of the event a betting action produces, too), as in every game. Amounts are whole chips: ``to`` is the seat's
total stake this hand after the action, ante not included.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ...engine.actions import Action
from ...engine.errors import MalformedActionError
from .cards import BY_ID


@dataclass(frozen=True, slots=True)
class Deal:
    """The chance action (rule 5): ``hands`` has one entry per seat (6 ids, or none for a seat
    not dealt in); ``stock`` lists the remaining ids, top first."""

    type: ClassVar[str] = "deal"
    hands: tuple[tuple[str, ...], ...]
    stock: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Exchange:
    """Rule 6: discard ``cards`` (0..``exchange_max`` ids from the own hand), draw as many."""

    type: ClassVar[str] = "exchange"
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Pass:
    """Round 1 (SB-8): stay in without betting (a fold with ``pass_is_fold``)."""

    type: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class Bet:
    """Round 1 (SB-9): raise the own stake to ``to`` chips."""

    type: ClassVar[str] = "bet"
    to: int


@dataclass(frozen=True, slots=True)
class Check:
    """Round >= 2, stake equal to ``H``: stay in without adding chips."""

    type: ClassVar[str] = "check"


@dataclass(frozen=True, slots=True)
class Call:
    """Round >= 2, stake below ``H``: raise the own stake to ``H``."""

    type: ClassVar[str] = "call"


@dataclass(frozen=True, slots=True)
class Raise:
    """Round >= 2: raise the own stake to ``to`` chips (at least ``H + min_raise``)."""

    type: ClassVar[str] = "raise"
    to: int


@dataclass(frozen=True, slots=True)
class Fold:
    """Leave the hand; the stake stays in the pot (rule 7)."""

    type: ClassVar[str] = "fold"


BettingAction = Pass | Bet | Check | Call | Raise | Fold
"""The actions of the betting phase (rule 7)."""
SoldiersBluffAction = Deal | Exchange | BettingAction
"""Every parsed action."""

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


def _card_list(value: Any, what: str) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise MalformedActionError(f"{what} must be a list of card ids, got {value!r}")
    for c in value:
        if not isinstance(c, str) or c not in BY_ID:
            raise MalformedActionError(f"{what} holds {c!r}, which is not a Soldier's Bluff card id")
    return tuple(value)


def _chips(action: Action, kind: str) -> int:
    to = action["to"]
    if type(to) is not int:
        raise MalformedActionError(f"{kind} 'to' must be a whole number of chips, got {to!r}")
    return to


def _deal(action: Action) -> Deal:
    hands = action["hands"]
    if not isinstance(hands, list):
        raise MalformedActionError(f"deal 'hands' must be a list per seat, got {hands!r}")
    parsed = tuple(_card_list(h, f"deal hand {i}") for i, h in enumerate(hands))
    return Deal(parsed, _card_list(action["stock"], "deal stock"))


def parse_action(action: Action) -> SoldiersBluffAction:
    """Check the shape of ``action`` (a dict with a string ``type``, as the engine guarantees)
    and return its typed form.

    Raises:
        MalformedActionError: unknown ``type``, missing or extra fields, ``to`` not a whole
            number, card lists that are not lists of known card ids (the message names the value).
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
            return _deal(action)
        case "exchange":
            return Exchange(_card_list(action["cards"], "exchange 'cards'"))
        case "bet":
            return Bet(_chips(action, kind))
        case "raise":
            return Raise(_chips(action, kind))
        case "pass":
            return Pass()
        case "check":
            return Check()
        case "call":
            return Call()
        case _:
            return Fold()
