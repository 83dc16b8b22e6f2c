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
