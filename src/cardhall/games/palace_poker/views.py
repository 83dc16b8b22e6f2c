"""What each seat sees (section 4; hard case 9), the unredacted snapshot and the invariants.

A seat sees its own palace, every banner and soldier, each seat's chips and status, the pot,
the battle in progress, stock and discard sizes, the rejected banner cards, and the palaces
revealed to it in called battles (or to everyone at a showdown). :func:`hidden_from` is the
exact complement: every card the seat may not see now. Rejected banner cards were turned face
up for everyone, so they are never hidden (where they went in the palace deal is).

View keys name the :class:`~.model.Hand` fields they show (``committed``, ``to_act``,
``battle``, ``last_battle``, ``outcome`` ...); ``attack_cost`` is :func:`.battle.attack_cost`.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from .battle import attack_cost
from .cards import ALL_CARDS
from .model import MAX_SOLDIERS, BattleInProgress, Hand, Phase

_DECISIONS = {Phase.TURN: "turn", Phase.DISCARD: "discard", Phase.BATTLE: "battle_response"}


def _decision(h: Hand) -> str | None:
    """The kind of decision due: ``turn``, ``discard``, ``battle_response`` or ``None``."""
    if h.outcome is not None:
        return None
    return _DECISIONS.get(h.phase)


def _battle(h: Hand, b: BattleInProgress | None) -> dict[str, Any] | None:
    """The view's ``battle``: the battlers, raises so far, who faces the bet, chips owed, and
    ``raise_by``: the chips a ``raise`` adds on top of what is owed (``big_bet`` under the
    ``limit`` structure; ``None`` under ``no_limit``, whose entry carries ``min_by``/``max_by``;
    rule 8, PP-12)."""
    if b is None:
        return None
    return {"attacker": b.attacker, "defender": b.defender, "raises": b.raises,
            "facing": h.to_act, "owed": {str(s): v for s, v in b.owed.items()},
            "raise_by": None if h.config.structure == "no_limit" else h.config.big_bet}


def _seat(h: Hand, s: int) -> dict[str, Any]:
    """One entry of the view's ``seats`` (public facts of seat ``s``)."""
    banner = h.banners[s] if h.in_hand[s] else None
    return {"seat": s, "chips": h.chips[s], "in_hand": h.in_hand[s], "dealt_in": s in h.order,
            "committed": h.committed[s], "banner": banner, "soldiers": list(h.soldiers[s]),
            "soldier_count": len(h.soldiers[s]), "attack_cost": attack_cost(h, s)}


def view(h: Hand, seat: int | None) -> dict[str, Any]:
    """The JSON view of ``seat`` (``None`` = spectator), section 4."""
    revealed = set(h.public_palaces)
    if seat is not None:
        revealed |= h.revealed_palaces[seat]
    return {
        "game": "palace_poker", "phase": h.phase.value, "seat": seat, "dealer": h.dealer,
        "order": list(h.order), "pot": h.pot, "seats": [_seat(h, s) for s in range(h.num_seats)],
        "stock_size": len(h.stock), "discard_size": len(h.discards),
        "rejected": list(h.rejected), "to_act": h.to_act if h.outcome is None else None,
        "decision": _decision(h), "battle": _battle(h, h.battle),
        "last_battle": None if h.last_battle is None else h.last_battle.to_json(),
        "palace": list(h.palaces[seat]) if seat is not None else None,
        "revealed_palaces": {str(s): list(h.palaces[s]) for s in sorted(revealed) if s != seat},
        "outcome": None if h.outcome is None else h.outcome.to_json(),
    }


def private_view(h: Hand, seat: int) -> dict[str, Any]:
    """The keys of ``seat``'s view that differ from the spectator's: ``seat``, ``palace``, and
    ``revealed_palaces`` when the seat saw a palace the spectator did not or its own palace is
    public (the spectator's lists it, the seat's never lists its own)."""
    out: dict[str, Any] = {"seat": seat, "palace": list(h.palaces[seat])}
    public = h.public_palaces
    mine = h.revealed_palaces[seat]
    if seat in public or not mine <= public | {seat}:
        out["revealed_palaces"] = {str(s): list(h.palaces[s])
                                   for s in sorted(public | mine) if s != seat}
    return out


