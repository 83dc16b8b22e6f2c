"""Transitions of a Palace Poker hand: deals, turns, battles, captures, hand end (rules 4-11).

Every function here runs only after :mod:`.legal` accepted the action, and returns the events
it produced. The hand-end rules of rule 11 are checked after every action by :func:`settle`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...engine.events import Event, private, public
from .legal import f_cost
from .showdown import award, battle_compare, showdown

if TYPE_CHECKING:
    from .state import PalaceState


def do_action(st: PalaceState, seat: int | None, p: dict[str, Any]) -> list[Event]:
    """Apply a validated action (phase dispatch)."""
    match p["type"]:
        case "deal_banners":
            return _deal_banners(st, p)
        case "deal_palaces":
            return _deal_palaces(st, p)
        case "reshuffle":
            return _reshuffle(st, p["stock"])
    assert seat is not None
    match (st.phase, p["type"]):
        case ("turn", "buy"):
            return _buy(st, seat)
        case ("turn", "discard"):
            return _discard(st, seat, p["cards"], quiet=True)
        case ("discard", "discard"):
            return _discard(st, seat, p["cards"], quiet=False)
        case ("turn", "battle"):
            return _open_battle(st, seat, p["target"], p["extra"])
        case ("turn", "stay"):
            st.quiet[seat] = True
            return [public("stay", seat=seat), *_end_turn(st, seat)]
        case ("turn", "fold"):
            return _fold(st, seat)
        case ("battle", "fold"):
            return _battle_fold(st, seat)
        case ("battle", "call"):
            return _call(st, seat)
        case ("battle", "raise"):
            return _raise(st, seat, p["by"])
    raise AssertionError(f"unhandled {p['type']!r} in phase {st.phase!r}")  # pragma: no cover


def _deal_banners(st: PalaceState, p: dict[str, Any]) -> list[Event]:
    st.banners = list(p["banners"])
    st.rejected = list(p["rejected"])
    st.phase = "palace_deal"
    return [public("banners", banners=list(st.banners), rejected=list(st.rejected))]


def _deal_palaces(st: PalaceState, p: dict[str, Any]) -> list[Event]:
    events: list[Event] = []
    for seat in st.order:
        st.palaces[seat] = list(p["palaces"][seat])
        st.dealt_palaces[seat] = list(p["palaces"][seat])
        events.append(private(seat, "palace", seat=seat, cards=list(st.palaces[seat])))
    st.stock = list(p["stock"])
    events.append(public("palaces_dealt", stock_size=len(st.stock)))
    st.phase = "turn"
    st.actor = st.order[0]
    return events + settle(st)


def _reshuffle(st: PalaceState, stock: list[str]) -> list[Event]:
    st.stock, st.discards = list(stock), []
    events = [public("reshuffle", stock_size=len(st.stock))]
    assert st.actor is not None
    return events + _draw(st, st.actor)


def _buy(st: PalaceState, seat: int) -> list[Event]:
    _pay(st, seat, st.config.small_bet)
    st.quiet = [False] * st.num_seats
    event = public("buy", seat=seat, paid=st.config.small_bet)
    if not st.stock:
        st.phase = "reshuffle"
        return [event]
    return [event, *_draw(st, seat)]


def _draw(st: PalaceState, seat: int) -> list[Event]:
    card = st.stock.pop(0)
    st.soldiers[seat].append(card)
    st.phase = "discard"
    return [public("soldier", seat=seat, card=card)]


def _discard(st: PalaceState, seat: int, cards: list[str], quiet: bool) -> list[Event]:
    for card in cards:
        st.soldiers[seat].remove(card)
        st.discards.append(card)
    if quiet:
        st.quiet[seat] = True
    events = [public("discard", seat=seat, count=len(cards))]
    # after a capture the turn passes on from the attacker's seat (rule 10, PP-23)
    return events + _end_turn(st, st.turn if st.turn is not None else seat)


def _fold(st: PalaceState, seat: int) -> list[Event]:
    st.quiet[seat] = True
    _knock_out(st, seat, capturer=None)
    return [public("fold", seat=seat), *_end_turn(st, seat)]


def _end_turn(st: PalaceState, seat: int) -> list[Event]:
    """Close ``seat``'s turn; the next player still in the hand clockwise acts (rules 7, 10)."""
    st.battle = None
    st.phase = "turn"
    st.turn = None
    events = settle(st)
    if st.outcome is None:
        st.actor = st.next_in_hand(seat)
    return events


def _pay(st: PalaceState, seat: int, amount: int) -> int:
    amount = min(amount, st.chips[seat])
    st.chips[seat] -= amount
    st.contrib[seat] += amount
    return amount


def _knock_out(st: PalaceState, seat: int, capturer: int | None) -> list[str]:
    """Remove ``seat`` from the hand: palace to the discard pile; soldiers and banner to
    ``capturer`` (rule 9) or to the discard pile. Returns the captured cards."""
    st.in_hand[seat] = False
    st.discards.extend(st.palaces[seat])
    st.palaces[seat] = []
    taken = [*st.soldiers[seat], st.banners[seat] or ""]
    st.soldiers[seat] = []
    if capturer is None:
        st.discards.extend(taken)
        return []
    st.soldiers[capturer].extend(taken)
    return taken


