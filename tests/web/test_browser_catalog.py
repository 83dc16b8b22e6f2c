"""The browser keeps no list of games (issue 25, "a catalog instead of lists"): the lobby's
game choices, quick seats, rule links, seat ranges, stacks and config inputs, the rules tabs
and the leaderboard tabs are built from ``GET /api/catalog``. Served a changed catalog (a game
left out, another display name, a narrower seat range, other bounds), the pages follow it."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

pytest.importorskip("playwright", reason="the playwright Python package is not installed")
from browserkit import enter  # after the importorskip

from cardhall.engine import game_names

pytestmark = [pytest.mark.slow, pytest.mark.browser]


def _options(page: Any, selector: str, attr: str = "value") -> list[str]:
    return page.eval_on_selector_all(selector, f"es => es.map(e => e.{attr})")


def test_the_lobby_offers_the_registered_games(server: Any, new_page: Any) -> None:
    page = new_page()
    enter(page, server.url, "Cat")
    assert _options(page, "#c-game option") == game_names()
    assert _options(page, "[data-quick]", "dataset.quick") == game_names()
    assert _options(page, "[data-rules-link]", "dataset.rulesLink") == game_names()


def test_the_pages_follow_a_changed_catalog(server: Any, new_page: Any) -> None:
    catalog = httpx.get(server.url + "/api/catalog").json()
    games = {g["name"]: g for g in catalog["games"]}
    del games["palace_poker"]
    games["bazaar_blot"]["titles"]["en"] = "Blot of the Bazaar"
    sb = games["soldiers_bluff"]
    sb["seats"]["max"] = 3
    sb["stacks"]["default"] = 77
    next(f for f in sb["config"] if f["name"] == "ante")["bound"]["hi"] = 9
    catalog["games"] = list(games.values())
    page = new_page()
    page.route("**/api/catalog", lambda route: route.fulfill(
        status=200, content_type="application/json", body=json.dumps(catalog)))
    enter(page, server.url, "Cat")
    names = ["bazaar_blot", "soldiers_bluff"]
    assert _options(page, "#c-game option") == names
    assert _options(page, "#c-game option", "textContent") == ["Blot of the Bazaar",
                                                               "Soldier's Bluff"]
    assert _options(page, "[data-quick]", "dataset.quick") == names
    assert page.locator("[data-quick=bazaar_blot]").inner_text() == "Blot of the Bazaar"
    assert page.locator("#c-cfg-target_score").input_value() == "101"
    assert page.locator("#c-stack").count() == 0  # Blot is played without chips
    page.select_option("#c-game", "soldiers_bluff")
    assert _options(page, "#c-seats option") == ["2", "3"]
    assert page.locator("#c-stack").input_value() == "77"
    ante = page.locator("#c-cfg-ante")
    assert (ante.input_value(), ante.get_attribute("min"), ante.get_attribute("max")) == \
        ("1", "0", "9")
    page.goto(server.url + "/#/rules")
    page.wait_for_selector("[data-rules=bazaar_blot]")  # the first game's page by default
    assert _options(page, ".rules-tabs [data-game]", "dataset.game") == names
    page.goto(server.url + "/#/ratings")
    page.wait_for_selector("[data-tab]")
    tabs = _options(page, "[data-tab]", "dataset.tab")
    assert [t.split(":")[0] for t in tabs[:2]] == names and not any("palace" in t for t in tabs)
