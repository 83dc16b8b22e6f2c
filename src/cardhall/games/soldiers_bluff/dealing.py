"""Antes (rule 4), deal (rule 5, SB-3) and exchange (rule 6, SB-4..SB-7) of Soldier's Bluff.

The deal is a chance action ``{"type": "deal", "hands": [[6 ids] per seat, [] for a seat not
dealt in], "stock": [ids, top first]}``. Exchanges run in turn from the dealer's left; each
player discards 0..``exchange_max`` cards face down (out of play) and draws as many from the
top of the stock. The count is public, the cards are private to the player.

The phase functions change the hand's cards and the exchange queue, never the phase: they
return :class:`ExchangeDue` or :class:`ExchangeDone` and ``state.py`` moves on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...engine.actions import Action
from ...engine.errors import IllegalActionError
from ...engine.events import Event, private, public
from ...engine.game import Shuffle
from .actions import Deal, Exchange
from .cards import CARD_IDS
from .config import HAND_SIZE, SoldiersBluffConfig
from .model import HandModel, Seat

_ALL = frozenset(CARD_IDS)


@dataclass(frozen=True, slots=True)
class ExchangeDue:
    """Transition: the cards are dealt and the exchanges start (``queue`` is the turn order)."""


@dataclass(frozen=True, slots=True)
class ExchangeDone:
    """Transition: every seat dealt in has exchanged (or ``exchange_max`` is 0): betting is due."""


def post_antes(config: SoldiersBluffConfig, stacks: Sequence[int]) -> list[Seat]:
    """Rule 4 / SB-2: one :class:`Seat` per stack (chips); a seat with at least ``ante`` chips
    posts it and is dealt in, the others sit this hand out."""
    ante = config.ante
    return [Seat(in_hand=s >= ante, start_stack=s, ante=ante if s >= ante else 0) for s in stacks]


def turn_order(seats: Sequence[Seat], dealer: int) -> list[int]:
    """Rule 5: the seats dealt in, clockwise from the dealer's left."""
    n = len(seats)
    ring = [(dealer + 1 + i) % n for i in range(n)]
    return [s for s in ring if seats[s].in_hand]


def deal_action(m: HandModel, shuffle: Shuffle) -> Action:
    """The deal drawn through ``shuffle``: it gets the 40 ids in strength order; its result is
    dealt one card at a time from the dealer's left (seats dealt in only), six rounds; the
    remaining cards in shuffled order form the stock, top first (rule 5, SB-3)."""
    deck = list(shuffle(list(CARD_IDS)))
    hands: list[list[str]] = [[] for _ in range(m.num_seats)]
    i = 0
    for _ in range(HAND_SIZE):
        for seat in m.order:
            hands[seat].append(deck[i])
            i += 1
    return {"type": "deal", "hands": hands, "stock": deck[i:]}


def deals_from(deck: Sequence[str], action: Action) -> bool | None:
    """Whether the ``deal`` action ``action`` deals the shuffled ``deck`` (the 40 ids in
    strength order, shuffled) as :func:`deal_action` documents: card ``j`` of the first
    ``6 * n`` to the ``j mod n``-th seat dealt in from the dealer's left, the rest the stock.
    ``None`` for any other action (Soldier's Bluff has no other chance action)."""
    hands = action.get("hands")
    if action.get("type") != "deal" or not isinstance(hands, list):
        return None
    seats_in = [s for s, h in enumerate(hands) if h]
    n = len(seats_in)
    if n == 0 or action.get("stock") != list(deck[HAND_SIZE * n:]):
        return False
    return any(all(hands[seats_in[(r + j) % n]] == list(deck[j:HAND_SIZE * n:n]) for j in range(n))
               for r in range(n))


def check_deal(m: HandModel, action: Deal) -> None:
    """Raise :class:`IllegalActionError` unless the deal gives 6 cards to each seat dealt in,
    none to the others, and hands plus stock are the 40 cards exactly once (rule 5)."""
    if len(action.hands) != m.num_seats:
        raise IllegalActionError(f"deal has {len(action.hands)} hands for {m.num_seats} seats")
    for seat, hand in enumerate(action.hands):
        want = HAND_SIZE if m.seats[seat].in_hand else 0
        if len(hand) != want:
            raise IllegalActionError(f"deal gives seat {seat} {len(hand)} cards; it must get {want}")
    cards = [c for h in action.hands for c in h] + list(action.stock)
    if len(cards) != len(CARD_IDS) or set(cards) != _ALL:
        dup = sorted({c for c in cards if cards.count(c) > 1})
        missing = sorted(_ALL - set(cards))
        raise IllegalActionError(
            f"deal must hold each of the 40 cards once; duplicated {dup}, missing {missing}"
        )


