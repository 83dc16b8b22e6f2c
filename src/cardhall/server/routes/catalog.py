"""``GET /api/catalog``: every registered game and its facts, in one answer (``docs/rest.md``,
"Catalog").

The one list of games is the registry (``engine/registry.py``); this answer is built from it
and from each game's rules object, config class and package files, so the browser's lobby,
rules and ratings pages keep no list of their own: display names (per language, from the
game's rule pages), seat ranges, starting stacks (poker games), every rules-config field with
its default and bounds, rated or not, the rule pages and card table, the replay unit. The
answer only changes with a new build or other settings: it carries an ``ETag`` and ``Cache-
Control: no-cache``, and an ``If-None-Match`` naming the tag gets 304 with no body.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from functools import cache
from typing import Annotated, Any, Literal

import orjson
from fastapi import APIRouter, Header, Response
from pydantic import BaseModel

from ...config import Settings
from ...engine import GameRules, game_names, get_game
from ...engine.config import bounds, config_to_dict
from .. import rulebook
from ..deps import SettingsDep
from ..etags import etag_matches, etag_of

router = APIRouter(prefix="/api", tags=["rules"])

FieldKind = Literal["int", "number", "bool", "choice", "text", "list"]


class Bound(BaseModel):
    """A whole-number field's documented range: ``lo <= value <= hi`` in ``unit``."""

    lo: int
    hi: int
    unit: str


class ConfigField(BaseModel):
    """One field of a game's rules config (``POST /api/tables`` ``config``)."""

    name: str
    kind: FieldKind
    """``int`` (whole number, with ``bound``), ``number``, ``bool``, ``choice`` (one of
    ``choices``), ``text`` or ``list``."""
    default: Any
    """The value a table gets when the field is left out (``null``: the rule's default, e.g.
    an ante derived from the bets)."""
    nullable: bool
    """Whether ``null`` is a value of the field."""
    bound: Bound | None = None
    choices: list[str | int | bool] | None = None


class SeatRange(BaseModel):
    """The seat counts a table of the game may have."""

    min: int
    max: int


class Stacks(BaseModel):
    """Starting stacks of a game played with chips (``POST /api/tables`` ``starting_stack``)."""

    default: int
    """Chips a seat starts with when the table sets none (``CARDHALL_DEFAULT_STARTING_STACK``)."""
    min: int
    max: int
    """``CARDHALL_MAX_STARTING_STACK``."""
    min_to_deal: int
    """Chips a seat needs to be dealt in under the default config (the ante)."""


class RulePages(BaseModel):
    """Where the game's pages for players are."""

    page: str
    """``GET`` it with ``?lang=`` (``/api/rules/{game}``)."""
    languages: list[str]
    cards: str | None = None
    """The card table's path (``/api/rules/{game}/cards``), ``null`` for French cards."""


class ReplayUnitInfo(BaseModel):
    """The replay viewer's unit of "step by": its name and the event kinds that end one."""

    name: str
    ends_with: list[str]


class CatalogGame(BaseModel):
    """A registered game's facts."""

    name: str
    title: str
    """Display name (English)."""
    titles: dict[str, str]
    """Display name per language."""
    seats: SeatRange
    stacks: Stacks | None
    """``null``: the game is played without chips."""
    config: list[ConfigField]
    rated: bool
    """Whether finished games are rated (leaderboards, ``docs/rest.md`` "Ratings")."""
    teams: int
    """Fixed partnerships (the team of seat ``s`` is ``s % teams``); ``0``: none."""
    rules: RulePages | None
    replay_unit: ReplayUnitInfo | None


class TurnTime(BaseModel):
    """The turn time a table may set (``turn_timeout_seconds``), in seconds."""

    default: float
    min: float
    max: float


class Catalog(BaseModel):
    """Every registered game, sorted by name, and the table settings common to all."""

    games: list[CatalogGame]
    languages: list[str]
    turn_timeout_seconds: TurnTime


def _kind(hint: Any) -> tuple[FieldKind, bool, list[Any] | None]:
    """``(kind, nullable, choices)`` of a config field's type hint."""
    args = typing.get_args(hint)
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        rest = [a for a in args if a is not type(None)]
        kind, _, choices = _kind(rest[0] if len(rest) == 1 else Any)
        return kind, len(rest) < len(args), choices
    if typing.get_origin(hint) is Literal:
        return "choice", False, list(args)
    if typing.get_origin(hint) is tuple:
        return "list", False, None
    simple: dict[Any, FieldKind] = {bool: "bool", int: "int", float: "number"}
    return simple.get(hint, "text"), False, None


