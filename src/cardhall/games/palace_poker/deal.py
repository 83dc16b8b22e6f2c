"""The banner deal and the palace deal (rules 5, 6; PP-4, PP-5, PP-31; hard case 4).

Players ``p1 … pn`` are the seats dealt in, in order from the dealer's left; player ``k``
(0-based) belongs to banner group ``k // 4`` (groups p1-p4, p5-p8, p9-p10).

Chance outcomes (what a shuffle function receives):

* banner deal: the 52 cards in canonical order (``cards.CANONICAL``); the shuffled list is the
  deck, top first. If it runs out, the reject pile (in the order the cards were rejected) is
  shuffled into a new deck.
* palace deal: every non-banner card in canonical order; the shuffled list is dealt one card at
  a time from the dealer's left, three rounds, and the rest is the stock, top first.
* reshuffle: the discard pile in canonical order; the shuffled list is the new stock, top first.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ...engine.errors import IllegalActionError
from .cards import ALL_CARDS, CANONICAL, suit

Shuffle = Callable[[list[str]], list[str]]


def group_of(k: int) -> int:
    """Banner group of the k-th player from the dealer's left (0-based): 0, 1 or 2."""
    return k // 4


def draw_banners(order: Sequence[int], num_seats: int, shuffle: Shuffle) -> dict[str, object]:
    """Walk a shuffled deck to deal the banners (rule 5); returns the ``deal_banners`` action."""
    deck = shuffle(list(CANONICAL))
    pile: list[str] = []
    rejected: list[str] = []
    banners: list[str | None] = [None] * num_seats
    for k, seat in enumerate(order):
        used = {suit(banners[order[j]] or "") for j in range(k) if group_of(j) == group_of(k)}
        while True:
            if not deck:
                deck, pile = shuffle(pile), []
            card = deck.pop(0)
            if suit(card) in used:
                pile.append(card)
                rejected.append(card)
                continue
            banners[seat] = card
            break
    return {"type": "deal_banners", "banners": banners, "rejected": rejected}


def check_banners(order: Sequence[int], banners: Sequence[str | None],
                  rejected: Sequence[str]) -> None:
    """Raise :class:`IllegalActionError` unless the banners and rejects satisfy rule 5.

    Each player's rejects are taken greedily (every reject whose suit is already a banner suit
    of the player's group, before his banner); the resulting sequence of turned cards must come
    from one deck (a card is turned again only after the deck ran out and the reject pile was
    reshuffled).
    """
    dealt = set(order)
    for seat, card in enumerate(banners):
        if (card is None) == (seat in dealt):
            want = "a banner" if seat in dealt else "no banner (not dealt in)"
            raise IllegalActionError(f"seat {seat} must get {want}, got {card!r}")
    turned: list[tuple[str, bool]] = []
    pos = 0
    for k, seat in enumerate(order):
        used = {suit(banners[order[j]] or "") for j in range(k) if group_of(j) == group_of(k)}
        while pos < len(rejected) and suit(rejected[pos]) in used:
            turned.append((rejected[pos], True))
            pos += 1
        card = banners[seat] or ""
        if suit(card) in used:
            raise IllegalActionError(
                f"banner {card} of seat {seat} repeats a banner suit of its group {sorted(used)}")
        turned.append((card, False))
    if pos < len(rejected):
        raise IllegalActionError(f"rejected card {rejected[pos]} would have been accepted as a banner")
    _check_one_deck(turned)


def _check_one_deck(turned: list[tuple[str, bool]]) -> None:
    unseen = set(ALL_CARDS)
    pile: list[str] = []
    for card, is_reject in turned:
        if not unseen:
            unseen, pile = set(pile), []
        if card not in unseen:
            raise IllegalActionError(f"card {card} is turned twice in the banner deal")
        unseen.discard(card)
        if is_reject:
            pile.append(card)


def draw_palaces(order: Sequence[int], num_seats: int, banners: Sequence[str | None],
                 shuffle: Shuffle) -> dict[str, object]:
    """Shuffle the non-banner cards and deal three to each player one at a time (rule 6)."""
    taken = {b for b in banners if b is not None}
    deck = shuffle([c for c in CANONICAL if c not in taken])
    palaces: list[list[str] | None] = [None] * num_seats
    for seat in order:
        palaces[seat] = []
    pos = 0
    for _ in range(3):
        for seat in order:
            palaces[seat].append(deck[pos])  # type: ignore[union-attr]
            pos += 1
    return {"type": "deal_palaces", "palaces": palaces, "stock": deck[pos:]}


def check_palaces(order: Sequence[int], banners: Sequence[str | None],
                  palaces: Sequence[Sequence[str] | None], stock: Sequence[str]) -> None:
    """Raise :class:`IllegalActionError` unless palaces (3 cards per player, none for seats not
    dealt in) and the stock hold every non-banner card exactly once (rule 6)."""
    dealt = set(order)
    for seat, palace in enumerate(palaces):
        if seat in dealt and (palace is None or len(palace) != 3):
            raise IllegalActionError(f"seat {seat} must get a palace of 3 cards, got {palace!r}")
        if seat not in dealt and palace:
            raise IllegalActionError(f"seat {seat} is not dealt in but gets palace {palace!r}")
    cards = [c for p in palaces if p for c in p] + list(stock)
    want = ALL_CARDS - {b for b in banners if b is not None}
    if len(cards) != len(set(cards)) or set(cards) != want:
        extra = sorted(set(cards) - want) or sorted(c for c in set(cards) if cards.count(c) > 1)
        missing = sorted(want - set(cards))
        raise IllegalActionError(f"palaces + stock must be the {len(want)} non-banner cards once each; "
                            f"wrong: {extra}, missing: {missing}")
