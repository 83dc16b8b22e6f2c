"""Pure trick helpers: the trick winner, the legal cards and the weakest legal card (rules 5, 9).

Cards are ints (see :mod:`.cards`); a trick is the list of cards played so far in play order.
"""

from __future__ import annotations

from .cards import PLAIN_STRENGTH, TRUMP_STRENGTH, weakest_key


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
            st = TRUMP_STRENGTH[c & 7]
            if st > top:
                top = st
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
