"""The browser lobby labels a tournament's tables with the tournament, round and board
(``docs/tournaments.md``, "A round"; ``static/js/lobby.js``)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

pytest.importorskip("playwright", reason="the playwright Python package is not installed")
from browserkit import enter, post_tournament  # after the importorskip

pytestmark = [pytest.mark.slow, pytest.mark.browser]


@pytest.fixture(scope="module")
def server() -> Iterator[Any]:
    """A server whose bots think long, so the tournament's tables stay in the lobby (the
    module's own: ``new_page`` opens it)."""
    from conftest import Server
    srv = Server(bot_delay_seconds=5.0)
    srv.start()
    yield srv
    srv.stop()


def _tournament_tables(base_url: str) -> list[dict[str, Any]]:
    with httpx.Client(base_url=base_url) as http:
        tid = post_tournament(http, {"game": "bazaar_blot", "rounds": 1, "boards_per_round": 2,
                                     "bots": 2, "name": "Winter cup"})
        deadline = time.monotonic() + 20
        while True:
            tables = http.get(f"/api/tournaments/{tid}").json()["rounds"][0]["tables"]
            if all(t["table_id"] for t in tables):
                return tables
            assert time.monotonic() < deadline, tables
            time.sleep(0.05)


def test_the_lobby_labels_tournament_tables(server: Any, new_page: Any) -> None:
    tables = _tournament_tables(server.url)
    page = new_page()
    enter(page, server.url, "Lena")
    for t in tables:
        label = page.locator(f"[data-table='{t['table_id']}'] [data-tournament]")
        label.wait_for()
        assert label.inner_text() == f"Winter cup: round 1, board {t['board']}"
