"""``/api/rules``: rules data the browser draws with, served from the games' own files.

``GET /api/rules/{game}/cards`` answers a game's card table: the deck document of the game
package's ``cards.json`` (ids in strength order, values, display names in every language; for
Soldier's Bluff the engine's own copy), so the browser keeps no copy of it. Games whose cards
need no table (the French-card games) and unknown games answer 404 ``request.not_found``.

``GET /api/rules/{game}?lang=en|bg|hy`` answers the players' rule page of a game
(:mod:`cardhall.server.rulebook`): how a hand goes, the controls, scoring with an example
and a glossary whose term ids the table screen uses for its tooltips.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query
from pydantic import BaseModel

from ...engine import game_names
from .. import rulebook
from ..errors import ApiError, responses

router = APIRouter(prefix="/api/rules", tags=["rules"])

class CardEntry(BaseModel):
    id: str
    value: int
    """Points the card is worth."""
    names: dict[str, str]
    """Display name by language code."""


class CardTable(BaseModel):
    """A game's card table: cards in strength order (first = strongest)."""

    game: str
    languages: list[str]
    cards: list[CardEntry]


@router.get("/{game}/cards", response_model=CardTable, responses=responses("request.not_found"))
async def card_table(
    game: Annotated[str, Path(max_length=32, description="Game name")],
) -> dict[str, Any]:
    """The card table of ``game`` (a game with named cards): ``{"game", "languages",
    "cards": [{"id", "value", "names": {lang: name}}]}``, cards in strength order. 404
    ``request.not_found`` for a game without a card table."""
    table = rulebook.card_table(game)
    if table is None:
        with_one = [g for g in game_names() if rulebook.has_card_table(g)]
        raise ApiError("request.not_found",
                       f"no card table for game {game!r}; games with one: {with_one}")
    return table


class RuleSection(BaseModel):
    id: str
    """Stable section id (``hand``, ``controls``, ``battle``, ``scoring``)."""
    title: str
    paragraphs: list[str]


class GlossaryEntry(BaseModel):
    id: str
    """Stable term id, the same in every language (the table's ``data-term``)."""
    term: str
    text: str


class RulePage(BaseModel):
    """A game's rules written for players, in one language."""

    game: str
    lang: Literal["en", "bg", "hy"]
    title: str
    summary: str
    sections: list[RuleSection]
    glossary: list[GlossaryEntry]


@router.get("/{game}", response_model=RulePage, responses=responses("request.not_found"))
async def rule_page(
    game: Annotated[str, Path(max_length=32, description="Game name")],
    lang: Annotated[Literal["en", "bg", "hy"], Query(description="Language")] = "en",
) -> dict[str, Any]:
    """The rules of ``game`` for players in ``lang`` (default English): ``{"game", "lang",
    "title", "summary", "sections": [{"id", "title", "paragraphs"}], "glossary": [{"id",
    "term", "text"}]}``. 404 ``request.not_found`` for a game without a page; another
    ``lang`` is 422."""
    found = rulebook.page(game, lang)
    if found is None:
        raise ApiError("request.not_found",
                       f"no rule page for game {game!r}; games with one: "
                       f"{[g for g in game_names() if rulebook.has_pages(g)]}")
    return found
