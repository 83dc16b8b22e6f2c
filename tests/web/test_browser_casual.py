"""Rated or not in the browser (issue 29: "rated or not"): the lobby's create form makes a
casual table ("Casual (no rating changes)": ``rated: false``), the tournament form an unrated
tournament ("Rated" unticked)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

pytest.importorskip("playwright", reason="the playwright Python package is not installed")
from browserkit import create_table, enter  # after the importorskip

pytestmark = [pytest.mark.slow, pytest.mark.browser]


def test_a_casual_table_and_an_unrated_tournament(server: Any, new_page: Any) -> None:
    page = new_page()
    enter(page, server.url, "Lena")
    page.check("#c-casual")
    tid = create_table(page, "bazaar_blot", roles={1: "rule", 2: "rule", 3: "rule"})
    table = httpx.get(f"{server.url}/api/tables/{tid}").json()
    assert table["rated"] is False
    page.goto(f"{server.url}/#/")
    page.wait_for_selector("#c-game")
    tid2 = create_table(page, "bazaar_blot", roles={1: "rule", 2: "rule", 3: "rule"})
    assert httpx.get(f"{server.url}/api/tables/{tid2}").json()["rated"] is True
    page.goto(f"{server.url}/#/tournaments")
    form = page.locator("[data-tour-form]")
    form.locator("input[name=bots]").fill("4")
    form.locator("input[name=rounds]").fill("1")
    form.locator("input[name=rated]").uncheck()
    form.locator("input[name=name]").fill("Casual cup")
    form.locator("button[type=submit]").click()
    page.locator("[data-tournament-page] h1:has-text('Casual cup')").wait_for()
    doc = httpx.get(f"{server.url}/api/tournaments/{page.url.rsplit('/', 1)[-1]}").json()
    assert doc["rated"] is False
