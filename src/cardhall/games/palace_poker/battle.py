"""Battles (rules 8, 9, 10; PP-9..PP-16, PP-19, PP-20; hard cases 1, 2, 7, 9).

The money: the attacker pays :func:`attack_cost` ``f(A)`` (+ the no-limit extra ``E``); the
defender owes his call price (``call_cost``) + ``E``; a raise pays what is owed plus ``R`` and
leaves the other side owing ``R``. The comparison: each side's eligible cards (own palace +
soldiers + banner minus the opponent's banner suit, PP-16), best hand (:mod:`.evaluation`),
ties broken by the count of the own banner suit over all own cards (PP-19).

Every function runs only after :mod:`.legal` accepted the action, and returns the transition
:mod:`.state` follows next with the events it produced; none changes the phase.
"""

from __future__ import annotations

from typing import Any

from ...engine.events import Event, private, public
from ...engine.game import OutcomeReason
from .cards import ids, suit
from .evaluation import strengths_and_categories
from .explain import best_five, decided
from .model import (
    BattleInProgress,
    BattleOpened,
    BetRaised,
    Captured,
    Hand,
    HandWon,
    LastBattle,
    TurnEnded,
)
from .turns import knock_out, pay


def attack_cost(h: Hand, seat: int) -> int:
    """``f(P) = (soldiers(P) + 1) × small_bet`` in chips (rule 8, PP-9): what ``seat`` pays to
    attack, and (``call_cost="own_formula"``, PP-10) to call as a defender. The view's
    ``attack_cost``."""
    return (len(h.soldiers[seat]) + 1) * h.config.small_bet


def eligible(h: Hand, seat: int, opponent: int | None) -> list[str]:
    """``seat``'s palace + soldiers + banner, minus the opponent's banner suit when battling
    and ``exclude_opponent_banner_suit`` holds (rule 8, PP-16; ``opponent=None``: no
    exclusion)."""
    cards = h.own_cards(seat)
    if opponent is None or not h.config.exclude_opponent_banner_suit:
        return cards
    banned = suit(h.banners[opponent] or "")
    return [c for c in cards if suit(c) != banned]


def own_suit_count(h: Hand, seat: int) -> int:
    """Cards of ``seat``'s own banner suit over palace + soldiers + banner (PP-19)."""
    mine = suit(h.banners[seat] or "")
    return sum(1 for c in h.own_cards(seat) if suit(c) == mine)


def compare(h: Hand, a: int, d: int) -> tuple[int, dict[str, Any]]:
    """Compare two seats under battle rules (rule 8). Returns ``(sign, detail)``: ``1`` if
    ``a`` wins, ``-1`` if ``d`` wins, ``0`` if still tied after the own-suit tie-break;
    ``detail`` (for the ``battle_reveal`` event) names each side's hand category and eligible
    cards, the own-suit counts when they were needed, and (:mod:`.explain`) each side's
    ``best`` five cards and what ``decided``."""
    ea, ed = eligible(h, a, d), eligible(h, d, a)
    (sa, sd), (ca, cd) = strengths_and_categories([ids(ea), ids(ed)], h.config.wheel_allowed)
    detail: dict[str, Any] = {"hands": {str(a): ca, str(d): cd},
                              "eligible": {str(a): ea, str(d): ed}}
    wheel = h.config.wheel_allowed
    detail["best"] = {str(a): best_five(ea, wheel), str(d): best_five(ed, wheel)}
    if sa != sd:
        detail["decided"] = decided({a: ea, d: ed}, wheel)
        return (1 if sa > sd else -1), detail
    na, nd = own_suit_count(h, a), own_suit_count(h, d)
    detail["own_suit_counts"] = {str(a): na, str(d): nd}
    detail["decided"] = decided({a: ea, d: ed}, wheel, {a: na, d: nd})
    return (na > nd) - (na < nd), detail


