"""Battle comparison, showdowns and the pot award (rules 8, 11, 12; hard cases 1, 7, 8).

Hand strengths come from :mod:`.evaluation`; this module decides which cards count and who
wins: in a battle each side's own cards minus the opponent's banner suit, ties broken by the
count of the own banner suit over all own cards; in a showdown of three or more, all own cards
without exclusions. The pot goes to the winners in equal shares, odd chips to the winners first
in turn order from the dealer's left (rule 11, PP-30).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...engine.events import Event, public
from ...engine.game import Outcome, OutcomeReason
from .cards import ids, suit
from .evaluation import category, strengths

if TYPE_CHECKING:
    from .state import PalaceState


def eligible(st: PalaceState, seat: int, opponent: int | None) -> list[str]:
    """``seat``'s palace + soldiers + banner, minus the opponent's banner suit when battling
    and ``exclude_opponent_banner_suit`` holds (rule 8, PP-16)."""
    cards = st.own_cards(seat)
    if opponent is None or not st.config.exclude_opponent_banner_suit:
        return cards
    banned = suit(st.banners[opponent] or "")
    return [c for c in cards if suit(c) != banned]


def own_suit_count(st: PalaceState, seat: int) -> int:
    """Cards of ``seat``'s own banner suit over palace + soldiers + banner (PP-19)."""
    mine = suit(st.banners[seat] or "")
    return sum(1 for c in st.own_cards(seat) if suit(c) == mine)


def battle_compare(st: PalaceState, a: int, d: int) -> tuple[int, dict[str, Any]]:
    """Compare two players under battle rules. Returns ``(sign, detail)``: ``1`` if ``a``
    wins, ``-1`` if ``d`` wins, ``0`` if still tied after the own-suit tie-break."""
    ea, ed = eligible(st, a, d), eligible(st, d, a)
    wheel = st.config.wheel_allowed
    sa, sd = strengths([ids(ea), ids(ed)], wheel)
    detail: dict[str, Any] = {
        "hands": {str(a): category(ids(ea), wheel), str(d): category(ids(ed), wheel)},
        "eligible": {str(a): ea, str(d): ed},
    }
    if sa != sd:
        return (1 if sa > sd else -1), detail
    ca, cd = own_suit_count(st, a), own_suit_count(st, d)
    detail["own_suit_counts"] = {str(a): ca, str(d): cd}
    return (ca > cd) - (ca < cd), detail


def showdown(st: PalaceState, alive: list[int]) -> list[Event]:
    """Rule 11c after a quiet orbit: two players by battle rules (PP-25), else a normal
    showdown with no exclusions; ties split."""
    st.public_palaces |= set(alive)
    if len(alive) == 2 and st.config.two_left_showdown == "battle":
        sign, _ = battle_compare(st, alive[0], alive[1])
        winners = alive if sign == 0 else [alive[0] if sign > 0 else alive[1]]
        return award(st, winners, "showdown")
    wheel = st.config.wheel_allowed
    values = strengths([ids(st.own_cards(s)) for s in alive], wheel)
    best = max(values)
    return award(st, [s for s, v in zip(alive, values, strict=True) if v == best], "showdown")


def split_shares(pot: int, winners: list[int], order: list[int]) -> dict[int, int]:
    """Equal shares of ``pot``; the remainder one chip each to the winners first in ``order``
    (turn order from the dealer's left)."""
    ranked = [s for s in order if s in winners]
    base, rest = divmod(pot, len(ranked))
    return {s: base + (1 if i < rest else 0) for i, s in enumerate(ranked)}


def award(st: PalaceState, winners: list[int], reason: str) -> list[Event]:
    """Pay the pot to ``winners`` and end the hand; ``returns`` = net chip change per seat."""
    pot = st.pot
    shares = split_shares(pot, winners, st.order)
    for seat, amount in shares.items():
        st.chips[seat] += amount
    st.contrib = [0] * st.num_seats
    st.phase, st.actor, st.battle = "over", None, None
    returns = tuple(c - s for c, s in zip(st.chips, st.start, strict=True))
    shown = {str(s): st.own_cards(s) for s in sorted(st.public_palaces) if st.in_hand[s]}
    detail: dict[str, Any] = {"winners": sorted(shares), "pot": pot,
                              "shares": {str(s): v for s, v in shares.items()}}
    if reason == "showdown":
        detail["shown"] = shown
    st.result = Outcome(OutcomeReason(reason), returns, detail)
    return [public("hand_end", reason=reason, **detail)]
