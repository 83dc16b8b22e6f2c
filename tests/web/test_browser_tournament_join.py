"""Joining a tournament in the browser (issue 29, "Must show": a browser test of joining;
``static/js/tourentry.js``; ``docs/tournaments.md``, "People as entrants"): the creator makes
an open Blot tournament from the form, joins it, starts it, and plays at the table the
director made for her (her seat held, her cards dealt), which nobody may watch; another
player sees Join but no Start."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright", reason="the playwright Python package is not installed")
from browserkit import enter  # after the importorskip

pytestmark = [pytest.mark.slow, pytest.mark.browser]


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

    entry.locator("[data-join]").click()
    lena.locator("[data-entered]").wait_for()
    assert "partner is a bot" in lena.locator("[data-entered]").inner_text()
    assert "Lena" in entry.inner_text()
    lena.locator("[data-tour-entry] [data-start]").click()
    link = lena.locator("a[data-my-table]")
    link.wait_for(timeout=20_000)  # the next poll (5 s) shows the table made for her
    table_id = link.get_attribute("data-my-table")
    assert lena.locator(f"[data-watch='{table_id}']").count() == 0  # nobody watches her board
    link.click()
    lena.wait_for_selector(".hand [data-card]")  # her seat, her cards
    assert "Lena" in lena.locator(".board").inner_text()
    bob.goto(f"{server.url}/#/")
    bob.locator(f"[data-table='{table_id}']").wait_for()  # listed, with no Watch button
    assert bob.locator(f"[data-table='{table_id}'] [data-watch]").count() == 0
    bob.goto(f"{server.url}/#/watch/{table_id}")
    bob.wait_for_selector("text=cannot be watched", timeout=10_000)
    console.errors.clear()  # the refused watch is expected
