"""The face-down card code and the redaction of card codes in JSON (``design.md`` section 3).

Standard library only and importing nothing of the engine, so that :mod:`.rules` and
:mod:`.tablecopy` share it.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

HIDDEN = "??"
"""The face-down card code (``design.md`` section 3): a card of a table copy that nobody at the
table saw. It is no card of any game."""


def redact(obj: Any, keep: Callable[[str], bool], codes: Collection[str]) -> Any:
    """``obj`` (JSON) with every card code (a string in ``codes``) for which ``keep`` is false
    replaced by :data:`HIDDEN`; other strings, numbers and keys unchanged. Returns fresh lists
    and dicts (``obj`` is not changed)."""
    if isinstance(obj, str):
        return HIDDEN if obj in codes and not keep(obj) else obj
    if isinstance(obj, list):
        return [redact(v, keep, codes) for v in obj]
    if isinstance(obj, dict):
        return {k: redact(v, keep, codes) for k, v in obj.items()}
    return obj


def cards_only(obj: Any, keep: Callable[[str], bool], codes: Collection[str]) -> Any:
    """``obj`` (JSON) reduced to its card codes, for an answer that may show a card only as far
    as the table saw it: each card code kept if ``keep`` says so, else :data:`HIDDEN` (as
    :func:`redact`); every other leaf (a number, a bool, ``null``, a string that is no card)
    dropped, being possibly derived from a card the table never saw (a Soldier's Bluff
    ``hand_sum``); a dict keeps the keys whose values still hold a card, a list the items that
    do (an empty one is dropped too: whether a list of anything was empty is no card).
    ``None`` when nothing is left. Returns fresh lists and dicts."""
    if isinstance(obj, str):
        return None if obj not in codes else HIDDEN if not keep(obj) else obj
    if isinstance(obj, list):
        items = [cards_only(v, keep, codes) for v in obj]
        kept = [v for v in items if v is not None]
        return kept or None
    if isinstance(obj, dict):
        out = {k: v for k, v in ((k, cards_only(v, keep, codes)) for k, v in obj.items())
               if v is not None}
        return out or None
    return None
