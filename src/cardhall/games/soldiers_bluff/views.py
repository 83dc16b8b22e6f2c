"""What each seat sees (spec section 5), the hidden-card sets, the snapshot and invariants.

A seat's view::

    {"game": "soldiers_bluff", "phase": "deal"|"exchange"|"betting"|"over",
     "viewer": seat or null, "dealer": seat, "hand": [own card ids] ([] for a spectator),
     "hand_sum": points of the own hand (rule 9.2; null for a spectator or an empty hand),
     "seats": [{"seat", "in_hand", "chips", "ante", "stake", "folded",
                "exchanged" (count or null), "shown" (cards or null)} per seat],
     "pot", "round" (0 before betting), "highest" (H), "cap", "to_act" (seat or null),
     "stock_size", "min_bet", "min_raise", "outcome" (null or the outcome JSON)}

``shown`` is set only at a showdown and only for non-folded players; folded hands and an
uncontested winner's hand are never revealed (rule 8, SB-23). A spectator sees the public part.
"""

from __future__ import annotations

from typing import Any

from .cards import CARD_IDS
from .config import HAND_SIZE
from .model import HandModel, Phase
from .ranking import hand_sum

_ALL = frozenset(CARD_IDS)


def _seat_view(m: HandModel, s: int) -> dict[str, Any]:
    p = m.seats[s]
    shown = p.shown
    return {
        "seat": s,
        "in_hand": p.in_hand,
        "chips": m.chips(s),
        "ante": p.ante,
        "stake": p.stake,
        "folded": p.folded,
        "exchanged": p.exchanged,
        "shown": None if shown is None else list(shown),
    }


def view(m: HandModel, seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` (``None`` = spectator); see the module docstring for the shape."""
    return {
        "game": "soldiers_bluff",
        "phase": m.phase.value,
        "viewer": seat,
        "dealer": m.dealer,
        "hand": [] if seat is None else list(m.seats[seat].hand),
        "hand_sum": None if seat is None or not m.seats[seat].hand else hand_sum(m.seats[seat].hand),
        "seats": [_seat_view(m, s) for s in range(m.num_seats)],
        "pot": m.pot,
        "round": m.round,
        "highest": m.highest(),
        "cap": m.cap,
        "to_act": m.turn_seat(),
        "stock_size": len(m.stock),
        "min_bet": m.config.min_bet,
        "min_raise": m.config.min_raise,
        "outcome": None if m.outcome is None else m.outcome.to_json(),
    }


def private_view(m: HandModel, seat: int) -> dict[str, Any]:
    """The keys of ``seat``'s view that differ from the spectator's: ``viewer``, and ``hand``
    and ``hand_sum`` while the seat holds cards (an empty hand is the spectator's ``[]``)."""
    hand = m.seats[seat].hand
    if hand:
        return {"viewer": seat, "hand": list(hand), "hand_sum": hand_sum(hand)}
    return {"viewer": seat}


def hidden_from(m: HandModel, seat: int | None) -> set[str]:
    """Card ids ``seat`` may not see: all 40 except its own hand and own discards and the hands
    shown at a showdown."""
    known: set[str] = set()
    if seat is not None:
        p = m.seats[seat]
        known |= set(p.hand) | set(p.discarded)
    for q in m.seats:
        known |= set(q.shown or ())
    return set(_ALL - known)


def snapshot(m: HandModel) -> dict[str, Any]:
    """The full unredacted state as JSON (admin inspection, equality checks in tests). Keys
    are those of the first release (per-seat lists), kept for admin tools that read them."""
    seats = m.seats
    return {
        "phase": m.phase.value,
        "dealer": m.dealer,
        "start_stacks": [p.start_stack for p in seats],
        "dealt_in": [p.in_hand for p in seats],
        "antes": [p.ante for p in seats],
        "order": list(m.order),
        "cap": m.cap,
        "pot": m.pot,
        "hands": [list(p.hand) for p in seats],
        "stock": list(m.stock),
        "discards": [list(p.discarded) for p in seats],
        "exchanged": [p.exchanged for p in seats],
        "stakes": [p.stake for p in seats],
        "folded": [p.folded for p in seats],
        "round": m.round,
        "raised": m.raised,
        "queue": list(m.queue),
        "shown": [None if p.shown is None else list(p.shown) for p in seats],
        "outcome": None if m.outcome is None else m.outcome.to_json(),
    }


def invariant_violations(m: HandModel) -> list[str]:
    """Chip conservation, the stake cap, the card partition and hand sizes."""
    out: list[str] = []
    seats = m.seats
    antes = [p.ante for p in seats]
    stakes = [p.stake for p in seats]
    if m.pot != sum(antes) + sum(stakes):
        out.append(f"pot {m.pot} != antes {antes} + stakes {stakes}")
    if any(x > m.cap for x in stakes):
        out.append(f"a stake in {stakes} exceeds the cap {m.cap}")
    if any(m.chips(s) < 0 for s in range(m.num_seats)):
        out.append("a seat has negative chips behind")
    outcome = m.outcome
    undealt = m.phase is Phase.DEAL or (  # a hand abandoned before its deal has no cards
        outcome is not None and outcome.detail is not None and outcome.detail.get("dealt") is False)
    if not undealt:
        cards = [c for p in seats for c in p.hand] + m.stock + [c for p in seats for c in p.discarded]
        if len(cards) != len(_ALL) or set(cards) != _ALL:
            out.append("hands, stock and discards are not the 40 cards exactly once")
        for s in m.order:
            if len(seats[s].hand) != HAND_SIZE:
                out.append(f"seat {s} holds {len(seats[s].hand)} cards")
    showdown = m.outcome is not None and m.outcome.reason == "showdown"
    if showdown and len({seats[s].stake for s in m.live()}) != 1:
        out.append(f"showdown with unequal stakes {stakes}")
    if m.outcome is not None and sum(m.outcome.returns) != 0:
        out.append(f"returns {m.outcome.returns} do not sum to 0")
    return out
