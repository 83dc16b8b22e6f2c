"""Wire shapes: how a game declares the JSON of its views, legal-action entries and events
(``design.md`` section 12; standard library only).

A game describes each JSON object it sends as a :class:`typing.TypedDict` (keys that may be
missing are ``NotRequired`` and, on the wire, optional and ``null`` by default), and hands the
three roots to :class:`WireShapes` on its rules object (``GameRules.wire``). The markers below
add what a plain type cannot say; :mod:`cardhall.protocol.games` turns the whole declaration
into pydantic models, so the JSON Schema, ``docs/protocol.schema.json`` and
``docs/asyncapi.json`` are built from the registry (``make schemas``). A ``TypedDict``'s name is
its schema name, so names must be unique across games (the protocol raises otherwise).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Literal, NotRequired, TypedDict


@dataclass(frozen=True, slots=True)
class Pattern:
    """``Annotated[str, Pattern(regex)]``: the string matches ``regex`` (JSON Schema ``pattern``)."""

    regex: str


@dataclass(frozen=True, slots=True)
class Default:
    """``NotRequired[Annotated[T, Default(value)]]``: a missing key means ``value`` (not ``null``)."""

    value: Any


@dataclass(frozen=True, slots=True)
class OneOf:
    """``Annotated[A | B | ..., OneOf("type")]``: a union told apart by the ``Literal`` of
    each member's key ``key`` (a JSON Schema discriminator)."""

    key: str


@dataclass(frozen=True, slots=True)
class Tag:
    """``Annotated[A, Tag("name")]``: the member's tag in a union told apart by :class:`TaggedBy`."""

    name: str


@dataclass(frozen=True, slots=True)
class TaggedBy:
    """``Annotated[Annotated[A, Tag("a")] | ..., TaggedBy(fn)]``: a union whose members share a
    key value, told apart by ``fn(value) -> tag`` (``value`` a dict, or an object whose
    attributes are the keys; ``None``: no member fits)."""

    tag_of: Callable[[Any], str | None]


@dataclass(frozen=True, slots=True)
class WireShapes:
    """A game's wire shapes (``docs/games/<game>.md``).

    Attributes:
        view: the ``TypedDict`` of ``view(seat)`` (its key ``game`` is ``Literal[<name>]``).
        entry: the type of one ``legal_actions`` entry (usually a :class:`OneOf` ``"type"`` union).
        event: the type of one of the game's events (usually a :class:`OneOf` ``"kind"`` union);
            the protocol adds the table's own events (``game_started``, ``abandoned``).
    """

    view: type
    entry: Any
    event: Any


class Outcome(TypedDict):
    """A finished game's outcome (``engine.Outcome.to_json``)."""

    reason: str
    returns: list[int]
    detail: NotRequired[Annotated[dict[str, Any], Default({})]]


Suit = Literal["c", "d", "h", "s"]
"""A suit letter of a French card code (``design.md`` section 3)."""
FrenchCard = Annotated[str, Pattern(r"^[2-9TJQKA][cdhs]$")]
"""A French card code: rank ``2``-``9 T J Q K A`` + suit ``c d h s`` (``design.md`` 3)."""
