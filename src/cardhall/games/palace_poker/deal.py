"""Ante and deals of a Palace Poker hand (rules 4, 5, 6, 7; PP-2, PP-4, PP-5, PP-31; hard
case 4).

Players ``p1 … pn`` are the seats dealt in, in order from the dealer's left; player ``k``
(0-based) belongs to banner group ``k // 4`` (groups p1-p4, p5-p8, p9-p10).

Chance outcomes (what a shuffle function receives):

* banner deal: the 52 cards in canonical order (``cards.CANONICAL``); the shuffled list is the
  deck, top first. If it runs out, the reject pile (in the order the cards were rejected) is
  shuffled into a new deck.
* palace deal: every non-banner card in canonical order; the shuffled list is dealt one card at
  a time from the dealer's left, three rounds, and the rest is the stock, top first.
* reshuffle: the discard pile in canonical order; the shuffled list is the new stock, top first.

``draw_*`` build a chance action through a shuffle, ``check_*`` validate a given one, and
``start_hand`` / ``place_*`` / ``refill_stock`` put the cards of an accepted one on the table.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...engine.actions import Action
from ...engine.errors import IllegalActionError, InvalidConfigError
from ...engine.events import Event, private, public
from ...engine.game import Shuffle
from .actions import DealBanners, DealPalaces
from .cards import ALL_CARDS, CANONICAL, canonical_sorted, suit
from .config import PalacePokerConfig
from .model import Hand


def start_hand(config: PalacePokerConfig, num_seats: int, dealer: int,
               stacks: Sequence[int]) -> Hand:
    """A new hand with the antes posted (rule 4, PP-2), waiting for the banner deal. Seats
    whose stack is below the ante (``config.ante_chips``) sit the hand out.

    Raises:
        InvalidConfigError: fewer than two seats can pay the ante.
    """
    ante = config.ante_chips
    seats_from_left = [(dealer + 1 + i) % num_seats for i in range(num_seats)]
    order = [s for s in seats_from_left if stacks[s] >= ante]
    if len(order) < 2:
        raise InvalidConfigError(f"at least 2 seats need the ante of {ante} chips; stacks {stacks}")
    chips = list(stacks)
    committed = [0] * num_seats
    for s in order:
        chips[s] -= ante
        committed[s] += ante
    return Hand(
        config=config, num_seats=num_seats, dealer=dealer, order=order,
        starting_chips=tuple(stacks), chips=chips,
        in_hand=[s in order for s in range(num_seats)], committed=committed,
        banners=[None] * num_seats, palaces=[[] for _ in range(num_seats)],
        soldiers=[[] for _ in range(num_seats)], quiet=[False] * num_seats,
        revealed_palaces=[set() for _ in range(num_seats)],
    )


def place_banners(h: Hand, action: DealBanners) -> list[Event]:
    """Rule 5: the banners (face up) and the rejected cards of a checked ``deal_banners``."""
    h.banners = list(action.banners)
    h.rejected = list(action.rejected)
    return [public("banners", banners=list(h.banners), rejected=list(h.rejected))]


def place_palaces(h: Hand, action: DealPalaces) -> list[Event]:
    """Rule 6: each player's palace (a private ``palace`` event to its owner) and the stock of
    a checked ``deal_palaces``."""
    events: list[Event] = []
    for seat in h.order:
        palace = action.palaces[seat]
        assert palace is not None
        h.palaces[seat] = list(palace)
        events.append(private(seat, "palace", seat=seat, cards=list(palace)))
    h.stock = list(action.stock)
    events.append(public("palaces_dealt", stock_size=len(h.stock)))
    return events


def draw_reshuffle(h: Hand, shuffle: Shuffle) -> Action:
    """Rule 7 / PP-31: the ``reshuffle`` chance action: the discard pile, handed to ``shuffle``
    in canonical order, becomes the new stock."""
    return {"type": "reshuffle", "stock": shuffle(canonical_sorted(h.discards))}


def check_reshuffle(h: Hand, stock: Sequence[str]) -> None:
    """Raise :class:`IllegalActionError` unless ``stock`` holds exactly the discard pile."""
    if sorted(stock) != sorted(h.discards):
        raise IllegalActionError(f"the new stock {list(stock)} must be exactly the discard "
                                 f"pile ({len(h.discards)} cards)")


def refill_stock(h: Hand, stock: Sequence[str]) -> list[Event]:
    """Rule 7 / PP-31: the checked reshuffled discard pile becomes the stock."""
    h.stock, h.discards = list(stock), []
    return [public("reshuffle", stock_size=len(h.stock))]


def group_of(k: int) -> int:
    """Banner group of the k-th player from the dealer's left (0-based): 0, 1 or 2."""
    return k // 4


def draw_banners(order: Sequence[int], num_seats: int, shuffle: Shuffle) -> Action:
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


def deals_from(deck: Sequence[str], action: Action) -> bool | None:
    """Whether the ``deal_banners`` action ``action`` walks the shuffled ``deck`` (the 52
    cards in canonical order, shuffled) as :func:`draw_banners` documents: the banners and the
    rejected cards are the deck's top cards, the rejects in the order drawn. ``None`` for the
    palace deal and reshuffles, which shuffle what earlier play left (their own lists)."""
    if action.get("type") != "deal_banners":
        return None
    banners = [b for b in action.get("banners", []) if b is not None]
    rejected = list(action.get("rejected", []))
    top = list(deck[:len(banners) + len(rejected)])
    return sorted(top) == sorted(banners + rejected) and [c for c in top if c in rejected] == rejected


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
                 shuffle: Shuffle) -> Action:
    """Shuffle the non-banner cards and deal three to each player one at a time (rule 6)."""
    taken = {b for b in banners if b is not None}
    deck = shuffle([c for c in CANONICAL if c not in taken])
    dealt: dict[int, list[str]] = {seat: [] for seat in order}
    pos = 0
    for _ in range(3):
        for seat in order:
            dealt[seat].append(deck[pos])
            pos += 1
    palaces = [dealt.get(seat) for seat in range(num_seats)]
    return {"type": "deal_palaces", "palaces": palaces, "stock": deck[pos:]}


def check_palaces(order: Sequence[int], banners: Sequence[str | None],
                  palaces: Sequence[Sequence[str] | None], stock: Sequence[str]) -> None:
    """Raise :class:`IllegalActionError` unless palaces (3 cards per player, none for seats not
    dealt in) and the stock hold every non-banner card exactly once (rule 6)."""
    dealt = set(order)
    for seat, palace in enumerate(palaces):
        shown = None if palace is None else list(palace)
        if seat in dealt and (palace is None or len(palace) != 3):
            raise IllegalActionError(f"seat {seat} must get a palace of 3 cards, got {shown!r}")
        if seat not in dealt and palace:
            raise IllegalActionError(f"seat {seat} is not dealt in but gets palace {shown!r}")
    cards = [c for p in palaces if p for c in p] + list(stock)
    want = ALL_CARDS - {b for b in banners if b is not None}
    if len(cards) != len(set(cards)) or set(cards) != want:
        extra = sorted(set(cards) - want) or sorted(c for c in set(cards) if cards.count(c) > 1)
        missing = sorted(want - set(cards))
        raise IllegalActionError(f"palaces + stock must be the {len(want)} non-banner cards once "
                                 f"each; wrong: {extra}, missing: {missing}")
