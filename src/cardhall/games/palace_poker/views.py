"""What each seat sees (section 4; hard case 9), the unredacted snapshot and the invariants.

A seat sees its own palace, every banner and soldier, each seat's chips and status, the pot,
the battle in progress, stock and discard sizes, the rejected banner cards, and the palaces
revealed to it in called battles (or to everyone at a showdown). :func:`hidden_from` is the
exact complement: every card the seat may not see now. Rejected banner cards were turned face
up for everyone, so they are never hidden (where they went in the palace deal is).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from .cards import ALL_CARDS
from .legal import MAX_SOLDIERS, f_cost

if TYPE_CHECKING:
    from .state import PalaceState


def _decision(st: PalaceState) -> str | None:
    if st.result is not None:
        return None
    return {"turn": "turn", "discard": "discard", "battle": "battle_response"}.get(st.phase)


def _battle(st: PalaceState) -> dict[str, Any] | None:
    b = st.battle
    if b is None:
        return None
    return {"attacker": b["attacker"], "defender": b["defender"], "raises": b["raises"],
            "facing": st.actor, "owed": {str(s): v for s, v in b["owed"].items()}}


def view(st: PalaceState, seat: int | None) -> dict[str, Any]:
    """The JSON view of ``seat`` (``None`` = spectator), section 4."""
    seats = []
    for s in range(st.num_seats):
        face_up = st.in_hand[s] and st.banners[s] is not None
        seats.append({"seat": s, "chips": st.chips[s], "in_hand": st.in_hand[s],
                      "dealt_in": s in st.order, "committed": st.contrib[s],
                      "banner": st.banners[s] if face_up else None,
                      "soldiers": list(st.soldiers[s]), "soldier_count": len(st.soldiers[s]),
                      "attack_cost": f_cost(st, s)})
    revealed = set(st.public_palaces)
    if seat is not None:
        revealed |= st.seen[seat]
    out: dict[str, Any] = {
        "game": "palace_poker", "phase": st.phase, "seat": seat, "dealer": st.dealer,
        "order": list(st.order), "pot": st.pot, "seats": seats,
        "stock_size": len(st.stock), "discard_size": len(st.discards),
        "rejected": list(st.rejected), "to_act": st.actor if st.result is None else None,
        "decision": _decision(st), "battle": _battle(st), "last_battle": st.last_battle,
        "palace": list(st.dealt_palaces[seat]) if seat is not None else None,
        "revealed_palaces": {str(s): list(st.dealt_palaces[s]) for s in sorted(revealed)
                             if s != seat},
        "outcome": None if st.result is None else st.result.to_json(),
    }
    return out


def known_to(st: PalaceState, seat: int | None) -> set[str]:
    """Every card ``seat`` may see now."""
    known = set(st.rejected)
    for s in range(st.num_seats):
        known.update(st.soldiers[s])
        if st.in_hand[s] and st.banners[s] is not None:
            known.add(st.banners[s] or "")
    revealed = set(st.public_palaces) | (st.seen[seat] if seat is not None else set())
    if seat is not None:
        revealed.add(seat)
    for s in revealed:
        known.update(st.dealt_palaces[s])
    return known


def hidden_from(st: PalaceState, seat: int | None) -> set[str]:
    """Cards ``seat`` may not see: other palaces not revealed to it, the stock, the face-down
    discard pile (folded palaces and banners, discarded soldiers)."""
    return set(ALL_CARDS) - known_to(st, seat)


def snapshot(st: PalaceState) -> dict[str, Any]:
    """The full unredacted state as JSON."""
    return {
        "phase": st.phase, "dealer": st.dealer, "order": list(st.order), "start": list(st.start),
        "chips": list(st.chips), "contrib": list(st.contrib), "in_hand": list(st.in_hand),
        "banners": list(st.banners), "rejected": list(st.rejected),
        "palaces": [list(p) for p in st.palaces],
        "dealt_palaces": [list(p) for p in st.dealt_palaces],
        "soldiers": [list(s) for s in st.soldiers], "stock": list(st.stock),
        "discards": list(st.discards), "actor": st.actor, "turn": st.turn,
        "battle": _battle(st), "last_battle": st.last_battle, "quiet": list(st.quiet),
        "seen": [sorted(s) for s in st.seen], "public_palaces": sorted(st.public_palaces),
        "outcome": None if st.result is None else st.result.to_json(),
    }


def check_invariants(st: PalaceState) -> list[str]:
    """Chips conserved; every card in exactly one place after the palace deal; at most five
    soldiers outside a pending discard; the actor is in the hand."""
    out = []
    if sum(st.chips) + st.pot != sum(st.start):
        out.append(f"chips not conserved: {st.chips} + pot {st.pot} != {sum(st.start)}")
    if any(c < 0 for c in st.chips):
        out.append(f"negative stack {st.chips}")
    if st.phase not in ("banner_deal", "palace_deal") and st.result is None:
        places = Counter(st.stock + st.discards)
        for s in range(st.num_seats):
            places.update(st.palaces[s] + st.soldiers[s])
            if st.in_hand[s] and st.banners[s]:
                places[st.banners[s] or ""] += 1
        if set(places) != ALL_CARDS or any(n != 1 for n in places.values()):
            wrong = sorted(c for c, n in places.items() if n != 1)
            out.append(f"cards not each in one place: {wrong} (or some missing)")
        for s in range(st.num_seats):
            over = len(st.soldiers[s]) > MAX_SOLDIERS
            if over and not (st.phase == "discard" and st.actor == s):
                out.append(f"seat {s} holds {len(st.soldiers[s])} soldiers outside a discard")
    if st.actor is not None and st.result is None and not st.in_hand[st.actor]:
        out.append(f"actor {st.actor} is not in the hand")
    return out
