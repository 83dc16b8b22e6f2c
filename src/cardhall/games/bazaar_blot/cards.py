"""The 32-card Blot deck as small ints, and its orders and values (rules section 1, rule 3).

A card is an int ``suit * 8 + rank`` with suits ``c d h s`` = 0..3 and ranks
``7 8 9 T J Q K A`` = 0..7 (natural order, the order of sequences, rule 6). Card codes such as
``"Th"`` exist only at the JSON boundary (:data:`CODES`, :data:`CARD_OF`).

>>> CODES[CARD_OF["Jh"]]
'Jh'
>>> TRUMP_POINTS[RANK_OF["J"]], PLAIN_POINTS[RANK_OF["J"]]
(20, 2)
"""

from __future__ import annotations

SUITS = "cdhs"
"""Suit letters; index = suit number. Also the deterministic tie-break order c < d < h < s."""
RANKS = "789TJQKA"
"""Rank letters; index = rank number (natural order 7 … A)."""

SUIT_OF: dict[str, int] = {s: i for i, s in enumerate(SUITS)}
RANK_OF: dict[str, int] = {r: i for i, r in enumerate(RANKS)}

CODES: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
"""Card code of each card int, in canonical order (suits c, d, h, s; ranks 7 … A)."""
CARD_OF: dict[str, int] = {code: i for i, code in enumerate(CODES)}
"""Card int of each card code."""

DECK: tuple[int, ...] = tuple(range(32))

# Ascending strength, indexed by rank number (rule 3 table; rule 9 ascending orders).
PLAIN_STRENGTH: tuple[int, ...] = (0, 1, 2, 6, 3, 4, 5, 7)
"""Plain suit, ascending 7 8 9 J Q K 10 A."""
TRUMP_STRENGTH: tuple[int, ...] = (0, 1, 6, 4, 7, 2, 3, 5)
"""Trump suit, ascending 7 8 Q K 10 A 9 J (BB-2: the Jack heads the trump order)."""

PLAIN_POINTS: tuple[int, ...] = (0, 0, 0, 10, 2, 3, 4, 11)
"""Big points of a plain card (suit total 30)."""
TRUMP_POINTS: tuple[int, ...] = (0, 0, 14, 10, 20, 3, 4, 11)
"""Big points of a trump card (suit total 62)."""

POINTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(TRUMP_POINTS[c & 7] if c >> 3 == t else PLAIN_POINTS[c & 7] for c in range(32))
    for t in range(4)
)
"""``POINTS[trump][card]``: big points of each card int under each trump suit."""


def suit(card: int) -> int:
    """Suit number (0..3) of a card int."""
    return card >> 3


def rank(card: int) -> int:
    """Rank number (0..7, natural order) of a card int."""
    return card & 7


def card_points(card: int, trump: int) -> int:
    """Big points of ``card`` when ``trump`` (suit number) is trump."""
    r = card & 7
    return TRUMP_POINTS[r] if card >> 3 == trump else PLAIN_POINTS[r]


def codes(cards: list[int] | tuple[int, ...]) -> list[str]:
    """Card codes of card ints, in the given order."""
    return [CODES[c] for c in cards]


def weakest_key(card: int, trump: int) -> int:
    """Sort key of rule 9's weakest card: (is trump, ascending strength, suit c<d<h<s).

    >>> t = SUIT_OF["h"]
    >>> min(["As", "7s", "7h", "Jd"], key=lambda c: weakest_key(CARD_OF[c], t))
    '7s'
    """
    s = card >> 3
    if s == trump:
        return 1000 + TRUMP_STRENGTH[card & 7] * 4 + s
    return PLAIN_STRENGTH[card & 7] * 4 + s
