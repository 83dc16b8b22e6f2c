"""A tournament's table says which board of which round it is, linking to the tournament's
page (``static/js/table.js`` ``tourLine``; ``docs/tournaments.md``, "In the browser")."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

pytest.importorskip("playwright", reason="the playwright Python package is not installed")
from browserkit import enter  # after the importorskip

pytestmark = [pytest.mark.slow, pytest.mark.browser]


@pytest.fixture(scope="module")
def server() -> Iterator[Any]:
    """A server whose bots think long, so the tournament's tables stay live while watched."""
    from conftest import Server
    srv = Server(bot_delay_seconds=5.0)
    srv.start()
    yield srv
    srv.stop()


def test_a_table_says_its_round_and_board(server: Any, new_page: Any) -> None:
    with httpx.Client(base_url=server.url) as http:
        token = http.post("/api/players", json={"name": "org"}).json()["token"]
        body = {"game": "bazaar_blot", "rounds": 1, "boards_per_round": 1, "bots": 2, "name": "Spring cup"}
        r = http.post("/api/tournaments", headers={"Authorization": f"Bearer {token}"}, json=body)
        assert r.status_code == 201, r.text
        tid = r.json()["id"]
        deadline = time.monotonic() + 20
        while not (table := http.get(f"/api/tournaments/{tid}").json()["rounds"][0]["tables"][0])["table_id"]:
            assert time.monotonic() < deadline
            time.sleep(0.05)
    page = new_page()
    enter(page, server.url, "Lena")
    page.goto(f"{server.url}/#/watch/{table['table_id']}")
    line = page.locator(f"[data-table-tournament='{tid}']")
    line.wait_for()
    assert line.inner_text() == f"Spring cup: round 1, board {table['board']}"
    line.click()
    page.locator("[data-tournament-page]").wait_for()
