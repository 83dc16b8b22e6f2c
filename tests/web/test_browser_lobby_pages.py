"""The lobby in Chromium asks only for what it shows (issue 24, row 10): a page of 20 tables
(``GET /api/tables?limit=20``), "More tables" for the next page, and every poll sends the
page's ``ETag`` so that an unchanged page comes back as a 304 without a body. Before, it
fetched every live table's full summary every 2 s."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest
from browserkit import enter

pytestmark = [pytest.mark.slow, pytest.mark.browser]

SHOWN = 20
"""Tables on the lobby's first page (``PAGE_ROWS`` of ``static/js/lobby.js``)."""


def _waiting_tables(base_url: str, n: int) -> list[str]:
    with httpx.Client(base_url=base_url) as http:
        ids = []
        for i in range(n):
            token = http.post("/api/players", json={"name": f"w{i}"}).json()["token"]
            r = http.post("/api/tables", headers={"Authorization": f"Bearer {token}"},
                          json={"game": "palace_poker", "seats": 3})
            assert r.status_code == 201, r.text
            ids.append(r.json()["id"])
        return ids


def test_the_lobby_shows_a_page_polls_it_with_its_etag_and_offers_more(
        server: Any, new_page: Any) -> None:
    made = _waiting_tables(server.url, SHOWN + 5)
    page = new_page()
    seen: list[tuple[str, int, str | None]] = []  # (url, status, If-None-Match sent)
    page.on("response", lambda r: seen.append(
        (r.url, r.status, r.request.headers.get("if-none-match")))
        if "/api/tables?" in r.url or r.url.endswith("/api/tables") else None)
    enter(page, server.url, "Lena")
    page.wait_for_selector("[data-table]")
    assert page.locator("[data-table]").count() == SHOWN
    page.wait_for_selector("[data-more]")
    deadline = time.monotonic() + 10  # the lobby polls every 2 s
    while not any(status == 304 for _, status, _ in seen) and time.monotonic() < deadline:
        page.wait_for_timeout(200)
    assert all("limit=20" in url for url, _, _ in seen), seen
    assert any(status == 304 and sent for _, status, sent in seen), seen
    free = page.locator(f"[data-table='{made[0]}'] [data-join]")
    assert free.count() == 3  # a lobby row lists the taken seats; the others are free to join
    page.click("[data-more]")
    page.wait_for_function(f"document.querySelectorAll('[data-table]').length > {SHOWN}")
    shown = page.eval_on_selector_all("[data-table]", "els => els.map(e => e.dataset.table)")
    assert len(shown) == len(set(shown)) and set(made) <= set(shown)
    assert any("cursor=" in url for url, _, _ in seen)
