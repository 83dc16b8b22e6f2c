"""Well-formedness of Palace Poker actions (section 3): shapes, field types, card codes.

Legality (whose decision, which cards, which targets) is checked in :mod:`.legal`.
"""

from __future__ import annotations

from typing import Any

from ...engine.actions import Action
from ...engine.errors import MalformedActionError
from .cards import ALL_CARDS

FIELDS: dict[str, tuple[str, ...]] = {
    "deal_banners": ("banners", "rejected"),
    "deal_palaces": ("palaces", "stock"),
    "reshuffle": ("stock",),
    "buy": (),
    "discard": ("cards",),
    "battle": ("target",),
    "stay": (),
    "fold": (),
    "call": (),
    "raise": (),
}
CHANCE_TYPES = frozenset({"deal_banners", "deal_palaces", "reshuffle"})


def parse_action(action: Action, num_seats: int, no_limit: bool = False) -> dict[str, Any]:
    """Validate the shape of ``action`` and return it with lists copied. Under ``no_limit`` a
    ``battle`` carries ``extra`` and a ``raise`` carries ``by`` (whole chips, section 3).

    Raises:
        MalformedActionError: unknown type, missing or extra fields, wrong types, unknown or repeated
            card codes (the message names the value).
    """
    kind = action["type"]
    if kind not in FIELDS:
        raise MalformedActionError(f"unknown Palace Poker action type {kind!r}")
    want = set(FIELDS[kind]) | ({"battle": {"extra"}, "raise": {"by"}}.get(kind, set())
                                if no_limit else set())
    got = set(action) - {"type"}
    if got != want:
        raise MalformedActionError(f"{kind!r} takes fields {sorted(want)}, got {sorted(got)}")
    out: dict[str, Any] = {"type": kind}
    match kind:
        case "discard":
            out["cards"] = _cards(action["cards"], "cards")
        case "battle":
            target = action["target"]
            if type(target) is not int or not 0 <= target < num_seats:
                raise MalformedActionError(f"battle target {target!r} is not a seat")
            out["target"] = target
            out["extra"] = _chips(action.get("extra", 0), "extra")
        case "raise":
            out["by"] = _chips(action["by"], "by") if no_limit else None
        case "reshuffle":
            out["stock"] = _cards(action["stock"], "stock")
        case "deal_palaces":
            out["palaces"] = _per_seat(action["palaces"], num_seats, "palaces")
            out["stock"] = _cards(action["stock"], "stock")
        case "deal_banners":
            banners = _per_seat(action["banners"], num_seats, "banners", single=True)
            out["banners"] = banners
            out["rejected"] = _cards(action["rejected"], "rejected", distinct=False)
    return out


def _chips(value: Any, name: str) -> int:
    if type(value) is not int or value < 0:
        raise MalformedActionError(f"{name!r} must be a whole number of chips, got {value!r}")
    return value


def _cards(value: Any, name: str, distinct: bool = True) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise MalformedActionError(f"{name!r} must be a list of card codes, got {value!r}")
    bad = [c for c in value if c not in ALL_CARDS]
    if bad:
        raise MalformedActionError(f"{name!r} holds unknown card code {bad[0]!r}")
    if distinct and len(set(value)) != len(value):
        raise MalformedActionError(f"{name!r} repeats a card: {value!r}")
    return list(value)


def _per_seat(value: Any, num_seats: int, name: str, single: bool = False) -> list[Any]:
    if not isinstance(value, list) or len(value) != num_seats:
        raise MalformedActionError(f"{name!r} must list one entry per seat ({num_seats}), got {value!r}")
    out: list[Any] = []
    for item in value:
        if item is None:
            out.append(None)
        elif single:
            if item not in ALL_CARDS:
                raise MalformedActionError(f"{name!r} holds unknown card code {item!r}")
            out.append(item)
        else:
            out.append(_cards(item, name))
    return out
