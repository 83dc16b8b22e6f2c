"""Card play (rules 5, 9): legal cards, the trick winner, the weakest card, and playing a card
over a :class:`.model.DealState`.

The pure helpers take cards as ints (see :mod:`.cards`); a trick is the list of cards played so
far in play order. :func:`check_play` raises before anything changes; :func:`do_play` assumes a
checked play and returns ``(events, transition)``: :class:`TrickTaken` when the card completes
a trick, else ``None``. Declarations made with the first card are :mod:`.declarations`' part.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...engine.errors import IllegalActionError
from ...engine.events import Event
from . import declarations
from .cards import CODES, PLAIN_STRENGTH, POINTS, TRUMP_STRENGTH, codes, weakest_key
from .config import BlotConfig
from .model import Contract, DealState, Trick


@dataclass(frozen=True, slots=True)
class TrickTaken:
    """Transition: trick ``number`` (1..8) is over (its winner, points and cards are in
    :attr:`.model.DealState.last_trick` and the ``trick_won`` event)."""

    number: int


TRICKS_TAKEN = tuple(TrickTaken(number) for number in range(9))
"""The transition of each trick number (immutable, so shared)."""


# ----- pure helpers -----------------------------------------------------------------------------


def winner_index(trick: list[int], trump: int) -> int:
    """Index in ``trick`` (non-empty) of the card currently winning it (rule 5): the highest
    trump if any trump was played, else the highest card of the led suit.

    >>> from .cards import CARD_OF as C
    >>> winner_index([C["Ks"], C["As"], C["7h"]], trump=2)
    2
    """
    lead = trick[0] >> 3
    best = 0
    best_key = -1
    for i, c in enumerate(trick):
        s = c >> 3
        if s == trump:
            key = 100 + TRUMP_STRENGTH[c & 7]
        elif s == lead:
            key = PLAIN_STRENGTH[c & 7]
        else:
            continue
        if key > best_key:
            best, best_key = i, key
    return best


def card_key(card: int, lead: int, trump: int) -> int:
    """Strength of ``card`` in a trick led in suit ``lead``: 100 + trump strength for a trump,
    plain strength for the led suit, -1 for a discard (never wins)."""
    s = card >> 3
    if s == trump:
        return 100 + TRUMP_STRENGTH[card & 7]
    return PLAIN_STRENGTH[card & 7] if s == lead else -1


def top_trump(trick: list[int], trump: int) -> int:
    """Trump strength (0..7) of the highest trump in ``trick``, or -1 if none."""
    top = -1
    for c in trick:
        if c >> 3 == trump:
            strength = TRUMP_STRENGTH[c & 7]
            if strength > top:
                top = strength
    return top


def legal_cards(
    hand: list[int],
    trick: list[int],
    trump: int,
    partner_winning: bool,
    forced_undertrump: bool = False,
    partner_must_ruff: bool = False,
    top: int | None = None,
) -> list[int]:
    """The cards of ``hand`` the player to move may play (rules 5.1-5.4, BB-17..BB-20).

    Args:
        hand: the player's cards (non-empty); the result keeps its order.
        trick: cards already played to this trick, in order (empty = the player leads).
        trump: trump suit number.
        partner_winning: the player's partner currently wins the trick.
        forced_undertrump: BB-19 ``"forced"`` (must under-trump an opponent's ruff it cannot
            beat) instead of ``"free"``.
        partner_must_ruff: BB-20 ``"must_ruff"``: treat a winning partner like an opponent.
        top: :func:`top_trump` of ``trick`` if the caller already knows it.
    Returns:
        A non-empty list of cards.
    """
    if not trick:
        return list(hand)
    lead = trick[0] >> 3
    follow = [c for c in hand if c >> 3 == lead]
    if top is None:
        top = top_trump(trick, trump)
    if follow:  # 5.1
        if lead == trump:
            over = [c for c in follow if TRUMP_STRENGTH[c & 7] > top]
            return over or follow
        return follow
    trumps = [c for c in hand if c >> 3 == trump]
    if not trumps:  # 5.2
        return list(hand)
    over = [c for c in trumps if TRUMP_STRENGTH[c & 7] > top]
    if partner_winning and not partner_must_ruff:  # 5.4
        if over and len(over) < len(trumps):
            return [c for c in hand if c >> 3 != trump or TRUMP_STRENGTH[c & 7] > top]
        return list(hand)
    if over:  # 5.3 (no trump in the trick: every trump beats top = -1)
        return over
    return trumps if forced_undertrump else list(hand)


def weakest(cards: list[int], trump: int) -> int:
    """Rule 9's weakest card of ``cards`` (non-empty): non-trump before trump, then ascending
    strength, then suit c < d < h < s."""
    return min(cards, key=lambda c: weakest_key(c, trump))


# ----- playing a deal ---------------------------------------------------------------------------


def start(deal: DealState, contract: Contract, leader: int) -> None:
    """Play begins under ``contract``: ``leader`` (left of the dealer) leads trick 1."""
    deal.contract = contract
    deal.trick = Trick(leader)
    deal.turn = leader


def legal_now(deal: DealState, cfg: BlotConfig) -> list[int]:
    """The cards the turn seat may play now (rules 5.1-5.4 with the config's BB-19/BB-20);
    cached until the next card is played (callers must not mutate the list)."""
    cached = deal.legal_cards_cache
    if cached is not None:
        return cached
    trick = deal.trick
    seat = deal.turn
    partner = False
    top = -1
    if trick.cards:
        partner = ((trick.leader + trick.winning_index) ^ seat) & 1 == 0
        if trick.winning_strength >= 100:
            top = trick.winning_strength - 100
    contract = deal.contract
    assert contract is not None  # cards are played only under a contract
    cached = deal.legal_cards_cache = legal_cards(
        deal.hands[seat], trick.cards, contract.trump, partner,
        cfg.undertrump_when_cannot_overtrump == "forced",
        cfg.partner_winning == "must_ruff", top,
    )
    return cached


def play_entries(deal: DealState, cfg: BlotConfig, seat: int) -> list[dict[str, Any]]:
    """Legal-action entries of the turn seat: one ``play`` per legal card and, in trick 1, one
    more per (legal card, declarable combination) with the combination as a card choice of
    exactly its cards (``declare_from`` with ``min_declare = max_declare = len``)."""
    if seat != deal.turn:
        return []
    legal = legal_now(deal, cfg)
    if deal.tricks_played:
        return [{"type": "play", "card": CODES[c]} for c in legal]
    offered = [(codes(cs), len(cs)) for cs in declarations.declarable(deal, seat)]
    out: list[dict[str, Any]] = []
    for c in legal:
        out.append({"type": "play", "card": CODES[c]})
        out += [{"type": "play", "card": CODES[c], "declare_from": cs,
                 "min_declare": n, "max_declare": n} for cs, n in offered]
    return out


def timeout_play(deal: DealState, cfg: BlotConfig) -> dict[str, Any]:
    """Rule 9: the weakest legal card, no declaration."""
    contract = deal.contract
    assert contract is not None  # cards are played only under a contract
    return {"type": "play", "card": CODES[weakest(legal_now(deal, cfg), contract.trump)]}


def check_play(deal: DealState, cfg: BlotConfig, seat: int, card: int,
               declare: tuple[int, ...] | None) -> None:
    """Raise unless playing ``card`` (and declaring ``declare``) is legal for the turn seat.

    Raises:
        IllegalActionError: card not in hand; card not legal (rule 5); a declaration outside
            trick 1 or not one of the hand's combinations (rule 6).
    """
    if card not in deal.hands[seat]:
        raise IllegalActionError(f"card {CODES[card]!r} is not in seat {seat}'s hand")
    legal = legal_now(deal, cfg)
    if card not in legal:
        raise IllegalActionError(f"card {CODES[card]!r} may not be played now; legal: {codes(legal)}")
    if declare is not None:
        declarations.check_declaration(deal, seat, declare)


def do_play(deal: DealState, cfg: BlotConfig, seat: int, card: int,
            declare: tuple[int, ...] | None) -> tuple[list[Event], TrickTaken | None]:
    """Apply a checked play: the declaration (public kind and value), the card, and the trick's
    end. Returns the events and :class:`TrickTaken` when the card completed the trick."""
    events = []
    if declare is not None:
        events.append(declarations.declare(deal, cfg, seat, declare))
    step = play_card(deal, cfg, seat, card)
    events.append(Event("played", {"seat": seat, "card": CODES[card]}))
    if step is not None:
        events.append(trick_won(deal, cfg))
    return events, step


def play_card(deal: DealState, cfg: BlotConfig, seat: int, card: int) -> TrickTaken | None:
    """Apply a checked play of ``card`` without a declaration and without events (what
    :func:`do_play` does besides its events; the unchecked self-play loop calls it alone).
    Returns :class:`TrickTaken` when the card completed the trick."""
    deal.legal_cards_cache = None
    deal.hands[seat].remove(card)
    trick = deal.trick
    cards = trick.cards
    contract = deal.contract
    assert contract is not None  # cards are played only under a contract
    trump = contract.trump
    s = card >> 3  # card_key, inlined
    if s == trump:
        key = 100 + TRUMP_STRENGTH[card & 7]
    elif not cards or s == cards[0] >> 3:
        key = PLAIN_STRENGTH[card & 7]
    else:
        key = -1
    n = len(cards)
    if not n or key > trick.winning_strength:
        trick.winning_index, trick.winning_strength = n, key
    cards.append(card)
    if n < 3:
        deal.turn = (seat + 1) & 3
        return None
    finish_trick(deal, cfg, trump)
    return TRICKS_TAKEN[deal.tricks_played]


def trick_points(cards: list[int], trump: int) -> int:
    """Big points of a full trick's four ``cards`` under ``trump`` (rule 3 table)."""
    table = POINTS[trump]
    return table[cards[0]] + table[cards[1]] + table[cards[2]] + table[cards[3]]


def finish_trick(deal: DealState, cfg: BlotConfig, trump: int) -> None:
    """Close the full trick: the winner's team takes the trick and its points (+ the last-trick
    bonus after trick 8, BB-3); the winner leads the next trick; the trick becomes
    :attr:`.model.DealState.last_trick`."""
    trick = deal.trick
    winner = (trick.leader + trick.winning_index) & 3
    points = trick_points(trick.cards, trump)
    deal.tricks_played += 1
    if deal.tricks_played == 8:
        points += cfg.last_trick_bonus
    team = winner & 1
    deal.tricks_won[team] += 1
    deal.card_points[team] += points
    deal.last_trick = trick
    deal.trick = Trick(winner)
    deal.turn = winner


def trick_won(deal: DealState, cfg: BlotConfig) -> Event:
    """The public ``trick_won`` event of the trick :func:`finish_trick` just closed
    (``deal.last_trick``): its winner seat, cards in play order and points (with the last-trick
    bonus after trick 8)."""
    trick = deal.last_trick
    assert trick is not None and deal.contract is not None  # a trick was just closed
    points = trick_points(trick.cards, deal.contract.trump)
    if deal.tricks_played == 8:
        points += cfg.last_trick_bonus
    return Event("trick_won", {"seat": trick.winner, "cards": codes(trick.cards),
                               "points": points})
