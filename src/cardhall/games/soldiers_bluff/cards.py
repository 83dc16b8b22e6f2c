"""The Azraelian deck of Soldier's Bluff as data (rules spec section 1).

Forty unique cards listed in strength order: position 1 (King of Wolves) is strongest, and
``strength = 41 - position``. Each card has a snake_case ``id`` (the wire and history code,
``design.md`` section 3), an English name (our translation), the Bulgarian name of the source
(the original) and a point ``value`` (1..12). Display names are looked up by language code with
:func:`card_name`; the Armenian table is empty for now and falls back to English.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Card:
    """One card of the deck.

    Attributes:
        id: wire code, e.g. ``"king_of_wolves"``.
        en: English display name.
        bg: Bulgarian display name (the source's wording).
        value: points counted in a hand's sum (1..12).
        position: place in the strength list, 1 = strongest (SB-17 tie-break).
    """

    id: str
    en: str
    bg: str
    value: int
    position: int

    @property
    def strength(self) -> int:
        """``41 - position``: 40 for the King of Wolves down to 1 for the Drowned Man."""
        return 41 - self.position


_TABLE: tuple[tuple[str, str, str, int], ...] = (
    ("king_of_wolves", "King of Wolves", "Крал на вълците", 12),
    ("queen_of_roses", "Queen of Roses", "Кралица на розите", 11),
    ("prince_of_serpents", "Prince of Serpents", "Принц на змиите", 10),
    ("lord_of_blades", "Lord of Blades", "Лорд на остриетата", 9),
    ("lady_of_crows", "Lady of Crows", "Дама на враните", 8),
    ("red_captain", "Red Captain", "Червен капитан", 7),
    ("black_sergeant", "Black Sergeant", "Черен сержант", 7),
    ("gold_guard", "Gold Guard", "Златен страж", 7),
    ("green_archer", "Green Archer", "Зелен стрелец", 7),
    ("white_swordsman", "White Swordsman", "Бял мечоносец", 7),
    ("blind_smith", "Blind Smith", "Сляп ковач", 6),
    ("smiling_mason", "Smiling Mason", "Усмихнат зидар", 6),
    ("lonely_miller", "Lonely Miller", "Самотен мелничар", 6),
    ("happy_weaver", "Happy Weaver", "Щастлива тъкачка", 6),
    ("weeping_maid", "Weeping Maid", "Плачеща слугиня", 6),
    ("howling_wolf", "Howling Wolf", "Виещ вълк", 5),
    ("flying_hawk", "Flying Hawk", "Летящ ястреб", 5),
    ("pecking_crow", "Pecking Crow", "Кълвяща врана", 5),
    ("galloping_horse", "Galloping Horse", "Препускащ кон", 5),
    ("sleeping_serpent", "Sleeping Serpent", "Спяща змия", 5),
    ("palace", "Palace", "Дворец", 4),
    ("throne", "Throne", "Трон", 4),
    ("castle", "Castle", "Замък", 4),
    ("crown", "Crown", "Корона", 4),
    ("scroll", "Scroll", "Свитък", 4),
    ("crossed_swords", "Crossed Swords", "Кръстосани мечове", 3),
    ("poisoned_cup", "Poisoned Cup", "Отровна чаша", 3),
    ("bloody_dagger", "Bloody Dagger", "Кървав кинжал", 3),
    ("drawn_bow", "Drawn Bow", "Изпънат лък", 3),
    ("gleaming_axe", "Gleaming Axe", "Лъщяща брадва", 3),
    ("candle", "Candle", "Свещ", 2),
    ("book", "Book", "Книга", 2),
    ("spyglass", "Spyglass", "Далекоглед", 2),
    ("pestle", "Pestle", "Чукало", 2),
    ("quill", "Quill", "Перо", 2),
    ("grey_ship", "Grey Ship", "Сив кораб", 1),
    ("jolly_sailor", "Jolly Sailor", "Весел моряк", 1),
    ("rising_storm", "Rising Storm", "Надигаща се буря", 1),
    ("dark_sea", "Dark Sea", "Тъмно море", 1),
    ("drowned_man", "Drowned Man", "Удавник", 1),
)

DECK: tuple[Card, ...] = tuple(
    Card(cid, en, bg, value, pos) for pos, (cid, en, bg, value) in enumerate(_TABLE, start=1)
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
    "en": {c.id: c.en for c in DECK},
    "bg": {c.id: c.bg for c in DECK},
    "hy": {},
}
"""Display names by language code; a missing entry falls back to English."""


def card_name(card_id: str, lang: str = "en") -> str:
    """The display name of ``card_id`` in language ``lang`` (``"en"``, ``"bg"``, ``"hy"``).

    An unknown language or a missing translation falls back to English.

    Raises:
        KeyError: ``card_id`` is not a card of the deck.
    """
    english = NAMES["en"][card_id]
    return NAMES.get(lang, {}).get(card_id, english)
