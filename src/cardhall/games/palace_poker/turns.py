"""The turn options outside a battle: Buy, Discard, Stay, Fold (rules 7, 9, 10, 13; PP-7,
PP-8, PP-28), and the chip and card moves battles share (paying in, leaving the hand).

Every function runs only after :mod:`.legal` accepted the action. Each returns the transition
:mod:`.state` follows next and the events it produced; none changes the phase.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...engine.events import Event, public
from .model import DiscardDue, Hand, ReshuffleDue, TurnEnded


def pay(h: Hand, seat: int, amount: int) -> int:
    """Move up to ``amount`` chips of ``seat`` into the pot (all-in if short, rule 13);
    returns the chips paid."""
    amount = min(amount, h.chips[seat])
    h.chips[seat] -= amount
    h.committed[seat] += amount
    return amount


def knock_out(h: Hand, seat: int, capturer: int | None) -> list[str]:
    """Put ``seat`` out of the hand: its palace goes face down to the discard pile (PP-22); its
    soldiers and banner go to ``capturer`` as soldiers (rule 9, PP-21) or, with no capturer, to
    the discard pile (rule 7 Fold, PP-28; a tie, PP-20). Returns the captured cards."""
    h.in_hand[seat] = False
    h.discards.extend(h.palaces[seat])
    taken = [*h.soldiers[seat], h.banners[seat] or ""]
    h.soldiers[seat] = []
    if capturer is None:
        h.discards.extend(taken)
        return []
    h.soldiers[capturer].extend(taken)
    return taken


def buy(h: Hand, seat: int) -> tuple[DiscardDue | ReshuffleDue, list[Event]]:
    """Rule 7 Buy: pay ``small_bet`` and draw the top stock card as a soldier; the same seat
    then discards (PP-7). An empty stock first needs a reshuffle (PP-31). A Buy breaks the
    quiet orbit (rule 11c)."""
    paid = h.config.small_bet
    pay(h, seat, paid)
    h.quiet = [False] * h.num_seats
    event = public("buy", seat=seat, paid=paid)
    if not h.stock:
        return ReshuffleDue(), [event]
    due, drawn = draw(h, seat)
    return due, [event, *drawn]


def draw(h: Hand, seat: int) -> tuple[DiscardDue, list[Event]]:
    """Rule 7: the top stock card becomes a face-up soldier of ``seat``, who then discards."""
    card = h.stock.pop(0)
    h.soldiers[seat].append(card)
    return DiscardDue(seat), [public("soldier", seat=seat, card=card)]


def discard(h: Hand, seat: int, cards: Sequence[str], *, quiet: bool) -> tuple[TurnEnded, list[Event]]:
    """Rules 7, 9: ``cards`` (own soldiers) go face down to the discard pile; the event shows
    only the count. ``quiet`` marks a Discard turn (rule 11c); a discard after a capture ends
    the attacker's turn (rule 10, PP-23), after a Buy the buyer's."""
    for card in cards:
        h.soldiers[seat].remove(card)
        h.discards.append(card)
    if quiet:
        h.quiet[seat] = True
    ends = h.turn_seat if h.turn_seat is not None else seat
    return TurnEnded(ends), [public("discard", seat=seat, count=len(cards))]


def stay(h: Hand, seat: int) -> tuple[TurnEnded, list[Event]]:
    """Rule 7 Stay: a quiet turn (rule 11c)."""
    h.quiet[seat] = True
    return TurnEnded(seat), [public("stay", seat=seat)]


def fold(h: Hand, seat: int) -> tuple[TurnEnded, list[Event]]:
    """Rule 7 Fold on the own turn: a quiet turn (rule 11c); palace, soldiers and banner go
    face down to the discard pile (PP-28)."""
    h.quiet[seat] = True
    knock_out(h, seat, capturer=None)
    return TurnEnded(seat), [public("fold", seat=seat)]
