"""The per-game payloads of a ``state`` message: legal-action entries, views and events.

Built from the registry: each game declares its wire shapes in its own package
(``RULES.wire``, a :class:`~cardhall.engine.wire.WireShapes` of ``TypedDict`` classes, standard
library only; ``docs/games/<game>.md``), and :func:`payloads_of` turns them into pydantic
models (one model per ``TypedDict``, named like it). :data:`GAME_PAYLOADS` maps every
registered game to its ``(view, legal entry, event)`` types; the event type also takes the
table's own events (:class:`GameStarted`, :class:`Abandoned`).
:mod:`cardhall.protocol.messages` builds the typed ``state`` messages of
:data:`~cardhall.protocol.messages.SERVER_TYPED` from them (one ``oneOf`` branch per ``game``).

These models describe the wire; the server never validates its outgoing frames with them (the
fan-out builds frames without pydantic). Tests validate every frame of random games of every
game against them, and ``docs/protocol.schema.json`` / ``docs/asyncapi.json`` publish them
(``make schemas``). Views and entries forbid unknown keys, so a new view key or event field
fails those tests until the game's ``wire.py`` declares it.
"""

from __future__ import annotations

import types
from typing import (
    Annotated,
    Any,
    Literal,
    NotRequired,
    Required,
    Union,
    get_args,
    get_origin,
    get_type_hints,
    is_typeddict,
)

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag, create_model

from ..engine import game_names, get_game
from ..engine import wire as w
from ..engine.rules import GameRules


class _P(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


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


class Rebuy(_P):
    """Table event (poker): table seat ``seat``'s stack grew between hands by ``chips`` to
    ``stack`` (chips): its holder's rebuy from the chip balance, or (``house``) a built-in
    bot's stack refilled to the table's starting stack by the house. Public, as stacks are."""

    kind: Literal["rebuy"]
    seat: int
    chips: int
    stack: int
    house: bool


_TABLE_EVENTS: tuple[tuple[type[BaseModel], str], ...] = (
    (GameStarted, "game_started"), (Abandoned, "abandoned"), (Rebuy, "rebuy"))
"""The table's own events, added to every game's event type (with their tags)."""

_MODELS: dict[str, tuple[type, type[BaseModel]]] = {}
"""Schema name -> (its ``TypedDict``, the model built from it): one model per name."""


class WireShapeError(TypeError):
    """A game's wire shapes cannot be turned into models (the message names the game's type)."""


def _model(td: type) -> type[BaseModel]:
    """The pydantic model of the ``TypedDict`` ``td`` (built once; its name is ``td``'s)."""
    known = _MODELS.get(td.__name__)
    if known is not None:
        if known[0] is not td:
            raise WireShapeError(f"two wire shapes are named {td.__name__!r}: "
                                 f"{known[0].__module__} and {td.__module__}")
        return known[1]
    fields: dict[str, Any] = {}
    for name, ann in get_type_hints(td, include_extras=True).items():
        # __required_keys__ misses NotRequired under postponed annotations: read the hint
        optional = get_origin(ann) is NotRequired or (
            name in td.__optional_keys__ and get_origin(ann) is not Required)  # type: ignore[attr-defined]
        while get_origin(ann) in (NotRequired, Required):
            ann = get_args(ann)[0]
        default: Any = ...
        if optional:
            default = None
            if get_origin(ann) is Annotated:
                base, *meta = get_args(ann)
                defaults = [m for m in meta if isinstance(m, w.Default)]
                if defaults:
                    default = defaults[0].value
                    rest = [m for m in meta if not isinstance(m, w.Default)]
                    ann = Annotated[(base, *rest)] if rest else base
        fields[name] = (_convert(ann), default)
    model = create_model(td.__name__, __base__=_P, __doc__=td.__doc__, **fields)
    _MODELS[td.__name__] = (td, model)
    return model


def _marker(meta: Any) -> Any:
    """The pydantic form of one :mod:`cardhall.engine.wire` marker."""
    if isinstance(meta, w.Pattern):
        return Field(pattern=meta.regex)
    if isinstance(meta, w.OneOf):
        return Field(discriminator=meta.key)
    if isinstance(meta, w.Tag):
        return Tag(meta.name)
    if isinstance(meta, w.TaggedBy):
        return Discriminator(meta.tag_of)
    raise WireShapeError(f"unknown wire marker {meta!r}")


def _convert(ann: Any) -> Any:
    """``ann`` with every ``TypedDict`` replaced by its model and every marker by pydantic's."""
    if is_typeddict(ann):
        return _model(ann)
    origin, args = get_origin(ann), get_args(ann)
    if origin is Annotated:
        return Annotated[(_convert(args[0]), *(_marker(m) for m in args[1:]))]
    if origin in (Union, types.UnionType):
        return Union[tuple(_convert(a) for a in args)]  # noqa: UP007 (built at run time)
    if origin is list:
        return list[_convert(args[0])]  # type: ignore[misc]
    if origin is dict:
        return dict[_convert(args[0]), _convert(args[1])]  # type: ignore[misc]
    if origin is Literal or ann in (str, int, bool, float, type(None), Any):
        return ann
    raise WireShapeError(f"unsupported wire type {ann!r}")


def _with_table_events(event: Any) -> Any:
    """The game's event type (converted) widened by the table's events."""
    if get_origin(event) is not Annotated:
        raise WireShapeError(f"an event type must be a OneOf or TaggedBy union, got {event!r}")
    union, *meta = get_args(event)
    members = list(get_args(union)) or [union]
    tagged = any(isinstance(m, w.TaggedBy) for m in meta)
    extra = [Annotated[m, Tag(tag)] if tagged else m for m, tag in _TABLE_EVENTS]
    return Annotated[(Union[tuple(_convert(m) for m in members) + tuple(extra)],  # noqa: UP007
                      *(_marker(m) for m in meta))]


def payloads_of(rules: GameRules[Any]) -> tuple[type[BaseModel], Any, Any]:
    """``(view model, legal entry type, event type)`` of a registered game, from ``rules.wire``.

    Raises:
        WireShapeError: the game declares no wire shapes, or declares what this cannot build.
    """
    shapes = rules.wire
    if shapes is None:
        raise WireShapeError(f"game {rules.name!r} declares no wire shapes (RULES.wire; "
                             "docs/design.md section 12)")
    return _model(shapes.view), _convert(shapes.entry), _with_table_events(shapes.event)


def patch_of(view: type[BaseModel]) -> type[BaseModel]:
    """The ``view_patch`` model of a view: the same keys, each optional."""
    fields: dict[str, Any] = {name: (f.annotation, None) for name, f in view.model_fields.items()}
    return create_model(
        f"{view.__name__}Patch", __base__=_P,
        __doc__=f"A delta's ``view_patch``: the keys of {view.__name__} that changed.",
        **fields)


GAME_PAYLOADS: dict[str, tuple[type[BaseModel], Any, Any]] = {
    g: payloads_of(get_game(g)) for g in game_names()}
"""Game name -> (view model, legal-action entry type, event type), for every registered game."""

VIEW_PATCHES: dict[str, type[BaseModel]] = {g: patch_of(v) for g, (v, _, _) in
                                            GAME_PAYLOADS.items()}
"""Game name -> the model of a delta's ``view_patch`` (every view key optional)."""
