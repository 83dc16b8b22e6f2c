"""Legality of Palace Poker decisions (rules 7, 8, 9, 13; section 3).

One set of predicates serves both :func:`entries` (what a client may do) and :func:`check`
(what ``apply`` accepts), so the two never disagree. Each ``*_problem`` returns ``None`` when
the move is legal, else a message naming the offending value.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...engine.actions import Action
from ...engine.errors import IllegalActionError
from .cards import suit
from .deal import check_banners, check_palaces

if TYPE_CHECKING:
    from .state import PalaceState

MAX_SOLDIERS = 5


def f_cost(st: PalaceState, seat: int) -> int:
    """``f(P) = (soldiers(P) + 1) × small_bet`` in chips (rule 8)."""
    return (len(st.soldiers[seat]) + 1) * st.config.small_bet


def buy_problem(st: PalaceState, seat: int) -> str | None:
    """Rule 7 Buy / rule 13: needs ``small_bet`` chips and a card in the stock or discards."""
    price = st.config.small_bet
    if st.chips[seat] < price:
        return f"a buy costs {price} chips; seat {seat} has {st.chips[seat]}"
    if not st.stock and not st.discards:
        return "the stock and the discard pile are both empty"
    return None


def attack_problem(st: PalaceState, seat: int, target: int) -> str | None:
    """Rule 7 Bet / rule 13: a target still in the hand with a different banner suit, and the
    chips for ``f(attacker)``."""
    if target == seat:
        return f"seat {seat} may not attack itself"
    if not st.in_hand[target]:
        return f"seat {target} is not in the hand"
    mine, theirs = st.banners[seat] or "", st.banners[target] or ""
    if suit(mine) == suit(theirs):
        return (f"seat {seat} may not attack seat {target}: both banners are suit {suit(mine)!r} "
                f"({mine}, {theirs})")
    cost = f_cost(st, seat)
    if st.chips[seat] < cost:
        return f"an attack costs {cost} chips; seat {seat} has {st.chips[seat]}"
    return None


def discard_problem(st: PalaceState, seat: int, cards: list[str], minimum: int) -> str | None:
    """Cards must be own soldiers; at least ``minimum`` of them (rules 7, 9)."""
    for card in cards:
        if card not in st.soldiers[seat]:
            return f"card {card} is not among seat {seat}'s soldiers {st.soldiers[seat]}"
    if len(cards) < minimum:
        left = len(st.soldiers[seat]) - len(cards)
        if st.phase == "turn":
            return f"a discard turn discards at least 1 soldier, got {cards}"
        return (f"seat {seat} must end with at most {MAX_SOLDIERS} soldiers: discarding "
                f"{len(cards)} of {len(st.soldiers[seat])} leaves {left}")
    return None


def no_limit(st: PalaceState) -> bool:
    """True under the ``no_limit`` structure (rule 2)."""
    return bool(st.config.structure == "no_limit")


def extra_problem(st: PalaceState, seat: int, extra: int) -> str | None:
    """PP-11: the opening extra is 0 in ``limit``; 0 or at least ``big_bet`` in ``no_limit``,
    paid in full together with ``f(attacker)``."""
    if extra == 0:
        return None
    if extra < st.config.big_bet:
        return f"an opening extra must be 0 or at least {st.config.big_bet} chips, got {extra}"
    need = f_cost(st, seat) + extra
    if st.chips[seat] < need:
        return f"an attack with extra {extra} costs {need} chips; seat {seat} has {st.chips[seat]}"
    return None


def raise_problem(st: PalaceState, seat: int, by: int | None = None) -> str | None:
    """Rule 8 / PP-12, PP-13: ``limit`` raises ``big_bet`` up to the cap; ``no_limit`` raises
    ``by >= big_bet`` uncapped; either way what is owed plus the raise is paid in full."""
    b = st.battle
    assert b is not None
    cap = st.config.max_raises_per_battle
    if not no_limit(st) and b["raises"] >= cap:
        return f"this battle already has {b['raises']} raises (max_raises_per_battle={cap})"
    size = st.config.big_bet if by is None else by
    if size < st.config.big_bet:
        return f"a raise must be at least {st.config.big_bet} chips, got {size}"
    need = b["owed"][seat] + size
    if st.chips[seat] < need:
        return f"a raise costs {need} chips; seat {seat} has {st.chips[seat]}"
    return None


def targets(st: PalaceState, seat: int) -> list[int]:
    """Every seat ``seat`` may attack now."""
    return [t for t in range(st.num_seats) if attack_problem(st, seat, t) is None]


def discard_minimum(st: PalaceState, seat: int) -> int:
    """Fewest soldiers ``seat`` must discard now: 1 on a discard turn, else down to 5."""
    if st.phase == "turn":
        return 1
    return max(0, len(st.soldiers[seat]) - MAX_SOLDIERS)


def entries(st: PalaceState, seat: int) -> list[Action]:
    """Every legal decision of ``seat`` now as legal-action entries (section 3)."""
    if st.outcome is not None or st.actor != seat:
        return []
    soldiers = list(st.soldiers[seat])
    match st.phase:
        case "turn":
            out: list[Action] = []
            if buy_problem(st, seat) is None:
                out.append({"type": "buy"})
            if soldiers:
                out.append({"type": "discard", "cards_from": soldiers, "min_cards": 1,
                            "max_cards": len(soldiers)})
            for t in targets(st, seat):
                out += _battle_entries(st, seat, t)
            return [*out, {"type": "stay"}, {"type": "fold"}]
        case "discard":
            return [{"type": "discard", "cards_from": soldiers,
                     "min_cards": discard_minimum(st, seat), "max_cards": len(soldiers)}]
        case "battle":
            out = [{"type": "fold"}, {"type": "call"}]
            if raise_problem(st, seat) is None:
                out.append(_raise_entry(st, seat))
            return out
    return []


def _battle_entries(st: PalaceState, seat: int, target: int) -> list[Action]:
    if not no_limit(st):
        return [{"type": "battle", "target": target}]
    out: list[Action] = [{"type": "battle", "target": target, "extra": 0}]
    most = st.chips[seat] - f_cost(st, seat)
    if most >= st.config.big_bet:
        out.append({"type": "battle", "target": target, "min_extra": st.config.big_bet,
                    "max_extra": most})
    return out


def _raise_entry(st: PalaceState, seat: int) -> Action:
    if not no_limit(st):
        return {"type": "raise"}
    assert st.battle is not None
    most = st.chips[seat] - st.battle["owed"][seat]
    return {"type": "raise", "min_by": st.config.big_bet, "max_by": most}


def check(st: PalaceState, seat: int | None, p: dict[str, Any]) -> None:
    """Raise :class:`IllegalActionError` unless the parsed action is legal now."""
    kind = p["type"]
    if seat is None:
        _check_chance(st, p)
        return
    allowed = {"turn": {"buy", "discard", "battle", "stay", "fold"}, "discard": {"discard"},
               "battle": {"fold", "call", "raise"}}.get(st.phase, set())
    if kind not in allowed:
        raise IllegalActionError(f"{kind!r} is not a legal decision now (phase {st.phase!r}; "
                            f"allowed: {sorted(allowed)})")
    problem: str | None = None
    match kind:
        case "buy":
            problem = buy_problem(st, seat)
        case "battle":
            problem = attack_problem(st, seat, p["target"]) or (
                extra_problem(st, seat, p["extra"]) if no_limit(st) else None)
        case "discard":
            problem = discard_problem(st, seat, p["cards"], discard_minimum(st, seat))
        case "raise":
            problem = raise_problem(st, seat, p["by"])
    if problem is not None:
        raise IllegalActionError(problem)


def _check_chance(st: PalaceState, p: dict[str, Any]) -> None:
    due = {"banner_deal": "deal_banners", "palace_deal": "deal_palaces",
           "reshuffle": "reshuffle"}.get(st.phase)
    if p["type"] != due:
        raise IllegalActionError(f"chance action {p['type']!r} is not due; due: {due!r}")
    match p["type"]:
        case "deal_banners":
            check_banners(st.order, p["banners"], p["rejected"])
        case "deal_palaces":
            check_palaces(st.order, st.banners, p["palaces"], p["stock"])
        case "reshuffle":
            if sorted(p["stock"]) != sorted(st.discards):
                raise IllegalActionError(f"the new stock {p['stock']} must be exactly the discard "
                                    f"pile ({len(st.discards)} cards)")
