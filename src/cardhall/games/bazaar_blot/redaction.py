"""The table copy of a finished match: what the table saw (rules 4-6;
``docs/fairness.md`` section 7).

Every card of a deal played to the end is played face up, so the table copy of a complete deal
is the deal itself. Face down for good: the hands of a deal thrown in because every seat passed
(rule 4, a redeal: its cards are shuffled into the next deal unseen), and the cards an
abandoned match never played (``docs/design.md`` section 5). A card counts as seen in a deal
when a public event of that deal (``played``, ``trick_won``, ``declarations_shown``) named it.
"""

from __future__ import annotations

from typing import Any

from ...engine.actions import Action
from ...engine.cardcodes import redact
from ...engine.history import History
from ...engine.inspect import strings_in
from .cards import CODES

_CODES = frozenset(CODES)


def seen_per_deal(history: History, public_events: list[list[dict[str, Any]]]) -> list[set[str]]:
    """Per entry of ``history.actions``: the cards the public events of its deal (from the
    deal's chance entry to the next one) named."""
    seen: list[set[str]] = []
    current: set[str] = set()
    for entry, events in zip(history.actions, public_events, strict=True):
        if entry.seat is None and entry.action.get("type") == "deal":
            current = set()
        current.update(s for s in strings_in(events) if s in _CODES)
        seen.append(current)
    return seen


def table_actions(history: History, public_events: list[list[dict[str, Any]]]) -> list[Action]:
    """One action per entry of ``history.actions`` as the table saw it: each card of a deal,
    play or declaration kept if its deal's public events named it, else face down."""
    seen = seen_per_deal(history, public_events)
    return [redact(entry.action, cards.__contains__, _CODES)
            for entry, cards in zip(history.actions, seen, strict=True)]
