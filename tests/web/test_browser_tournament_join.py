"""Joining a tournament in the browser (issue 29, "Must show": a browser test of joining;
``static/js/tourentry.js``; ``docs/tournaments.md``, "People as entrants"): the creator makes
an open Blot tournament from the form, joins it, starts it, and plays at the table the
director made for her (her seat held, her cards dealt; the page takes her there as soon as
the table is made), which nobody may watch; another player sees Join but no Start."""

from __future__ import annotations

import re
import time
from typing import Any

import httpx
import pytest

pytest.importorskip("playwright", reason="the playwright Python package is not installed")
from browserkit import enter, post_tournament  # after the importorskip

pytestmark = [pytest.mark.slow, pytest.mark.browser]
ADMIN = "web-admin-token"  # the web server fixture's (tests/web/conftest.py)


def test_join_start_and_play_at_your_table(server: Any, new_page: Any, console: Any) -> None:
    lena = new_page()
    enter(lena, server.url, "Lena")
    lena.goto(f"{server.url}/#/tournaments")
    form = lena.locator("[data-tour-form]")
    form.locator("input[name=bots]").fill("3")
    form.locator("input[name=rounds]").fill("1")
    form.locator("input[name=boards_per_round]").fill("1")
    form.locator("input[name=open]").check()
    form.locator("input[name=starts_in]").fill("30")
    form.locator("input[name=name]").fill("Open cup")
    form.locator("button[type=submit]").click()
    lena.locator("[data-tournament-page] h1:has-text('Open cup')").wait_for()
    entry = lena.locator("[data-tour-entry=registering]")
    entry.wait_for()
    assert "3 of 32" in entry.inner_text() and entry.locator("[data-start]").count() == 1
    tid = lena.url.rsplit("/", 1)[-1]

    bob = new_page()
    enter(bob, server.url, "Bob")
    bob.goto(f"{server.url}/#/tournaments/{tid}")
    bob.locator("[data-tour-entry=registering] [data-join]").wait_for()
    assert bob.locator("[data-tour-entry] [data-start]").count() == 0  # only the creator starts
    assert bob.locator("[data-tour-entry] [data-cancel]").count() == 0
    assert entry.locator("[data-cancel]").count() == 1

    entry.locator("[data-join]").click()
    lena.locator("[data-entered]").wait_for()
    assert "partner is a bot" in lena.locator("[data-entered]").inner_text()
    assert "Lena" in entry.inner_text()
    lena.locator("[data-tour-entry] [data-start]").click()
    # the page follows the tournament (watch_tournament) and takes her to her table at once
    lena.wait_for_url(re.compile(r"#/table/"), timeout=10_000)
    table_id = lena.url.split("#/table/")[1].split("/")[0]
    lena.wait_for_selector(".hand [data-card]")  # her seat, her cards
    assert "Lena" in lena.locator(".board").inner_text()
    lena.goto(f"{server.url}/#/tournaments/{tid}")  # back on the page: it does not bounce her
    link = lena.locator(f"a[data-my-table='{table_id}']")
    link.wait_for()
    assert "#/tournaments/" in lena.url
    assert lena.locator(f"[data-watch='{table_id}']").count() == 0  # nobody watches her board
    bob.goto(f"{server.url}/#/")
    bob.locator(f"[data-table='{table_id}']").wait_for()  # listed, with no Watch button
    assert bob.locator(f"[data-table='{table_id}'] [data-watch]").count() == 0
    bob.goto(f"{server.url}/#/watch/{table_id}")
    bob.wait_for_selector("text=cannot be watched", timeout=10_000)
    console.errors.clear()  # the refused watch is expected


def test_the_creator_cancels_from_the_page(server: Any, new_page: Any) -> None:
    page = new_page()
    enter(page, server.url, "Lena")
    with httpx.Client(base_url=server.url) as http:
        token = page.evaluate("JSON.parse(localStorage.getItem('cardhall.player')).token")
        r = http.post("/api/tournaments", headers={"Authorization": f"Bearer {token}"},
                      json={"game": "bazaar_blot", "rounds": 1, "bots": 3, "open": True,
                            "starts_in_seconds": 600, "name": "Called off"})
        assert r.status_code == 201, r.text
    page.goto(f"{server.url}/#/tournaments/{r.json()['id']}")
    page.locator("[data-tour-entry=registering] [data-cancel]").click()
    page.locator("[data-tour-entry=cancelled]").wait_for()
    assert "creator" in page.inner_text("[data-tour-entry]")


def test_a_closed_tournament_table_goes_back_to_the_tournament(server: Any, new_page: Any,
                                                               console: Any) -> None:
    """The director closes a tournament table once its game is recorded; the table page then
    goes back to the tournament's page (which takes the player on to the next table)."""
    with httpx.Client(base_url=server.url) as http:
        tid = post_tournament(http, {"game": "bazaar_blot", "rounds": 1, "boards_per_round": 1,
                                     "bots": 4, "name": "Watch cup"})
        deadline = time.monotonic() + 30
        while True:  # bounded: until its first table is made
            tables = http.get(f"/api/tournaments/{tid}").json()["rounds"][0]["tables"]
            made = [t["table_id"] for t in tables if t["table_id"]]
            if made:
                break
            assert time.monotonic() < deadline
            time.sleep(0.05)
    page = new_page()
    enter(page, server.url, "Vera")
    page.goto(f"{server.url}/#/watch/{made[0]}")
    page.locator("[data-table-tournament]").wait_for()
    r = httpx.post(f"{server.url}/api/admin/tables/{made[0]}/close",
                   headers={"Authorization": f"Bearer {ADMIN}"})
    # the admin's close hurries it; on a slow machine the bots may have finished the match and
    # the director closed the table first (a fresh-clone run saw that): either way it closes
    assert r.status_code == 200 or r.json()["error"]["code"] == "table.not_found", r.text
    page.wait_for_url(re.compile(rf"#/tournaments/{tid}"), timeout=10_000)
    page.locator("[data-tournament-page]").wait_for()
    console.errors.clear()