def _open_battle(st: PalaceState, seat: int, target: int, extra: int) -> list[Event]:
    """Rule 8: the attacker pays ``f(A)`` (+ the no-limit extra ``E``); the defender owes his
    call price + ``E``."""
    paid = _pay(st, seat, f_cost(st, seat) + extra)
    st.quiet = [False] * st.num_seats
    price = f_cost(st, target if st.config.call_cost == "own_formula" else seat)
    st.battle = {"attacker": seat, "defender": target, "raises": 0,
                 "owed": {seat: 0, target: price + extra}}
    st.turn, st.phase, st.actor = seat, "battle", target
    return [public("battle", attacker=seat, defender=target, paid=paid, extra=extra)]


def _other(st: PalaceState, seat: int) -> int:
    b = st.battle
    assert b is not None
    return int(b["defender"] if seat == b["attacker"] else b["attacker"])


def _raise(st: PalaceState, seat: int, by: int | None) -> list[Event]:
    """Pay what is owed plus the raise (``big_bet`` in limit, ``by`` in no-limit)."""
    b = st.battle
    assert b is not None
    size = st.config.big_bet if by is None else by
    paid = _pay(st, seat, b["owed"][seat] + size)
    other = _other(st, seat)
    b["owed"][seat], b["owed"][other] = 0, size
    b["raises"] += 1
    st.actor = other
    return [public("raise", seat=seat, paid=paid)]


def _battle_fold(st: PalaceState, seat: int) -> list[Event]:
    winner = _other(st, seat)
    captured = _knock_out(st, seat, capturer=winner)
    _record(st, winner=winner, losers=[seat], called=False, captured=len(captured))
    events = [public("battle_fold", seat=seat),
              public("battle_result", winner=winner, loser=seat, captured=captured)]
    return events + _after_capture(st, winner)


def _call(st: PalaceState, seat: int) -> list[Event]:
    b = st.battle
    assert b is not None
    owed = b["owed"][seat]
    paid = _pay(st, seat, owed)
    b["owed"][seat] = 0
    events = [public("call", seat=seat, paid=paid, all_in=paid < owed)]
    a, d = b["attacker"], b["defender"]
    cmp, detail = battle_compare(st, a, d)
    _reveal(st, a, d)
    events.append(_reveal_event(st, a, d, detail))
    if cmp == 0:
        return events + _both_out(st, a, d)
    winner, loser = (a, d) if cmp > 0 else (d, a)
    captured = _knock_out(st, loser, capturer=winner)
    _record(st, winner=winner, losers=[loser], called=True, captured=len(captured))
    events.append(public("battle_result", winner=winner, loser=loser, captured=captured))
    return events + _after_capture(st, winner)


def _record(st: PalaceState, winner: int | None, losers: list[int], called: bool,
            captured: int) -> None:
    """The public record of the last battle (section 4: the table sees the result)."""
    b = st.battle
    assert b is not None
    st.last_battle = {"attacker": b["attacker"], "defender": b["defender"], "called": called,
                      "winner": winner, "losers": losers, "captured_count": captured}


def _reveal(st: PalaceState, a: int, d: int) -> None:
    st.seen[a].add(d)
    st.seen[d].add(a)
    if st.config.battle_reveal == "public":
        st.public_palaces |= {a, d}


def _reveal_event(st: PalaceState, a: int, d: int, detail: dict[str, Any]) -> Event:
    data = {"attacker": a, "defender": d,
            "palaces": {str(s): list(st.dealt_palaces[s]) for s in (a, d)}, **detail}
    if st.config.battle_reveal == "public":
        return public("battle_reveal", **data)
    return private({a, d}, "battle_reveal", **data)


def _both_out(st: PalaceState, a: int, d: int) -> list[Event]:
    """Rule 8 tie: both out, unless they are the last two (then they split the pot)."""
    _record(st, winner=None, losers=[a, d], called=True, captured=0)
    if sum(st.in_hand) == 2:
        return [public("battle_result", tie=True, split=[a, d]),
                *award(st, [a, d], "battle_split")]
    for seat in (a, d):
        _knock_out(st, seat, capturer=None)
    events = [public("battle_result", tie=True, out=[a, d])]
    return events + _end_turn(st, a)


def _after_capture(st: PalaceState, winner: int) -> list[Event]:
    """Rule 9: the capturer discards down to five (or more) before the turn passes on."""
    st.battle = None
    events = settle(st)
    if st.outcome is None:
        st.phase, st.actor = "discard", winner
    return events


def settle(st: PalaceState) -> list[Event]:
    """Rule 11: end the hand if one player is left, if two or three left share one banner suit,
    or after a quiet orbit (showdown)."""
    if st.outcome is not None:
        return []
    alive = st.alive()
    if len(alive) == 1:
        return award(st, alive, "last_player")
    suits = {(st.banners[s] or "")[1] for s in alive}
    if len(alive) <= 3 and len(suits) == 1:
        return award(st, alive, "same_banner_split")
    if st.phase == "turn" and all(st.quiet[s] for s in alive):
        return showdown(st, alive)
    return []
