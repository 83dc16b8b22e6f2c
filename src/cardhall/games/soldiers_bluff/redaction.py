"""The table copy of a finished hand: what the table saw (rules 6, 8, 9; SB-6, SB-23;
``docs/fairness.md`` section 7).

Public at the table: the hands shown at a showdown (rule 9: every non-folded hand, after the
exchange). Face down for good: folded hands, the winner's hand of an uncontested pot (rule 8,
SB-23: no cards are shown), the cards exchanged away (rule 6, SB-6: discarded face down; the
count is public) and the stock that nobody drew.
"""

from __future__ import annotations

from typing import Any

from ...engine.actions import Action
from ...engine.cardcodes import HIDDEN
from ...engine.history import History


def shown_hands(public_events: list[list[dict[str, Any]]]) -> dict[int, set[str]]:
    """Seat -> the cards it showed, from the public ``showdown`` event (``{}``: no showdown)."""
    for events in public_events:
        for event in events:
            if event.get("kind") == "showdown":
                return {int(s): set(cards) for s, cards in event["hands"].items()}
    return {}


def table_actions(history: History, public_events: list[list[dict[str, Any]]]) -> list[Action]:
    """One action per entry of ``history.actions`` as the table saw it: in the ``deal`` a
    dealt card stays where it was dealt if its seat showed it; a stock card stays if some
    shown hand holds it (it was drawn, rule 6, and the shown hand lists the drawn cards);
    every exchanged card is :data:`~cardhall.engine.cardcodes.HIDDEN`. Betting actions name
    no card. ``public_events`` are each entry's public events (``GameRules.table_actions``)."""
    shown = shown_hands(public_events)
    drawn_or_kept = set().union(*shown.values()) if shown else set()
    out: list[Action] = []
    for entry in history.actions:
        action = entry.action
        match action.get("type"):
            case "deal":
                hands = [[c if c in shown.get(s, ()) else HIDDEN for c in hand]
                         for s, hand in enumerate(action["hands"])]
                stock = [c if c in drawn_or_kept else HIDDEN for c in action["stock"]]
                out.append({**action, "hands": hands, "stock": stock})
            case "exchange":
                out.append({**action, "cards": [HIDDEN] * len(action["cards"])})
            case _:
                out.append(dict(action))
    return out