def open_battle(h: Hand, seat: int, target: int, extra: int) -> tuple[BattleOpened, list[Event]]:
    """Rule 8: ``seat`` attacks ``target``, paying ``f(A)`` + ``extra`` (PP-11); the defender
    owes ``f(D)`` (or ``f(A)``, PP-10) + ``extra``. A Bet breaks the quiet orbit (rule 11c)."""
    paid = pay(h, seat, attack_cost(h, seat) + extra)
    h.quiet = [False] * h.num_seats
    price = attack_cost(h, target if h.config.call_cost == "own_formula" else seat)
    battle = BattleInProgress(attacker=seat, defender=target, owed={seat: 0, target: price + extra})
    event = public("battle", attacker=seat, defender=target, paid=paid, extra=extra)
    return BattleOpened(battle), [event]


def raise_bet(h: Hand, seat: int, by: int | None) -> tuple[BetRaised, list[Event]]:
    """Rule 8 / PP-12: pay what is owed plus the raise (``big_bet`` under ``limit``, ``by``
    under ``no_limit``); the other side now owes the raise."""
    b = h.battle
    assert b is not None
    size = h.config.big_bet if by is None else by
    paid = pay(h, seat, b.owed[seat] + size)
    other = b.other(seat)
    b.owed[seat], b.owed[other] = 0, size
    b.raises += 1
    return BetRaised(other), [public("raise", seat=seat, paid=paid)]


def fold(h: Hand, seat: int) -> tuple[Captured, list[Event]]:
    """Rule 8 fold in battle: ``seat`` is out, its palace unseen (PP-22); the other side
    captures its soldiers and banner (rule 9)."""
    b = h.battle
    assert b is not None
    winner = b.other(seat)
    captured = knock_out(h, seat, capturer=winner)
    h.last_battle = _record(b, winner, (seat,), called=False, captured=len(captured))
    events = [public("battle_fold", seat=seat),
              public("battle_result", winner=winner, loser=seat, captured=captured)]
    return Captured(winner), events


def call(h: Hand, seat: int) -> tuple[Captured | TurnEnded | HandWon, list[Event]]:
    """Rule 8 call: pay what is owed (all-in if short, rule 13), show the palaces to the two
    battlers (or everyone, PP-14) and compare. The winner captures (rule 9); an exact tie puts
    both out, or splits the pot if they are the last two (PP-20)."""
    b = h.battle
    assert b is not None
    owed = b.owed[seat]
    paid = pay(h, seat, owed)
    b.owed[seat] = 0
    events = [public("call", seat=seat, paid=paid, all_in=paid < owed)]
    a, d = b.attacker, b.defender
    sign, detail = compare(h, a, d)
    events.append(_reveal(h, a, d, detail))
    if sign == 0:
        h.last_battle = _record(b, None, (a, d), called=True, captured=0)
        if sum(h.in_hand) == 2:
            events.append(public("battle_result", tie=True, split=[a, d]))
            return HandWon((a, d), OutcomeReason.BATTLE_SPLIT), events
        for out in (a, d):
            knock_out(h, out, capturer=None)
        events.append(public("battle_result", tie=True, out=[a, d]))
        return TurnEnded(a), events
    winner, loser = (a, d) if sign > 0 else (d, a)
    captured = knock_out(h, loser, capturer=winner)
    h.last_battle = _record(b, winner, (loser,), called=True, captured=len(captured))
    events.append(public("battle_result", winner=winner, loser=loser, captured=captured))
    return Captured(winner), events


def _record(b: BattleInProgress, winner: int | None, losers: tuple[int, ...], called: bool,
            captured: int) -> LastBattle:
    return LastBattle(attacker=b.attacker, defender=b.defender, called=called, winner=winner,
                      losers=losers, captured_count=captured)


def _reveal(h: Hand, a: int, d: int, detail: dict[str, Any]) -> Event:
    """Rule 8 / PP-14: the two battlers see each other's palace (everyone under
    ``battle_reveal="public"``); returns the ``battle_reveal`` event for that audience."""
    h.revealed_palaces[a].add(d)
    h.revealed_palaces[d].add(a)
    data = {"attacker": a, "defender": d,
            "palaces": {str(s): list(h.palaces[s]) for s in (a, d)}, **detail}
    if h.config.exclude_opponent_banner_suit:  # PP-16: which suit did not count for whom
        data["excluded"] = {str(a): suit(h.banners[d] or ""), str(d): suit(h.banners[a] or "")}
    if h.config.battle_reveal == "public":
        h.public_palaces |= {a, d}
        return public("battle_reveal", **data)
    return private({a, d}, "battle_reveal", **data)
