""""Find a game" in Chromium (issue 29, ``static/js/seek.js``): two players seek the same
two-seat game; the first waits (seconds, rating window, Cancel), the second's seek completes
the group, and both browsers land at the same table, each at its own seat."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytest.importorskip("playwright", reason="the playwright Python package is not installed")
from browserkit import enter, sit_down  # after the importorskip: needs playwright

pytestmark = [pytest.mark.slow, pytest.mark.browser]

TABLE = re.compile(r"#/table/([0-9a-f]+)/(\d)$")


def test_two_seekers_meet_at_one_table(server: Any, new_page: Any) -> None:
    aram = new_page()
    enter(aram, server.url, "Aram")
    assert aram.locator(".row.seek").inner_text().startswith("Find a game:")
    aram.click("[data-seek=soldiers_bluff]")
    waiting = aram.locator("[data-seek-waiting=soldiers_bluff]")
    waiting.wait_for()
    assert "Looking for a Soldier's Bluff game (casual)" in waiting.inner_text()
    assert aram.locator("[data-seek-window]").inner_text() == "ratings 900–1100"
    assert aram.locator("[data-seek-players]").inner_text() == "2 players a table"  # trial
    aram.click("[data-seek-cancel]")  # Cancel goes back to the buttons
    aram.wait_for_selector("[data-seek=soldiers_bluff]")
    aram.click("[data-seek=soldiers_bluff]")
    waiting.wait_for()
    aram.select_option("#lang", "bg")  # the lobby redraws: the seek keeps waiting, in Bulgarian
    assert aram.locator("[data-seek-waiting]").inner_text().startswith(
        "Търси се игра на Войнишки блъф (приятелска)")
    aram.select_option("#lang", "hy")
    assert aram.locator("[data-seek-cancel]").inner_text() == "Չեղարկել"
    aram.select_option("#lang", "en")

    ana = new_page()
    enter(ana, server.url, "Ana")
    ana.click("[data-seek=soldiers_bluff]")
    ana.wait_for_url(TABLE)
    aram.wait_for_url(TABLE, timeout=10_000)  # its next poll finds the match
    a, b = TABLE.search(aram.url), TABLE.search(ana.url)
    assert a and b and a.group(1) == b.group(1) and {a.group(2), b.group(2)} == {"0", "1"}
    for page in (aram, ana):
        sit_down(page)
    for page in (aram, ana):
        page.wait_for_selector(".board .seat.me")
    aram.wait_for_function("document.querySelectorAll('.hand [data-card]').length === 6",
                           timeout=20_000)  # both seated: the hand is dealt
