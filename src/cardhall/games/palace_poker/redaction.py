"""The table copy of a finished hand: what the table saw (rules 5-11; PP-14, PP-22;
``docs/fairness.md`` section 7).

Public at the table: banners and rejected banner cards (rule 5, face up), each soldier bought
from the stock (rule 7, the top card, face up: so the first ``k`` stock cards of a deal or
reshuffle that ``k`` Buys drew from), discarded soldiers (they were face up; the discard names
them) and the palaces shown to everyone (PP-14 ``battle_reveal: "public"``, a showdown, rule
11c). Face down for good: folded and captured players' palaces (PP-22), palaces shown only to
the two battlers (PP-14 ``"participants"``, the default), the rest of every stock, and where a
rejected banner card went in the palace deal (it is face up, its place is not).
"""

from __future__ import annotations

from typing import Any

from ...engine.actions import Action
from ...engine.cardcodes import HIDDEN
from ...engine.history import History


def shown_palace_cards(public_events: list[list[dict[str, Any]]]) -> dict[int, set[str]]:
    """Seat -> the cards of its palace the table saw: a public ``battle_reveal`` (its
    ``palaces``) and the showdown's ``hand_end.shown`` (own cards: palace, soldiers, banner)."""
    shown: dict[int, set[str]] = {}
    for events in public_events:
        for event in events:
            match event.get("kind"):
                case "battle_reveal":
                    cards = event.get("palaces") or {}
                case "hand_end":
                    cards = event.get("shown") or {}
                case _:
                    continue
            for seat, own in cards.items():
                shown.setdefault(int(seat), set()).update(own)
    return shown


def stock_draws(history: History, public_events: list[list[dict[str, Any]]]) -> dict[int, int]:
    """Entry index of each ``deal_palaces`` / ``reshuffle`` -> the stock cards Buys drew from
    it (public ``soldier`` events until the next reshuffle, rule 7, PP-31)."""
    draws: dict[int, int] = {}
    current: int | None = None
    for i, (entry, events) in enumerate(zip(history.actions, public_events, strict=True)):
        if entry.seat is None and entry.action.get("type") in ("deal_palaces", "reshuffle"):
            current = i
            draws[i] = 0
        if current is not None:
            draws[current] += sum(1 for e in events if e.get("kind") == "soldier")
    return draws


def table_actions(history: History, public_events: list[list[dict[str, Any]]]) -> list[Action]:
    """One action per entry of ``history.actions`` as the table saw it (module docstring):
    ``deal_banners`` and discards whole; in ``deal_palaces`` a palace card stays if the table
    saw that palace, a stock card if it was bought; in ``reshuffle`` the stock cards bought.
    Other actions name no card. ``public_events``: each entry's public events."""
    shown = shown_palace_cards(public_events)
    draws = stock_draws(history, public_events)
    out: list[Action] = []
    for i, entry in enumerate(history.actions):
        action = entry.action
        match action.get("type"):
            case "deal_palaces":
                palaces = [None if p is None else [c if c in shown.get(s, ()) else HIDDEN
                                                   for c in p]
                           for s, p in enumerate(action["palaces"])]
                out.append({**action, "palaces": palaces,
                            "stock": _bought(action["stock"], draws.get(i, 0))})
            case "reshuffle":
                out.append({**action, "stock": _bought(action["stock"], draws.get(i, 0))})
            case _:
                out.append(dict(action))
    return out


def _bought(stock: list[str], k: int) -> list[str]:
    """The first ``k`` cards of ``stock`` (top first) kept, the rest face down."""
    return [c if n < k else HIDDEN for n, c in enumerate(stock)]
