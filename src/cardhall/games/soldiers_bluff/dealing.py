"""Deal (rule 5, SB-3) and exchange (rule 6, SB-4..SB-7) of Soldier's Bluff.

The deal is a chance action ``{"type": "deal", "hands": [[6 ids] per seat, [] for a seat not
dealt in], "stock": [ids, top first]}``. Exchanges run in turn from the dealer's left; each
player discards 0..``exchange_max`` cards face down (out of play) and draws as many from the
top of the stock. The count is public, the cards are private to the player.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...engine.actions import Action
from ...engine.errors import IllegalActionError
from ...engine.events import Event, private, public
from ...engine.game import Shuffle
from . import betting
from .actions import Parsed
from .cards import CARD_IDS
from .config import HAND_SIZE

if TYPE_CHECKING:
    from .state import SoldiersBluffState

_ALL = frozenset(CARD_IDS)


def deal_action(st: SoldiersBluffState, shuffle: Shuffle) -> Action:
    """The deal drawn through ``shuffle``: it gets the 40 ids in strength order; its result is
    dealt one card at a time from the dealer's left (seats dealt in only), six rounds; the
    remaining cards in shuffled order form the stock, top first (rule 5, SB-3)."""
    deck = list(shuffle(list(CARD_IDS)))
    hands: list[list[str]] = [[] for _ in range(st.num_seats)]
    i = 0
    for _ in range(HAND_SIZE):
        for seat in st.order:
            hands[seat].append(deck[i])
            i += 1
    return {"type": "deal", "hands": hands, "stock": deck[i:]}


def check_deal(st: SoldiersBluffState, parsed: Parsed) -> None:
    """Raise :class:`IllegalActionError` unless the deal gives 6 cards to each seat dealt in, none to
    the others, and hands plus stock are the 40 cards exactly once."""
    if len(parsed.hands) != st.num_seats:
        raise IllegalActionError(f"deal has {len(parsed.hands)} hands for {st.num_seats} seats")
    for seat, hand in enumerate(parsed.hands):
        want = HAND_SIZE if st.dealt_in[seat] else 0
        if len(hand) != want:
            raise IllegalActionError(f"deal gives seat {seat} {len(hand)} cards; it must get {want}")
    cards = [c for h in parsed.hands for c in h] + list(parsed.stock)
    if len(cards) != len(CARD_IDS) or set(cards) != _ALL:
        dup = sorted({c for c in cards if cards.count(c) > 1})
        missing = sorted(_ALL - set(cards))
        raise IllegalActionError(
            f"deal must hold each of the 40 cards once; duplicated {dup}, missing {missing}"
        )


def do_deal(st: SoldiersBluffState, parsed: Parsed) -> list[Event]:
    """Apply a checked deal; start the exchange (or the betting if ``exchange_max`` is 0)."""
    st.hands = [list(h) for h in parsed.hands]
    st.stock = list(parsed.stock)
    events: list[Event] = [
        public("antes", posted=list(st.antes), pot=st.pot,
               sitting_out=[s for s in range(st.num_seats) if not st.dealt_in[s]]),
        public("deal", counts=[len(h) for h in st.hands], stock_size=len(st.stock)),
    ]
    events += [private(s, "dealt", seat=s, cards=list(st.hands[s])) for s in st.order]
    if st.config.exchange_max > 0:
        st.phase = "exchange"
        st.queue = list(st.order)
    else:
        st.exchanged = [0 if d else None for d in st.dealt_in]
        events += betting.start(st)
    return events


def exchange_counts(st: SoldiersBluffState) -> list[int]:
    """The allowed numbers of cards to exchange (SB-4): ``0..exchange_max``, or ``{0, max}``
    with ``exchange_exact``; never more than the stock holds."""
    top = min(st.config.exchange_max, len(st.stock))
    if st.config.exchange_exact:
        return sorted({0, top}) if top == st.config.exchange_max else [0]
    return list(range(top + 1))


def exchange_entries(st: SoldiersBluffState, seat: int) -> list[Action]:
    """Legal-action entries of the exchange: a card choice from the hand (section 4)."""
    counts = exchange_counts(st)
    hand = list(st.hands[seat])
    if counts == list(range(counts[-1] + 1)):
        return [{"type": "exchange", "cards_from": hand, "min_cards": 0, "max_cards": counts[-1]}]
    out: list[Action] = [{"type": "exchange", "cards": []}]
    out += [{"type": "exchange", "cards_from": hand, "min_cards": k, "max_cards": k}
            for k in counts if k]
    return out


def check_exchange(st: SoldiersBluffState, seat: int, parsed: Parsed) -> None:
    """Raise :class:`IllegalActionError` for a card not held, a repeated card, or a count outside
    :func:`exchange_counts` (e.g. 3 cards)."""
    for card in parsed.cards:
        if card not in st.hands[seat]:
            raise IllegalActionError(f"seat {seat} cannot exchange {card!r}: not in its hand")
    if len(set(parsed.cards)) != len(parsed.cards):
        raise IllegalActionError(f"exchange names a card twice: {list(parsed.cards)}")
    counts = exchange_counts(st)
    if len(parsed.cards) not in counts:
        raise IllegalActionError(
            f"cannot exchange {len(parsed.cards)} cards; allowed counts: {counts}"
        )


def do_exchange(st: SoldiersBluffState, seat: int, parsed: Parsed) -> list[Event]:
    """Discard the chosen cards (out of play), draw as many from the stock top; pass the turn;
    start the betting after the last exchange."""
    k = len(parsed.cards)
    drawn, st.stock = st.stock[:k], st.stock[k:]
    st.hands[seat] = [c for c in st.hands[seat] if c not in parsed.cards] + drawn
    st.discards[seat] = list(parsed.cards)
    st.exchanged[seat] = k
    st.queue.pop(0)
    events: list[Event] = [
        public("exchanged", seat=seat, count=k, stock_size=len(st.stock)),
        private(seat, "drew", seat=seat, discarded=list(parsed.cards), drawn=drawn),
    ]
    if not st.queue:
        events += betting.start(st)
    return events
