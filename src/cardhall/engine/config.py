"""Rules-config helpers shared by every game (``design.md`` section 2).

Each game has one frozen dataclass holding every number and provisional choice of its rules
spec. :func:`config_from_dict` builds one from a partial JSON object (missing fields take their
defaults) and rejects unknown fields or values of the wrong type with :class:`InvalidConfigError`
naming the field; the dataclass's own ``__post_init__`` checks value ranges.

**Bounds.** Every whole-number field of a rules config is declared with :func:`bounded`: its
default, its least and greatest value and its unit, kept in the field's metadata (a
:class:`Bound`). :func:`check_bounds` (the first thing each config's ``__post_init__`` does)
refuses a value outside them, naming the field and the bound, so a config never holds a number
the rules, the fan-out's JSON (64-bit integers) or the database cannot carry. :func:`bounds`
lists them (the games' documentation tables are checked against it).
"""

from __future__ import annotations

import dataclasses
import typing
from functools import cache
from typing import Any, TypeVar

from .errors import InvalidConfigError

C = TypeVar("C")

BIG_DIGITS = 30
"""An integer of more digits than this is shown by its size, never printed whole (Python
refuses to print an integer of more than 4300 digits, and a message must not be that long)."""


@dataclasses.dataclass(frozen=True, slots=True)
class Bound:
    """The documented range of one whole-number config field: ``lo <= value <= hi`` in ``unit``
    (e.g. ``"chips"``, ``"small points"``). ``None`` stays allowed where the field's type
    allows it (it means "the default rule", e.g. Palace Poker's ``ante``)."""

    lo: int
    hi: int
    unit: str

    def text(self) -> str:
        """``"1..5000 small points"``."""
        return f"{self.lo}..{self.hi} {self.unit}"


def bounded(default: Any, lo: int, hi: int, unit: str) -> Any:
    """A dataclass field of a whole-number config value with its documented :class:`Bound`
    (``field(default=default, metadata={"bound": Bound(lo, hi, unit)})``)."""
    return dataclasses.field(default=default, metadata={"bound": Bound(lo, hi, unit)})


def bounds(cls: type) -> dict[str, Bound]:
    """The bounds of every bounded field of the config class ``cls``, in field order."""
    return {name: bound for name, bound, _ in _bounds(cls)}


@cache
def _bounds(cls: type) -> tuple[tuple[str, Bound, bool], ...]:
    """``(field, bound, None allowed)`` of each bounded field of ``cls`` (computed once)."""
    hints = _schema(cls)[1]
    return tuple((f.name, f.metadata["bound"], _type_ok(None, hints[f.name]))
                 for f in dataclasses.fields(cls) if "bound" in f.metadata)


SHOW_CHARS = 120
"""Longest value text a message quotes (the rest is cut, ending in ``...``)."""


def show(value: Any) -> str:
    """``repr(value)`` for a message: a huge integer is named by its number of digits, a
    value Python cannot print (an integer of more than 4300 digits inside a list) by its type,
    and a long text is cut after :data:`SHOW_CHARS` characters."""
    if isinstance(value, int) and not isinstance(value, bool) and \
            value.bit_length() > BIG_DIGITS * 3.33:
        return f"an integer of about {int(value.bit_length() * 0.30103) + 1} digits"
    try:
        text = repr(value)
    except ValueError:
        return f"a {type(value).__name__} too large to show"
    return text if len(text) <= SHOW_CHARS else text[:SHOW_CHARS] + "..."


def check_bounds(config: Any) -> None:
    """Raise :class:`InvalidConfigError` naming the first field of ``config`` (a config
    dataclass instance) whose value is outside its :class:`Bound`, and that bound.

    A bounded field holding something other than a whole number (or ``None``) is refused too:
    a config built in Python without :func:`config_from_dict` gets the same check."""
    for name, bound, none_ok in _bounds(type(config)):  # type: ignore[arg-type]
        value = getattr(config, name)
        if value is None and none_ok:
            continue
        ok = isinstance(value, int) and not isinstance(value, bool) and \
            bound.lo <= value <= bound.hi
        if not ok:
            raise InvalidConfigError(f"config field {name!r} has invalid value {show(value)}: "
                                     f"must be {bound.text()}")


def _type_ok(value: Any, hint: Any) -> bool:
    origin = typing.get_origin(hint)
    if hint is Any:
        return True
    if origin is typing.Literal:
        return value in typing.get_args(hint)
    if origin in (tuple,):
        args = typing.get_args(hint)
        if not isinstance(value, (list, tuple)):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(_type_ok(v, args[0]) for v in value)
        return len(args) == len(value) and all(_type_ok(v, a) for v, a in zip(value, args, strict=True))
    if origin in (typing.Union, getattr(__import__("types"), "UnionType", None)):
        return any(_type_ok(value, a) for a in typing.get_args(hint))
    if hint is type(None):
        return value is None
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if isinstance(hint, type):
        return isinstance(value, hint)
    return True


@cache
def _schema(cls: type) -> tuple[dict[str, dataclasses.Field[Any]], dict[str, Any]]:
    """The dataclass fields and resolved type hints of a config class (computed once)."""
    return {f.name: f for f in dataclasses.fields(cls)}, typing.get_type_hints(cls)


def config_from_dict(cls: type[C], data: dict[str, Any] | None) -> C:
    """Build the config dataclass ``cls`` from a partial JSON object.

    Raises:
        InvalidConfigError: ``data`` is not an object, names an unknown field, or a value has the
            wrong type or fails the dataclass's own validation (the message names the field).
    """
    data = {} if data is None else data
    if not isinstance(data, dict):
        raise InvalidConfigError(f"config must be a JSON object, got {type(data).__name__}")
    fields, hints = _schema(cls)  # type: ignore[arg-type]
    kwargs: dict[str, Any] = {}
    for key, value in data.items():
        if key not in fields:
            raise InvalidConfigError(f"unknown config field {show(key)} for {cls.__name__}")
        if not _type_ok(value, hints[key]):
            raise InvalidConfigError(f"config field {key!r} has invalid value {show(value)}")
        kwargs[key] = tuple(value) if isinstance(value, list) else value
    try:
        return cls(**kwargs)
    except InvalidConfigError:
        raise
    except (TypeError, ValueError) as exc:  # pragma: no cover - defensive
        raise InvalidConfigError(str(exc)) from exc


def config_to_dict(config: Any) -> dict[str, Any]:
    """The full config as a JSON object (tuples become lists)."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(config):
        v = getattr(config, f.name)
        out[f.name] = list(v) if isinstance(v, tuple) else v
    return out


def config_diff(config: Any) -> dict[str, Any]:
    """Only the fields that differ from the defaults (the compact form stored in histories), as
    a fresh object. The defaults of each config class are computed once."""
    base = _defaults(type(config))
    out: dict[str, Any] = {}
    for name in base:
        v = getattr(config, name)
        if isinstance(v, tuple):
            v = list(v)
        if base[name] != v:
            out[name] = v
    return out


_DEFAULTS: dict[type, dict[str, Any]] = {}


def _defaults(cls: type) -> dict[str, Any]:
    """The default config of ``cls`` as a JSON object, computed once per class (never handed
    out: callers get copies)."""
    base = _DEFAULTS.get(cls)
    if base is None:
        base = _DEFAULTS[cls] = config_to_dict(cls())
    return base


def require(cond: bool, field: str, value: Any, why: str) -> None:
    """Raise :class:`InvalidConfigError` naming ``field`` and ``value`` unless ``cond`` holds."""
    if not cond:
        raise InvalidConfigError(f"config field {field!r} has invalid value {show(value)}: {why}")
