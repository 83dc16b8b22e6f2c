"""``POST /api/tables`` refuses every number outside its documented bounds (issue 24, row 5).

Before the bounds, a Bazaar Blot ``target_score`` of 2**64 + 1 (or 2**70) got 201, and the
first ``join`` closed the table with reason ``error`` (orjson: "Integer exceeds 64-bit range").
Now each numeric field, of the rules config and of the table, is a 422 naming the field; the
bounds are the engine's (``engine.config.bounds``) and are documented in each game's page.
"""

from __future__ import annotations

import re
import typing
from pathlib import Path
from typing import Any

import httpx

from cardhall.engine import game_names, get_game
from cardhall.engine.config import bounds

HUGE = (2**64 + 1, 2**70, -(2**70))
DOCS = Path(__file__).resolve().parents[2] / "docs"


async def _token(client: httpx.AsyncClient) -> dict[str, str]:
    r = await client.post("/api/players", json={"name": "probe"})
    return {"Authorization": f"Bearer {r.json()['token']}"}


def _bodies() -> list[tuple[str, dict[str, Any]]]:
    """``(field, body)``: each numeric field of each game's config and of the table, huge."""
    out: list[tuple[str, dict[str, Any]]] = []
    for game in game_names():
        rules = get_game(game)
        for value in HUGE:
            for name in bounds(rules.config_cls):
                out.append((name, {"game": game, "config": {name: value}}))
            out.append(("seats", {"game": game, "seats": value}))
            out.append(("turn_timeout_seconds", {"game": game, "turn_timeout_seconds": value}))
            out.append(("seat", {"game": game, "bots": [{"seat": value}]}))
            if rules.uses_stacks:
                out.append(("starting_stack", {"game": game, "starting_stack": value}))
    return out


async def test_a_huge_number_in_any_numeric_field_is_a_422_naming_it(
        client: httpx.AsyncClient) -> None:
    me = await _token(client)
    for field, body in _bodies():
        r = await client.post("/api/tables", headers=me, json=body)
        assert r.status_code == 422, (body, r.status_code, r.text[:300])
        error = r.json()["error"]
        assert error["code"] in ("engine.invalid_config", "request.invalid"), (body, error)
        assert field in error["message"], (body, error)
        if "config" in body:  # the rules config's fields: the engine's code and the bound
            assert error["code"] == "engine.invalid_config"
            bound = bounds(get_game(body["game"]).config_cls)[field]
            assert f"{bound.lo}..{bound.hi}" in error["message"], error
    assert (await client.get("/api/tables")).json() == []  # nothing was created


async def test_the_blot_target_score_of_the_report_is_refused_and_its_bound_accepted(
        client: httpx.AsyncClient) -> None:
    me = await _token(client)
    for value in (18446744073709551617, 2**70, 0, 5001):
        r = await client.post("/api/tables", headers=me,
                              json={"game": "bazaar_blot", "config": {"target_score": value}})
        assert r.status_code == 422 and r.json()["error"]["code"] == "engine.invalid_config"
        assert "'target_score'" in r.json()["error"]["message"]
        assert "1..5000 small points" in r.json()["error"]["message"]
    ok = await client.post("/api/tables", headers=me,
                           json={"game": "bazaar_blot", "config": {"target_score": 5000}})
    assert ok.status_code == 201


def test_every_bound_is_documented_in_the_game_s_page() -> None:
    """Each bounded field's row in ``docs/games/<game>.md`` ("Config") gives ``lo..hi`` and
    the unit, as the engine has them; every whole-number field is bounded."""
    for game in game_names():
        cls = get_game(game).config_cls
        text = (DOCS / "games" / f"{game}.md").read_text(encoding="utf-8")
        hints = typing.get_type_hints(cls)
        numeric = [f for f, hint in hints.items() if hint is int or int in typing.get_args(hint)]
        assert sorted(bounds(cls)) == sorted(numeric), game
        for name, bound in bounds(cls).items():
            row = re.search(rf"^\| `{name}` \|.*$", text, re.M)
            assert row is not None, (game, name)
            assert bound.text() in row.group(0), (game, name, bound.text(), row.group(0))
