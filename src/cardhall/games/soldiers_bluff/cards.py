"""The Azraelian deck of Soldier's Bluff as data (rules spec section 1).

Forty unique cards listed in strength order: position 1 (King of Wolves) is strongest, and
``strength = 41 - position``. Each card has a snake_case ``id`` (the wire and history code,
``design.md`` section 3), a point ``value`` (1..12) and display names: English (our
translation), Bulgarian (the source's wording) and Armenian (our translation).

The table lives in ``cards.json`` next to this module, the one copy of it: this module reads it
at import, and the server serves the same document to the browser at
``GET /api/rules/soldiers_bluff/cards`` (:func:`card_table`). Its shape::

    {"game": "soldiers_bluff", "languages": ["en", "bg", "hy"],
     "cards": [{"id": "king_of_wolves", "value": 12,
                "names": {"en": "King of Wolves", "bg": "...", "hy": "..."}}, ...]}

with the cards in strength order. Display names are looked up with :func:`card_name`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

from ...engine.actions import copy_json


@dataclass(frozen=True, slots=True)
class Card:
    """One card of the deck.

    Attributes:
        id: wire code, e.g. ``"king_of_wolves"``.
        en: English display name.
        bg: Bulgarian display name (the source's wording).
        hy: Armenian display name.
        value: points counted in a hand's sum (1..12).
        position: place in the strength list, 1 = strongest (SB-17 tie-break).
    """

    id: str
    en: str
    bg: str
    hy: str
    value: int
    position: int

    @property
    def strength(self) -> int:
        """``41 - position``: 40 for the King of Wolves down to 1 for the Drowned Man."""
        return 41 - self.position


def _read_table() -> dict[str, Any]:
    """``cards.json`` of this package, checked for 40 distinct ids with a value and a name in
    every listed language.

    Raises:
        ValueError: the file does not have that shape (names the offending card).
    """
    text = resources.files(__package__).joinpath("cards.json").read_text(encoding="utf-8")
    table: dict[str, Any] = json.loads(text)
    cards, languages = table["cards"], table["languages"]
    if len({c["id"] for c in cards}) != 40 or len(cards) != 40:
        raise ValueError("cards.json must list 40 distinct card ids")
    for c in cards:
        if type(c["value"]) is not int or set(c["names"]) != set(languages):
            raise ValueError(f"cards.json: card {c['id']!r} needs a value and names in {languages}")
    return table


_TABLE = _read_table()


def card_table() -> dict[str, Any]:
    """The deck document of ``cards.json`` (shape in the module docstring), as a fresh JSON
    object: what ``GET /api/rules/soldiers_bluff/cards`` serves."""
    result: dict[str, Any] = copy_json(_TABLE)
    return result


LANGUAGES: tuple[str, ...] = tuple(_TABLE["languages"])
"""The display-name languages: ``("en", "bg", "hy")``."""

DECK: tuple[Card, ...] = tuple(
    Card(c["id"], c["names"]["en"], c["names"]["bg"], c["names"]["hy"], c["value"], pos)
    for pos, c in enumerate(_TABLE["cards"], start=1)
)
"""All 40 cards, strongest first."""

CARD_IDS: tuple[str, ...] = tuple(c.id for c in DECK)
"""The 40 ids in strength order (the list handed to the shuffle, see ``state.py``)."""

BY_ID: dict[str, Card] = {c.id: c for c in DECK}
VALUE: dict[str, int] = {c.id: c.value for c in DECK}
POSITION: dict[str, int] = {c.id: c.position for c in DECK}

ARMY: frozenset[str] = frozenset(
    ("red_captain", "black_sergeant", "gold_guard", "green_archer", "white_swordsman")
)
"""The army group: the five 7s at positions 6-10."""

SOLDIERS_BLUFF: frozenset[str] = ARMY | {"lord_of_blades"}
"""The Soldier's Bluff combination (rule 9.1): Lord of Blades plus the army group."""

NAMES: dict[str, dict[str, str]] = {
    lang: {c["id"]: c["names"][lang] for c in _TABLE["cards"]} for lang in LANGUAGES
}
"""Display names by language code, then card id."""


def card_name(card_id: str, lang: str = "en") -> str:
    """The display name of ``card_id`` in language ``lang`` (``"en"``, ``"bg"``, ``"hy"``).

    An unknown language falls back to English.

    Raises:
        KeyError: ``card_id`` is not a card of the deck.
    """
    english = NAMES["en"][card_id]
    return NAMES.get(lang, {}).get(card_id, english)
