"""The files a game package carries for players, read through the registry: its rule pages
(``GET /api/rules/{game}?lang=``) and, where it has one, its card table
(``GET /api/rules/{game}/cards``).

**Rule pages.** Written by us from the rules specifications (``docs/rules/``) for players, not
engines: one JSON document per game, ``rulebook.json`` in the game's package
(``src/cardhall/games/<game>/``, package data: ``{lang: page}``). A page is ``{"title",
"summary", "sections": [{"id", "title", "paragraphs": [str]}], "glossary": [{"id", "term",
"text"}]}`` in English, Bulgarian and Armenian; glossary ``id``s are the same in every
language, and the browser's table screen explains its game terms (``data-term``) with them.
Each page's ``title`` is the game's display name in that language (the catalog's ``titles``).

**Card tables.** A game whose cards have names (not French cards) keeps them in
``cards.json`` in its package, ``{"game", "languages", "cards": [{"id", "value", "names":
{lang: name}}]}`` in strength order; the engine reads the same file.
"""

from __future__ import annotations

import json
import sys
from functools import cache
from importlib import resources
from typing import Any

from ..engine import EngineError, get_game

LANGUAGES = ("en", "bg", "hy")
"""The languages every page is written in."""

RULE_PAGES = "rulebook.json"
"""The rule pages' file in a game package."""
CARD_TABLE = "cards.json"
"""The card table's file in a game package."""


def _package_file(game: str, name: str) -> str | None:
    """The text of the file ``name`` of the registered game's package, ``None`` for an
    unknown game or a package without it."""
    try:
        rules = get_game(game)
    except EngineError:
        return None
    package = sys.modules[type(rules).__module__].__package__
    if not package:
        return None
    try:
        return resources.files(package).joinpath(name).read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        return None


@cache
def _pages(game: str) -> dict[str, Any] | None:
    text = _package_file(game, RULE_PAGES)
    if text is None:
        return None
    data: dict[str, Any] = json.loads(text)
    return data


def has_pages(game: str) -> bool:
    """Whether the registered game ``game`` has rule pages."""
    return _pages(game) is not None


def titles(game: str) -> dict[str, str]:
    """The game's display name per language (its rule pages' titles; ``{}`` without pages)."""
    pages = _pages(game) or {}
    return {lang: pages[lang]["title"] for lang in LANGUAGES if lang in pages}


def page(game: str, lang: str) -> dict[str, Any] | None:
    """The rule page of ``game`` in ``lang`` (one of :data:`LANGUAGES`) as a fresh JSON
    object with ``game`` and ``lang`` added; ``None`` for a game without a page or another
    language."""
    pages = _pages(game) if isinstance(game, str) else None
    if pages is None or lang not in pages:
        return None
    return {"game": game, "lang": lang, **json.loads(json.dumps(pages[lang]))}


@cache
def _card_table(game: str) -> str | None:
    return _package_file(game, CARD_TABLE)


def has_card_table(game: str) -> bool:
    """Whether the registered game ``game`` has a card table."""
    return _card_table(game) is not None


def card_table(game: str) -> dict[str, Any] | None:
    """The card table of ``game`` as a fresh JSON object, ``None`` for a game without one."""
    text = _card_table(game) if isinstance(game, str) else None
    if text is None:
        return None
    data: dict[str, Any] = json.loads(text)
    return data