def do_deal(m: HandModel, action: Deal) -> tuple[list[Event], ExchangeDue | ExchangeDone]:
    """Apply a checked deal (rule 5). With ``exchange_max`` 0 every seat dealt in has
    exchanged 0 cards and the betting is due (:class:`ExchangeDone`); otherwise the exchange
    queue is the turn order (:class:`ExchangeDue`)."""
    for p, hand in zip(m.seats, action.hands, strict=True):
        p.hand = list(hand)
    m.stock = list(action.stock)
    seats = m.seats
    events: list[Event] = [
        public("antes", posted=[p.ante for p in seats], pot=m.pot,
               sitting_out=[s for s, p in enumerate(seats) if not p.in_hand]),
        public("deal", counts=[len(p.hand) for p in seats], stock_size=len(m.stock)),
    ]
    events += [private(s, "dealt", seat=s, cards=list(seats[s].hand)) for s in m.order]
    if m.config.exchange_max > 0:
        m.queue = list(m.order)
        return events, ExchangeDue()
    for p in seats:
        p.exchanged = 0 if p.in_hand else None
    return events, ExchangeDone()


def exchange_counts(m: HandModel) -> list[int]:
    """The allowed numbers of cards to exchange (SB-4): ``0..exchange_max``, or ``{0, max}``
    with ``exchange_exact``; never more than the stock holds (SB-7)."""
    top = min(m.config.exchange_max, len(m.stock))
    if m.config.exchange_exact:
        return sorted({0, top}) if top == m.config.exchange_max else [0]
    return list(range(top + 1))


def exchange_entries(m: HandModel, seat: int) -> list[Action]:
    """Legal-action entries of the exchange: a card choice from the hand (section 4)."""
    counts = exchange_counts(m)
    hand = list(m.seats[seat].hand)
    if counts == list(range(counts[-1] + 1)):
        return [{"type": "exchange", "cards_from": hand, "min_cards": 0, "max_cards": counts[-1]}]
    out: list[Action] = [{"type": "exchange", "cards": []}]
    out += [{"type": "exchange", "cards_from": hand, "min_cards": k, "max_cards": k}
            for k in counts if k]
    return out


def timeout_exchange() -> Action:
    """Rule 12 / SB-25: a seat whose exchange times out exchanges nothing."""
    return {"type": "exchange", "cards": []}


def check_exchange(m: HandModel, seat: int, action: Exchange) -> None:
    """Raise :class:`IllegalActionError` for a card not held, a repeated card, or a count
    outside :func:`exchange_counts` (e.g. 3 cards)."""
    hand = m.seats[seat].hand
    for card in action.cards:
        if card not in hand:
            raise IllegalActionError(f"seat {seat} cannot exchange {card!r}: not in its hand")
    if len(set(action.cards)) != len(action.cards):
        raise IllegalActionError(f"exchange names a card twice: {list(action.cards)}")
    counts = exchange_counts(m)
    if len(action.cards) not in counts:
        raise IllegalActionError(
            f"cannot exchange {len(action.cards)} cards; allowed counts: {counts}"
        )


def do_exchange(
    m: HandModel, seat: int, action: Exchange
) -> tuple[list[Event], ExchangeDone | None]:
    """Apply a checked exchange (rule 6): discard the chosen cards (out of play), draw as many
    from the stock top, pass the turn. :class:`ExchangeDone` after the last exchange, else
    ``None`` (the next seat exchanges)."""
    k = len(action.cards)
    p = m.seats[seat]
    drawn, m.stock = m.stock[:k], m.stock[k:]
    p.hand = [c for c in p.hand if c not in action.cards] + drawn
    p.discarded = list(action.cards)
    p.exchanged = k
    m.queue.pop(0)
    events: list[Event] = [
        public("exchanged", seat=seat, count=k, stock_size=len(m.stock)),
        private(seat, "drew", seat=seat, discarded=list(action.cards), drawn=drawn),
    ]
    return events, (None if m.queue else ExchangeDone())
