"""Play again in two browsers: Anna and Boris play a Bazaar Blot match to one point (one deal)
with two rule bots by clicking the controls; at the finished screen Anna's "Play again" seats
her at a new table like it, Boris gets the offer banner and "Join" seats him there too."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright", reason="the playwright Python package is not installed")
from browserkit import click_first, enter, fill_picker, my_turn, shoot  # after the importorskip

pytestmark = [pytest.mark.slow, pytest.mark.browser]

PLAY_AGAIN = ".turn-banner [data-play-again]"


def _create_blot_to_one(page: Any) -> str:
    """A four-seat Blot table to 1 point, rule bots at seats 2 and 3 (REST, with the page's
    own guest token); returns its id."""
    return str(page.evaluate("""async () => {
      const me = JSON.parse(localStorage.getItem("cardhall.player"));
      const r = await fetch("/api/tables", { method: "POST", headers: {
        "Content-Type": "application/json", Authorization: `Bearer ${me.token}` },
        body: JSON.stringify({ game: "bazaar_blot", seats: 4, config: { target_score: 1 },
          turn_timeout_seconds: 20, bots: [{ seat: 2, kind: "rule" }, { seat: 3, kind: "rule" }] }) });
      if (r.status !== 201) throw new Error(await r.text());
      return (await r.json()).id;
    }"""))


def _play_both(pages: list[Any], seconds: float = 90.0) -> None:
    """Click the legal controls of whichever page is to act until both show "Play again"."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if all(p.locator(PLAY_AGAIN).count() for p in pages):
            return
        moved = False
        for page in pages:
            if page.locator(PLAY_AGAIN).count() or not my_turn(page):
                continue
            used = click_first(page, [".card[data-act=play]", "[data-act=pass]",
                                      ".controls [data-act]", ".board [data-act]"])
            moved = moved or used is not None or fill_picker(page)
        pages[0].wait_for_timeout(40 if moved else 80)
    raise AssertionError(f"the match did not end within {seconds} s")


def test_play_again_seats_both_at_a_new_table(server: Any, new_page: Any,
                                              artifacts: Path) -> None:
    anna, boris = new_page(), new_page()
    enter(anna, server.url, "Anna")
    enter(boris, server.url, "Boris")
    old = _create_blot_to_one(anna)
    anna.goto(f"{server.url}/#/table/{old}/0")
    boris.goto(f"{server.url}/#/table/{old}/1")
    for page in (anna, boris):
        page.wait_for_selector(".hand [data-card]")
    # the bots sit under readable names with their level in the badge
    badges = anna.locator(".seat [data-bot-level=rule]")
    assert badges.count() == 2 and "rule bot" in badges.first.inner_text()
    assert "Cleo" in anna.locator(".board").inner_text()

    _play_both([anna, boris])
    assert server.table(old).status == "finished"
    # each side reads the score with its own team first (Anna and Boris are opponents)
    scores = []
    for page in (anna, boris):
        text = page.locator(".infobar .kv:has(.k:text-is('Match')) .v").inner_text()
        found = re.match(r"Us (\d+) : (\d+) Them", text)
        assert found, text
        scores.append((int(found.group(1)), int(found.group(2))))
    assert scores[0] == scores[1][::-1], scores
    anna.click(PLAY_AGAIN)
    anna.wait_for_url(re.compile(r"#/table/(?!" + old + r")\w+$"))
    new = anna.url.split("#/table/")[1]
    offer = boris.wait_for_selector(f"[data-rematch-offer='{new}']")
    assert "Anna offers a rematch" in offer.inner_text()
    shoot(boris, artifacts, "play-again")
    boris.click("[data-rematch-join]")
    boris.wait_for_url(re.compile(f"#/table/{new}$"))
    for page in (anna, boris):
        page.wait_for_selector(".hand [data-card]")  # both seated: the new match began
    table = server.table(new)
    # issue 28 item 16: the new table's log begins with its match, and the one who offered it
    # is online to the other
    for page in (anna, boris):
        page.wait_for_selector(".log-list li")
        lines = page.locator(".log-list li").all_inner_texts()
        assert not [x for x in lines if "Joined mid-hand" in x], lines
    assert table.seats[0].conn is not None and not table.seats[0].conn.closed
    assert boris.locator(".board .seat:has(.name:text-is('Anna')) [data-away]").count() == 0
    assert [s.name for s in table.seats] == ["Anna", "Boris", "Cleo", "Dara"]
    assert table.spec.config == {"target_score": 1} and table.spec.bots == {2: "rule", 3: "rule"}