def config_fields(cls: type) -> list[ConfigField]:
    """Every field of the rules-config dataclass ``cls``, in field order."""
    hints = typing.get_type_hints(cls)
    defaults = config_to_dict(cls())
    found = bounds(cls)
    out = []
    for f in dataclasses.fields(cls):
        kind, nullable, choices = _kind(hints[f.name])
        b = found.get(f.name)
        out.append(ConfigField(name=f.name, kind=kind, default=defaults[f.name], nullable=nullable,
                               bound=None if b is None else Bound(lo=b.lo, hi=b.hi, unit=b.unit),
                               choices=choices))
    return out


def _game(rules: GameRules[Any], settings: Settings) -> CatalogGame:
    name = rules.name
    stacks = None
    if rules.uses_stacks:
        stacks = Stacks(default=settings.default_starting_stack, min=1,
                        max=settings.max_starting_stack, min_to_deal=rules.min_stack(rules.config()))
    pages = None
    if rulebook.has_pages(name):
        pages = RulePages(page=f"/api/rules/{name}", languages=list(rulebook.titles(name)),
                          cards=f"/api/rules/{name}/cards" if rulebook.has_card_table(name) else None)
    unit = rules.replay_unit
    return CatalogGame(
        name=name, title=rules.title, titles=rulebook.titles(name) or {"en": rules.title},
        seats=SeatRange(min=rules.min_seats, max=rules.max_seats), stacks=stacks,
        config=config_fields(rules.config_cls), rated=True, teams=rules.teams, rules=pages,
        replay_unit=None if unit is None else ReplayUnitInfo(name=unit.name,
                                                             ends_with=sorted(unit.ends_with)))


def catalog(settings: Settings) -> Catalog:
    """The catalog under ``settings`` (stacks and turn times come from them)."""
    return Catalog(games=[_game(get_game(n), settings) for n in game_names()],
                   languages=list(rulebook.LANGUAGES),
                   turn_timeout_seconds=TurnTime(default=settings.turn_timeout_seconds,
                                                 min=settings.min_turn_timeout_seconds,
                                                 max=settings.max_turn_timeout_seconds))


@cache
def _encoded(default_stack: int, max_stack: int, turn: tuple[float, float, float]) -> bytes:
    """The catalog's JSON, built once per set of the settings it reads."""
    settings = Settings.model_construct(
        default_starting_stack=default_stack, max_starting_stack=max_stack,
        turn_timeout_seconds=turn[0], min_turn_timeout_seconds=turn[1],
        max_turn_timeout_seconds=turn[2])
    return orjson.dumps(catalog(settings).model_dump(mode="json"))


CATALOG_HEADERS = {
    "ETag": {"description": "Of the answer: send it back in ``If-None-Match``",
             "schema": {"type": "string"}},
    "Cache-Control": {"description": "``no-cache``: revalidate with the ETag",
                      "schema": {"type": "string"}},
}


@router.get("/catalog", response_model=Catalog, responses={
    200: {"headers": CATALOG_HEADERS},
    304: {"description": "Unchanged since the ``If-None-Match`` ETag (no body)",
          "headers": {"ETag": CATALOG_HEADERS["ETag"]}}})
async def get_catalog(
    settings: SettingsDep,
    if_none_match: Annotated[str | None, Header(max_length=1024)] = None,
) -> Response:
    """Every registered game with its display names, seat range, stacks, rules-config fields
    (defaults and bounds), rated or not, teams, rule pages and replay unit, and the turn
    times a table may set. No token needed. Carries an ``ETag``; an ``If-None-Match`` naming
    it gets 304 with no body."""
    body = _encoded(settings.default_starting_stack, settings.max_starting_stack,
                    (settings.turn_timeout_seconds, settings.min_turn_timeout_seconds,
                     settings.max_turn_timeout_seconds))
    headers = {"Cache-Control": "no-cache", "ETag": etag_of(body)}
    if if_none_match is not None and etag_matches(if_none_match, headers["ETag"]):
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/json", headers=headers)
