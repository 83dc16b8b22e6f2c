"""Showdown ranking (rule 9): pure functions over hands of card ids.

A hand's key is ``(bluff, sum, strongest)``; a higher key wins:

1. ``bluff`` is 1 for exactly Lord of Blades + the five army cards (rule 9.1, hard cases 3-4),
   so it beats every sum, even 57;
2. ``sum`` is the sum of the six card values (rule 9.2, SB-16);
3. ``strongest`` is the strength (``41 - position``) of the hand's strongest card (rule 9.3,
   SB-17 ``tiebreak="list_order"``). Hands of distinct cards never share it, so two disjoint
   hands never have equal keys and a showdown always has one winner.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .cards import POSITION, SOLDIERS_BLUFF, VALUE

HandKey = tuple[int, int, int]


def hand_sum(hand: Iterable[str]) -> int:
    """Sum of the card values of ``hand`` (rule 9.2), in points."""
    return sum(VALUE[c] for c in hand)


def is_soldiers_bluff(hand: Iterable[str]) -> bool:
    """True if ``hand`` is exactly the six cards of the Soldier's Bluff (rule 9.1)."""
    return frozenset(hand) == SOLDIERS_BLUFF


def strongest_card(hand: Iterable[str]) -> str:
    """The card of ``hand`` with the lowest list position (rule 9.3).

    Raises:
        ValueError: ``hand`` is empty.
    """
    return min(hand, key=POSITION.__getitem__)


def hand_key(hand: Iterable[str], bluff_allowed: bool = True) -> HandKey:
    """The ranking key of ``hand``: ``(bluff 0/1, sum, strength of strongest card)``.

    ``bluff_allowed=False`` ranks a Soldier's Bluff by its sum (used when
    ``bluff_only_as_dealt`` is set and the hand was completed by an exchange, SB-20).
    """
    cards = list(hand)
    bluff = 1 if bluff_allowed and is_soldiers_bluff(cards) else 0
    return bluff, hand_sum(cards), 41 - POSITION[strongest_card(cards)]


def showdown_winner(keys: Mapping[int, HandKey]) -> int:
    """The seat with the highest key among ``keys`` (seat -> key).

    Raises:
        ValueError: ``keys`` is empty, or two seats share the best key (impossible for hands
            of distinct cards).
    """
    if not keys:
        raise ValueError("no hands at showdown")
    best = max(keys.values())
    winners = [s for s, k in keys.items() if k == best]
    if len(winners) != 1:
        raise ValueError(f"seats {winners} tie with key {best}")
    return winners[0]


DecidedBy = str
"""Which showdown rule decided: ``"soldiers_bluff"`` (rule 9.1), ``"sum"`` (rule 9.2) or
``"strongest_card"`` (rule 9.3, equal sums)."""


def decided_by(keys: Mapping[int, HandKey]) -> DecidedBy:
    """The rule of rule 9 that separated the winner of ``keys`` (seat -> key, at least two
    seats) from the best of the others: the Soldier's Bluff, the higher sum, or on equal sums
    the strongest single card.

    Raises:
        ValueError: fewer than two hands.
    """
    if len(keys) < 2:
        raise ValueError(f"a showdown needs two hands, got {len(keys)}")
    best, second = sorted(keys.values(), reverse=True)[:2]
    if best[0] != second[0]:
        return "soldiers_bluff"
    return "sum" if best[1] != second[1] else "strongest_card"
