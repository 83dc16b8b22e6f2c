"""Card codes of Palace Poker (rule 1; ``design.md`` section 3).

Cards travel as two-character codes (``"Th"``: rank ``2..9 T J Q K A``, suit ``c d h s``).
Inside the evaluator a card is an integer id ``rank * 4 + suit`` with rank ``0`` (deuce) to
``12`` (ace) and suit ``0..3`` for ``c d h s`` (the same ids phevaluator uses).

The **canonical order** of the deck, handed to every shuffle, is suits ``c, d, h, s`` and within
a suit ranks ``2 .. A``: ``2c 3c … Ac 2d … As``.
"""

from __future__ import annotations

from collections.abc import Iterable

RANKS = "23456789TJQKA"
SUITS = "cdhs"

CANONICAL: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
"""All 52 cards in canonical order (suits c, d, h, s; ranks 2..A)."""

ALL_CARDS: frozenset[str] = frozenset(CANONICAL)
CARD_ID: dict[str, int] = {
    r + s: ri * 4 + si for ri, r in enumerate(RANKS) for si, s in enumerate(SUITS)
}
"""Card code -> evaluator id ``rank * 4 + suit``."""
CANON_INDEX: dict[str, int] = {c: i for i, c in enumerate(CANONICAL)}


def suit(card: str) -> str:
    """The suit letter of a card code (``"Th"`` -> ``"h"``)."""
    return card[1]


def rank(card: str) -> int:
    """The rank of a card code, 0 (deuce) .. 12 (ace)."""
    return RANKS.index(card[0])


def ids(cards: Iterable[str]) -> list[int]:
    """Evaluator ids of card codes."""
    return [CARD_ID[c] for c in cards]


def canonical_sorted(cards: Iterable[str]) -> list[str]:
    """The cards in canonical deck order (the order handed to a shuffle)."""
    return sorted(cards, key=CANON_INDEX.__getitem__)


def lowest_first(cards: Iterable[str]) -> list[str]:
    """The cards from lowest rank up, equal ranks by suit c < d < h < s (rule 14 timeouts)."""
    return sorted(cards, key=lambda c: (rank(c), SUITS.index(c[1])))
