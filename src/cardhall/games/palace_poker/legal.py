"""Legality of Palace Poker decisions and the timer's choice (rules 7, 8, 9, 13, 14; section 3).

One set of predicates serves both :func:`entries` (what a client may do) and :func:`check`
(what ``apply`` accepts), so the two never disagree. Each ``*_problem`` returns ``None`` when
the move is legal, else a message naming the offending value.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...engine.actions import Action
from ...engine.errors import IllegalActionError
from .actions import (
    Battle,
    Buy,
    Call,
    DealBanners,
    DealPalaces,
    Discard,
    Fold,
    PalaceAction,
    Raise,
    Reshuffle,
    Stay,
)
from .battle import attack_cost
from .cards import lowest_first, suit
from .deal import check_banners, check_palaces, check_reshuffle
from .model import MAX_SOLDIERS, Hand, Phase

ALLOWED: dict[Phase, frozenset[str]] = {
    Phase.TURN: frozenset({Buy.type, Discard.type, Battle.type, Stay.type, Fold.type}),
    Phase.DISCARD: frozenset({Discard.type}),
    Phase.BATTLE: frozenset({Fold.type, Call.type, Raise.type}),
}
"""The decision types each decision phase offers (rules 7, 8, 9)."""

CHANCE_DUE: dict[Phase, str] = {
    Phase.BANNER_DEAL: DealBanners.type, Phase.PALACE_DEAL: DealPalaces.type,
    Phase.RESHUFFLE: Reshuffle.type,
}
"""The chance action type each chance phase waits for."""


def no_limit(h: Hand) -> bool:
    """True under the ``no_limit`` structure (rule 2)."""
    return h.config.structure == "no_limit"


def buy_problem(h: Hand, seat: int) -> str | None:
    """Rule 7 Buy / rule 13: needs ``small_bet`` chips and a card in the stock or discards."""
    price = h.config.small_bet
    if h.chips[seat] < price:
        return f"a buy costs {price} chips; seat {seat} has {h.chips[seat]}"
    if not h.stock and not h.discards:
        return "the stock and the discard pile are both empty"
    return None


def attack_problem(h: Hand, seat: int, target: int) -> str | None:
    """Rule 7 Bet / rule 13: a target still in the hand with a different banner suit
    (:func:`target_problem`), and the chips for ``f(attacker)`` (:func:`chips_problem`)."""
    return target_problem(h, seat, target) or chips_problem(h, seat)


def target_problem(h: Hand, seat: int, target: int) -> str | None:
    """Rule 7 Bet: ``target`` is another seat still in the hand whose banner suit differs from
    ``seat``'s (PP-4: a suit can repeat across banner groups)."""
    if target == seat:
        return f"seat {seat} may not attack itself"
    if not h.in_hand[target]:
        return f"seat {target} is not in the hand"
    mine, theirs = h.banners[seat] or "", h.banners[target] or ""
    if suit(mine) == suit(theirs):
        return (f"seat {seat} may not attack seat {target}: both banners are suit {suit(mine)!r} "
                f"({mine}, {theirs})")
    return None


def chips_problem(h: Hand, seat: int) -> str | None:
    """Rule 13: an attack is paid in full: ``seat`` needs ``f(seat)`` chips
    (:func:`.battle.attack_cost`)."""
    cost = attack_cost(h, seat)
    if h.chips[seat] < cost:
        return f"an attack costs {cost} chips; seat {seat} has {h.chips[seat]}"
    return None


def discard_problem(h: Hand, seat: int, cards: Sequence[str], minimum: int) -> str | None:
    """Cards must be own soldiers; at least ``minimum`` of them (rules 7, 9)."""
    for card in cards:
        if card not in h.soldiers[seat]:
            return f"card {card} is not among seat {seat}'s soldiers {h.soldiers[seat]}"
    if len(cards) < minimum:
        left = len(h.soldiers[seat]) - len(cards)
        if h.phase == Phase.TURN:
            return f"a discard turn discards at least 1 soldier, got {list(cards)}"
        return (f"seat {seat} must end with at most {MAX_SOLDIERS} soldiers: discarding "
                f"{len(cards)} of {len(h.soldiers[seat])} leaves {left}")
    return None


def extra_problem(h: Hand, seat: int, extra: int) -> str | None:
    """PP-11: the opening extra is 0 in ``limit``; 0 or at least ``big_bet`` in ``no_limit``,
    paid in full together with ``f(attacker)``."""
    if extra == 0:
        return None
    if extra < h.config.big_bet:
        return f"an opening extra must be 0 or at least {h.config.big_bet} chips, got {extra}"
    need = attack_cost(h, seat) + extra
    if h.chips[seat] < need:
        return f"an attack with extra {extra} costs {need} chips; seat {seat} has {h.chips[seat]}"
    return None


def raise_problem(h: Hand, seat: int, by: int | None = None) -> str | None:
    """Rule 8 / PP-12, PP-13: ``limit`` raises ``big_bet`` up to the cap; ``no_limit`` raises
    ``by >= big_bet`` uncapped; either way what is owed plus the raise is paid in full."""
    b = h.battle
    assert b is not None
    cap = h.config.max_raises_per_battle
    if not no_limit(h) and b.raises >= cap:
        return f"this battle already has {b.raises} raises (max_raises_per_battle={cap})"
    size = h.config.big_bet if by is None else by
    if size < h.config.big_bet:
        return f"a raise must be at least {h.config.big_bet} chips, got {size}"
    need = b.owed[seat] + size
    if h.chips[seat] < need:
        return f"a raise costs {need} chips; seat {seat} has {h.chips[seat]}"
    return None


