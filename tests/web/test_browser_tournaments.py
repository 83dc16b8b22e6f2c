"""The browser's tournament list and a tournament's page: standings, round tables and each
board's results side by side (``static/js/tournaments.js``; ``docs/tournaments.md``)."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest

pytest.importorskip("playwright", reason="the playwright Python package is not installed")
from browserkit import enter, finished_swiss, post_tournament, shoot  # after the importorskip

pytestmark = [pytest.mark.slow, pytest.mark.browser]


def test_list_and_standings_page(server: Any, new_page: Any, artifacts: Any) -> None:
    doc = finished_swiss(server.url)
    assert doc["status"] == "finished"
    page = new_page()
    enter(page, server.url, "Lena")
    page.click("nav a[href='#/tournaments']")
    row = page.locator(f"[data-tournament-row='{doc['id']}']")
    row.wait_for()
    assert "Spring cup" in row.inner_text()
    row.locator("a").click()
    page.locator("[data-standings] tbody tr").first.wait_for()
    assert page.locator("[data-standings] tbody tr").count() == len(doc["standings"])
    assert page.locator("[data-round]").count() == len(doc["rounds"])
    board = page.locator("[data-board='1-1']")
    assert board.locator("tbody tr").count() == len(
        [t for t in doc["rounds"][0]["tables"] if t["board"] == 1])
    assert board.locator("[data-replay]").count() >= 1
    assert "–" in board.locator("[data-mp]").first.inner_text()  # "2 – 0": a number per side
    assert doc["rounds"][0]["boards"][0]["seed"] in board.inner_text()
    shoot(page, artifacts, "tournament-page")
    page.set_viewport_size({"width": 390, "height": 844})  # phone: no page-wide sideways scroll
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_page_in_bulgarian(server: Any, new_page: Any) -> None:
    doc = finished_swiss(server.url)
    page = new_page()
    enter(page, server.url, "Lena")
    page.select_option("#lang", "bg")
    page.goto(f"{server.url}/#/tournaments/{doc['id']}")
    page.locator("[data-standings]").wait_for()
    assert "Класиране" in page.inner_text("[data-tournament-page]")


def test_create_from_the_form(server: Any, new_page: Any, console: Any) -> None:
    page = new_page()
    enter(page, server.url, "Lena")
    page.goto(f"{server.url}/#/tournaments")
    form = page.locator("[data-tour-form]")
    form.locator("input[name=bots]").fill("2")
    form.locator("input[name=rounds]").fill("3")  # too many Swiss rounds for 2 teams
    form.locator("button[type=submit]").click()
    page.wait_for_selector("[data-form-error]:has-text('at most 1 rounds')")
    assert [e for e in console.errors if "422" in e]  # the refused POST, expected
    console.errors.clear()
    form.locator("input[name=rounds]").fill("1")
    form.locator("input[name=name]").fill("Form cup")
    form.locator("button[type=submit]").click()
    page.locator("[data-tournament-page] h1:has-text('Form cup')").wait_for()


def test_create_a_palace_poker_arena_from_the_form(server: Any, new_page: Any) -> None:
    """The form offers every tournament game and the arena (its window in minutes)."""
    page = new_page()
    enter(page, server.url, "Lena")
    page.goto(f"{server.url}/#/tournaments")
    form = page.locator("[data-tour-form]")
    form.locator("select[name=game]").select_option("palace_poker")
    form.locator("select[name=format]").select_option("arena")
    form.locator("input[name=minutes]").fill("1")
    form.locator("input[name=bots]").fill("4")
    form.locator("input[name=name]").fill("Arena cup")
    form.locator("button[type=submit]").click()
    page.locator("[data-tournament-page] h1:has-text('Arena cup')").wait_for()
    tid = page.url.rsplit("/", 1)[-1]
    doc = page.evaluate(f"fetch('/api/tournaments/{tid}').then((r) => r.json())")
    assert doc["kind"] == "arena" and doc["game"] == "palace_poker"
    assert doc["duration_seconds"] == 60


def test_the_form_keeps_what_was_typed_when_the_list_arrives(server: Any, new_page: Any) -> None:
    """The list page redraws when ``GET /api/tournaments`` answers; a form filled before
    that (a slow server) keeps its values (seen in a loaded run: the defaults were submitted)."""
    page = new_page()
    enter(page, server.url, "Lena")
    held: list[Any] = []
    page.route("**/api/tournaments", lambda route: held.append(route))  # held until released
    with page.expect_request("**/api/tournaments"):
        page.goto(f"{server.url}/#/tournaments")
    page.locator("[data-tour-form] input[name=bots]").fill("2")
    assert held
    held[0].continue_()
    page.wait_for_function("!document.querySelector('[data-tournaments]').textContent"
                           ".includes('Loading')")
    assert page.locator("[data-tour-form] input[name=bots]").input_value() == "2"


def test_a_board_played_at_one_table_says_why_it_scores_nothing(server: Any,
                                                                 new_page: Any) -> None:
    """New-player trial: a board with one table scores 0 for every side under matchpoints
    (nothing to compare), which looked like a bug; the page says why."""
    with httpx.Client(base_url=server.url) as http:
        tid = post_tournament(http, {"game": "soldiers_bluff", "rounds": 1, "boards_per_round": 1,
                                     "bots": 4, "table_size": 4, "name": "Lone board"})
        deadline = time.monotonic() + 90
        while http.get(f"/api/tournaments/{tid}").json()["status"] == "running":
            assert time.monotonic() < deadline
            time.sleep(0.2)
    page = new_page()
    enter(page, server.url, "Lena")
    page.goto(f"{server.url}/#/tournaments/{tid}")
    page.locator("[data-board='1-1'] [data-alone]").wait_for()
    assert "nothing to compare" in page.inner_text("[data-board='1-1']")