def known_to(h: Hand, seat: int | None) -> set[str]:
    """Every card ``seat`` may see now."""
    known = set(h.rejected)
    for s in range(h.num_seats):
        known.update(h.soldiers[s])
        banner = h.banners[s]
        if h.in_hand[s] and banner is not None:
            known.add(banner)
    revealed = set(h.public_palaces)
    if seat is not None:
        revealed |= h.revealed_palaces[seat]
        revealed.add(seat)
    for s in revealed:
        known.update(h.palaces[s])
    return known


def hidden_from(h: Hand, seat: int | None) -> set[str]:
    """Cards ``seat`` may not see: other palaces not revealed to it, the stock, the face-down
    discard pile (folded palaces and banners, discarded soldiers)."""
    return set(ALL_CARDS) - known_to(h, seat)


def snapshot(h: Hand) -> dict[str, Any]:
    """The full unredacted state as JSON, keyed by the :class:`~.model.Hand` field names."""
    return {
        "phase": h.phase.value, "dealer": h.dealer, "order": list(h.order),
        "starting_chips": list(h.starting_chips), "chips": list(h.chips),
        "committed": list(h.committed), "in_hand": list(h.in_hand),
        "banners": list(h.banners), "rejected": list(h.rejected),
        "palaces": [list(p) for p in h.palaces],
        "soldiers": [list(s) for s in h.soldiers], "stock": list(h.stock),
        "discards": list(h.discards), "to_act": h.to_act, "turn_seat": h.turn_seat,
        "battle": _battle(h, h.battle),
        "last_battle": None if h.last_battle is None else h.last_battle.to_json(),
        "quiet": list(h.quiet), "revealed_palaces": [sorted(s) for s in h.revealed_palaces],
        "public_palaces": sorted(h.public_palaces),
        "outcome": None if h.outcome is None else h.outcome.to_json(),
    }


def check_invariants(h: Hand) -> list[str]:
    """Chips conserved; every card in exactly one place after the palace deal; at most five
    soldiers outside a pending discard; the seat to act is in the hand."""
    out = []
    if sum(h.chips) + h.pot != sum(h.starting_chips):
        out.append(f"chips not conserved: {h.chips} + pot {h.pot} != {sum(h.starting_chips)}")
    if any(c < 0 for c in h.chips):
        out.append(f"negative stack {h.chips}")
    if h.phase not in (Phase.BANNER_DEAL, Phase.PALACE_DEAL) and h.outcome is None:
        out += _card_places(h)
    if h.to_act is not None and h.outcome is None and not h.in_hand[h.to_act]:
        out.append(f"seat to act {h.to_act} is not in the hand")
    return out


def _card_places(h: Hand) -> list[str]:
    """Every card in exactly one place (stock, discards, a palace, soldiers or banner of a seat
    in the hand); at most five soldiers except for the seat discarding."""
    out = []
    places = Counter(h.stock + h.discards)
    for s in range(h.num_seats):
        places.update(h.soldiers[s])
        banner = h.banners[s]
        if h.in_hand[s]:
            places.update(h.palaces[s])
            if banner:
                places[banner] += 1
    if set(places) != ALL_CARDS or any(n != 1 for n in places.values()):
        wrong = sorted(c for c, n in places.items() if n != 1)
        out.append(f"cards not each in one place: {wrong} (or some missing)")
    for s in range(h.num_seats):
        over = len(h.soldiers[s]) > MAX_SOLDIERS
        if over and not (h.phase == Phase.DISCARD and h.to_act == s):
            out.append(f"seat {s} holds {len(h.soldiers[s])} soldiers outside a discard")
    return out