def targets(h: Hand, seat: int) -> list[int]:
    """Every seat ``seat`` may attack now (those without an :func:`attack_problem`)."""
    if chips_problem(h, seat) is not None:
        return []
    return [t for t in range(h.num_seats) if target_problem(h, seat, t) is None]


def discard_minimum(h: Hand, seat: int) -> int:
    """Fewest soldiers ``seat`` must discard now: 1 on a discard turn, else down to five."""
    if h.phase == Phase.TURN:
        return 1
    return max(0, len(h.soldiers[seat]) - MAX_SOLDIERS)


def entries(h: Hand, seat: int) -> list[Action]:
    """Every legal decision of ``seat`` now as legal-action entries (section 3); ``[]`` when
    it is not ``seat``'s decision."""
    if h.outcome is not None or h.to_act != seat:
        return []
    match h.phase:
        case Phase.TURN:
            return _turn_entries(h, seat)
        case Phase.DISCARD:
            soldiers = list(h.soldiers[seat])
            return [{"type": "discard", "cards_from": soldiers,
                     "min_cards": discard_minimum(h, seat), "max_cards": len(soldiers)}]
        case Phase.BATTLE:
            out: list[Action] = [{"type": "fold"}, {"type": "call"}]
            if raise_problem(h, seat) is None:
                out.append(_raise_entry(h, seat))
            return out
    return []


def _turn_entries(h: Hand, seat: int) -> list[Action]:
    """Rule 7: buy, discard, one battle entry per target, stay, fold."""
    out: list[Action] = []
    if buy_problem(h, seat) is None:
        out.append({"type": "buy"})
    soldiers = list(h.soldiers[seat])
    if soldiers:
        out.append({"type": "discard", "cards_from": soldiers, "min_cards": 1,
                    "max_cards": len(soldiers)})
    for t in targets(h, seat):
        out += _battle_entries(h, seat, t)
    return [*out, {"type": "stay"}, {"type": "fold"}]


def _battle_entries(h: Hand, seat: int, target: int) -> list[Action]:
    if not no_limit(h):
        return [{"type": "battle", "target": target}]
    out: list[Action] = [{"type": "battle", "target": target, "extra": 0}]
    most = h.chips[seat] - attack_cost(h, seat)
    if most >= h.config.big_bet:
        out.append({"type": "battle", "target": target, "min_extra": h.config.big_bet,
                    "max_extra": most})
    return out


def _raise_entry(h: Hand, seat: int) -> Action:
    if not no_limit(h):
        return {"type": "raise"}
    assert h.battle is not None
    most = h.chips[seat] - h.battle.owed[seat]
    return {"type": "raise", "min_by": h.config.big_bet, "max_by": most}


def check(h: Hand, seat: int | None, action: PalaceAction) -> None:
    """Raise :class:`IllegalActionError` unless the parsed ``action`` is legal now for ``seat``
    (``None``: the chance action due). The engine has already checked that ``seat`` is to act
    (or that a chance action is due)."""
    if seat is None:
        _check_chance(h, action)
        return
    allowed = ALLOWED.get(h.phase, frozenset())
    if action.type not in allowed:
        raise IllegalActionError(f"{action.type!r} is not a legal decision now (phase "
                                 f"{h.phase.value!r}; allowed: {sorted(allowed)})")
    problem: str | None = None
    match action:
        case Buy():
            problem = buy_problem(h, seat)
        case Battle():
            problem = attack_problem(h, seat, action.target) or (
                extra_problem(h, seat, action.extra) if no_limit(h) else None)
        case Discard():
            problem = discard_problem(h, seat, action.cards, discard_minimum(h, seat))
        case Raise():
            problem = raise_problem(h, seat, action.by)
    if problem is not None:
        raise IllegalActionError(problem)


def _check_chance(h: Hand, action: PalaceAction) -> None:
    due = CHANCE_DUE.get(h.phase)
    if due != action.type:
        raise IllegalActionError(f"chance action {action.type!r} is not due; due: {due!r}")
    match action:
        case DealBanners():
            check_banners(h.order, action.banners, action.rejected)
        case DealPalaces():
            check_palaces(h.order, h.banners, action.palaces, action.stock)
        case Reshuffle():
            check_reshuffle(h, action.stock)


def timeout_action(h: Hand, seat: int) -> Action | None:
    """Rule 14: own turn -> stay; facing a bet or raise -> fold; pending discard -> the
    lowest-ranked soldiers (ties c<d<h<s) down to five (none if already at most five).
    ``None`` if it is not ``seat``'s decision."""
    if h.outcome is not None or h.to_act != seat:
        return None
    match h.phase:
        case Phase.TURN:
            return {"type": "stay"}
        case Phase.BATTLE:
            return {"type": "fold"}
        case Phase.DISCARD:
            excess = max(0, len(h.soldiers[seat]) - MAX_SOLDIERS)
            return {"type": "discard", "cards": lowest_first(h.soldiers[seat])[:excess]}
    return None
