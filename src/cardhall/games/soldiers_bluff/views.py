"""What each seat sees (spec section 5), the hidden-card sets, the snapshot and invariants.

A seat's view::

    {"game": "soldiers_bluff", "phase": "deal"|"exchange"|"betting"|"over",
     "viewer": seat or null, "dealer": seat, "hand": [own card ids] ([] for a spectator),
     "seats": [{"seat", "in_hand", "chips", "ante", "stake", "folded",
                "exchanged" (count or null), "shown" (cards or null)} per seat],
     "pot", "round" (0 before betting), "highest" (H), "cap", "to_act" (seat or null),
     "stock_size", "min_bet", "min_raise", "outcome" (null or the outcome JSON)}

``shown`` is set only at a showdown and only for non-folded players; folded hands and an
uncontested winner's hand are never revealed (rule 8, SB-23). A spectator sees the public part.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import CARD_IDS
from .config import HAND_SIZE

if TYPE_CHECKING:
    from .state import SoldiersBluffState

_ALL = frozenset(CARD_IDS)


def _seat_view(st: SoldiersBluffState, s: int) -> dict[str, Any]:
    shown = st.shown[s]
    return {
        "seat": s,
        "in_hand": st.dealt_in[s],
        "chips": st.chips(s),
        "ante": st.antes[s],
        "stake": st.stakes[s],
        "folded": st.folded[s],
        "exchanged": st.exchanged[s],
        "shown": None if shown is None else list(shown),
    }


def view(st: SoldiersBluffState, seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` (``None`` = spectator); see the module docstring for the shape."""
    to_act = st.to_act()
    return {
        "game": "soldiers_bluff",
        "phase": st.phase,
        "viewer": seat,
        "dealer": st.dealer,
        "hand": [] if seat is None else list(st.hands[seat]),
        "seats": [_seat_view(st, s) for s in range(st.num_seats)],
        "pot": st.pot,
        "round": st.round,
        "highest": st.highest(),
        "cap": st.cap,
        "to_act": to_act[0] if to_act else None,
        "stock_size": len(st.stock),
        "min_bet": st.config.min_bet,
        "min_raise": st.config.min_raise,
        "outcome": None if st.outcome is None else st.outcome.to_json(),
    }


def hidden_from(st: SoldiersBluffState, seat: int | None) -> set[str]:
    """Card ids ``seat`` may not see: all 40 except its own hand and own discards and the hands
    shown at a showdown."""
    known: set[str] = set()
    if seat is not None:
        known |= set(st.hands[seat]) | set(st.discards[seat])
    for cards in st.shown:
        known |= set(cards or ())
    return set(_ALL - known)


def snapshot(st: SoldiersBluffState) -> dict[str, Any]:
    """The full unredacted state as JSON (admin inspection, equality checks in tests)."""
    return {
        "phase": st.phase,
        "dealer": st.dealer,
        "start_stacks": list(st.start_stacks),
        "dealt_in": list(st.dealt_in),
        "antes": list(st.antes),
        "order": list(st.order),
        "cap": st.cap,
        "pot": st.pot,
        "hands": [list(h) for h in st.hands],
        "stock": list(st.stock),
        "discards": [list(d) for d in st.discards],
        "exchanged": list(st.exchanged),
        "stakes": list(st.stakes),
        "folded": list(st.folded),
        "round": st.round,
        "raised": st.raised,
        "queue": list(st.queue),
        "shown": [None if s is None else list(s) for s in st.shown],
        "outcome": None if st.outcome is None else st.outcome.to_json(),
    }


def invariant_violations(st: SoldiersBluffState) -> list[str]:
    """Chip conservation, the stake cap, the card partition and hand sizes."""
    out: list[str] = []
    if st.pot != sum(st.antes) + sum(st.stakes):
        out.append(f"pot {st.pot} != antes {st.antes} + stakes {st.stakes}")
    if any(x > st.cap for x in st.stakes):
        out.append(f"a stake in {st.stakes} exceeds the cap {st.cap}")
    if any(st.chips(s) < 0 for s in range(st.num_seats)):
        out.append("a seat has negative chips behind")
    if st.phase != "deal":
        cards = [c for h in st.hands for c in h] + st.stock + [c for d in st.discards for c in d]
        if len(cards) != len(_ALL) or set(cards) != _ALL:
            out.append("hands, stock and discards are not the 40 cards exactly once")
        for s in st.order:
            if len(st.hands[s]) != HAND_SIZE:
                out.append(f"seat {s} holds {len(st.hands[s])} cards")
    showdown = st.outcome is not None and st.outcome.reason == "showdown"
    if showdown and len({st.stakes[s] for s in st.live()}) != 1:
        out.append(f"showdown with unequal stakes {st.stakes}")
    if st.outcome is not None and sum(st.outcome.returns) != 0:
        out.append(f"returns {st.outcome.returns} do not sum to 0")
    return out
