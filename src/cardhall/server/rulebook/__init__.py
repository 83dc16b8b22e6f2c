"""The players' rule pages (``GET /api/rules/{game}?lang=``): how a hand goes, what each
control does, scoring with an example, and a glossary, in English, Bulgarian and Armenian.

Written by us from the rules specifications (``docs/rules/``) for players, not engines: one
JSON document per game in this package (``<game>.json``: ``{lang: page}``). A page is
``{"title", "summary", "sections": [{"id", "title", "paragraphs": [str]}], "glossary":
[{"id", "term", "text"}]}``; glossary ``id``s are the same in every language, and the
browser's table screen explains its game terms (``data-term``) with them.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

LANGUAGES = ("en", "bg", "hy")
"""The languages every page is written in."""


@cache
def _pages(game: str) -> dict[str, Any] | None:
    try:
        text = resources.files(__name__).joinpath(f"{game}.json").read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        return None
    data: dict[str, Any] = json.loads(text)
    return data


def games() -> list[str]:
    """The games that have a rule page (sorted)."""
    return sorted(p.name[:-5] for p in resources.files(__name__).iterdir()
                  if p.name.endswith(".json"))


def page(game: str, lang: str) -> dict[str, Any] | None:
    """The rule page of ``game`` in ``lang`` (one of :data:`LANGUAGES`) as a fresh JSON
    object with ``game`` and ``lang`` added; ``None`` for a game without a page or another
    language."""
    pages = _pages(game) if game.isidentifier() else None
    if pages is None or lang not in pages:
        return None
    return {"game": game, "lang": lang, **json.loads(json.dumps(pages[lang]))}
