"""Card play and trick-1 declarations (rules 5 and 6) over a :class:`~.state.BlotState`.

``check_play`` raises before anything changes; ``do_play`` assumes a checked action.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...engine.errors import IllegalActionError
from ...engine.events import Event, public
from .cards import CODES, POINTS, codes
from .declarations import award, combinations, describe
from .tricks import card_key, legal_cards, weakest

if TYPE_CHECKING:
    from .state import BlotState


def legal_now(st: BlotState) -> list[int]:
    """The cards the turn seat may play now (rules 5.1-5.4 with the config's BB-19/BB-20);
    cached until the next card is played (callers must not mutate the list)."""
    if st.legal_cache is not None:
        return st.legal_cache
    trick = st.trick
    seat = st.turn
    partner = False
    top = -1
    if trick:
        partner = ((st.leader + st.win_i) ^ seat) & 1 == 0
        if st.win_key >= 100:
            top = st.win_key - 100
    cfg = st.config
    st.legal_cache = legal_cards(
        st.hands[seat], trick, st.trump, partner,
        cfg.undertrump_when_cannot_overtrump == "forced",
        cfg.partner_winning == "must_ruff", top,
    )
    return st.legal_cache


def hand_combos(st: BlotState, seat: int) -> list[tuple[int, ...]]:
    """The combinations ``seat`` may declare (its hand in trick 1 is its initial hand);
    cached per deal."""
    cached = st.combos_cache[seat]
    if cached is None:
        cached = st.combos_cache[seat] = combinations(st.hands[seat])
    return cached


def play_entries(st: BlotState, seat: int) -> list[dict[str, Any]]:
    """Legal-action entries of the turn seat: one ``play`` per legal card and, in trick 1, one
    more per (legal card, declarable combination) with the combination as a card choice of
    exactly its cards (``declare_from`` with ``min_declare = max_declare = len``)."""
    if seat != st.turn:
        return []
    legal = legal_now(st)
    if st.trick_no:
        return [{"type": "play", "card": CODES[c]} for c in legal]
    combos = [(codes(cs), len(cs)) for cs in hand_combos(st, seat)]
    out: list[dict[str, Any]] = []
    for c in legal:
        out.append({"type": "play", "card": CODES[c]})
        out += [{"type": "play", "card": CODES[c], "declare_from": cs,
                 "min_declare": n, "max_declare": n} for cs, n in combos]
    return out


def timeout_play(st: BlotState) -> dict[str, Any]:
    """Rule 9: the weakest legal card, no declaration."""
    return {"type": "play", "card": CODES[weakest(legal_now(st), st.trump)]}


def check_play(st: BlotState, seat: int, parsed: tuple[Any, ...]) -> None:
    """Raise unless ``parsed`` is a legal play (and declaration) of the turn seat.

    Raises:
        IllegalActionError: not a play; card not in hand; card not legal (rule 5); a declaration
            outside trick 1 or not one of the hand's combinations (rule 6).
    """
    if parsed[0] != "play":
        raise IllegalActionError(f"{parsed[0]!r} is not allowed during play; play a card")
    card, declare = parsed[1], parsed[2]
    hand = st.hands[seat]
    if card not in hand:
        raise IllegalActionError(f"card {CODES[card]!r} is not in seat {seat}'s hand")
    legal = legal_now(st)
    if card not in legal:
        raise IllegalActionError(f"card {CODES[card]!r} may not be played now; legal: {codes(legal)}")
    if declare is not None:
        if st.trick_no:
            raise IllegalActionError(f"declaration {codes(declare)} only allowed in trick 1")
        if declare not in hand_combos(st, seat):
            raise IllegalActionError(f"declaration {codes(declare)} is not a combination of "
                                f"seat {seat}'s hand")


def do_play(st: BlotState, seat: int, parsed: tuple[Any, ...]) -> list[Event]:
    """Apply a checked play: declaration (public kind and value), card, trick end."""
    card, declare = parsed[1], parsed[2]
    events = []
    if declare is not None:
        st.decls.append((seat, declare))
        d = describe(declare, st.trump, st.config)
        events.append(public("declared", seat=seat, combination=d.kind, length=d.length,
                             value=d.value))
    st.legal_cache = None
    st.hands[seat].remove(card)
    trick = st.trick
    key = card_key(card, trick[0] >> 3 if trick else card >> 3, st.trump)
    if not trick or key > st.win_key:
        st.win_i, st.win_key = len(trick), key
    trick.append(card)
    events.append(Event("played", {"seat": seat, "card": CODES[card]}))
    if len(st.trick) < 4:
        st.turn = (seat + 1) & 3
        return events
    return events + finish_trick(st)


def finish_trick(st: BlotState) -> list[Event]:
    """Close a full trick: winner, points (+ last-trick bonus), declarations shown after
    trick 1, deal scoring after trick 8."""
    trick, trump = st.trick, st.trump
    winner = (st.leader + st.win_i) & 3
    table = POINTS[trump]
    pts = table[trick[0]] + table[trick[1]] + table[trick[2]] + table[trick[3]]
    st.trick_no += 1
    if st.trick_no == 8:
        pts += st.config.last_trick_bonus
    team = winner & 1
    st.tricks_won[team] += 1
    st.points[team] += pts
    st.last_trick = (st.leader, trick, winner)
    events = [public("trick_won", seat=winner, cards=codes(trick), points=pts)]
    st.trick = []
    st.leader = st.turn = winner
    if st.trick_no == 1:
        events.append(reveal(st))
    if st.trick_no == 8:
        events += st.finish_deal()
    return events


def reveal(st: BlotState) -> Event:
    """Rule 6: at trick 2 all declared cards are shown and the best combination decides."""
    st.decl_winner, st.decl_awarded = award(st.decls, st.trump, st.config)
    st.revealed = True
    return public("declarations_shown", declarations=st.declarations_json(True),
                  winner_team=st.decl_winner)
