"""The lobby a page at a time (issue 24, row 10; ``docs/rest.md``, "Lobby: tables").

Before: ``GET /api/tables`` answered every live table's full summary at once (466 KB for 212
waiting ten-seat Palace Poker tables) with no validator, and the browser fetched it every 2 s.
Now a page holds at most ``limit`` (default 50, at most 100) small rows, a ``Link`` header
leads to the next, and an unchanged page is a 304 for its ``ETag``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from typing import Any

import httpx
import pytest

from cardhall.config import Settings
from cardhall.server.app import create_app

WAITING = 212
"""The attacker's figure: waiting tables in the lobby."""


@pytest.fixture
async def http() -> AsyncIterator[httpx.AsyncClient]:
    settings = Settings(database_url="memory://", rest_rate_limit="1000000/minute",
                        guest_rate_limit="1000000/minute", max_live_tables_per_player=1000,
                        max_waiting_tables_per_address=1000)
    app = create_app(settings)
    async with AsyncExitStack() as stack:
        await stack.enter_async_context(app.router.lifespan_context(app))
        transport = httpx.ASGITransport(app=app)
        yield await stack.enter_async_context(
            httpx.AsyncClient(transport=transport, base_url="http://test"))


async def _player(http: httpx.AsyncClient, name: str = "ana") -> dict[str, str]:
    r = await http.post("/api/players", json={"name": name})
    return {"Authorization": f"Bearer {r.json()['token']}"}


async def _tables(http: httpx.AsyncClient, n: int, **body: Any) -> list[str]:
    me = await _player(http)
    ids = []
    for _ in range(n):
        r = await http.post("/api/tables", headers=me,
                            json={"game": "palace_poker", "seats": 10, **body})
        assert r.status_code == 201, r.text
        ids.append(r.json()["id"])
    return ids


async def test_212_waiting_tables_come_in_small_pages_linked_to_the_next(
        http: httpx.AsyncClient) -> None:
    ids = await _tables(http, WAITING)
    first = await http.get("/api/tables")
    assert first.status_code == 200
    assert len(first.json()) == 50 and len(first.content) < 16_000  # was 466 189 bytes
    assert set(first.json()[0]) == {"id", "game", "status", "version", "num_seats",
                                    "seats_taken", "players", "tournament", "watchable", "created_by",
                                    "created_at"}
    seen: list[str] = []
    url: str | None = "/api/tables?limit=100"
    pages = 0
    while url is not None:
        r = await http.get(url)
        assert r.status_code == 200 and len(r.json()) <= 100
        seen += [t["id"] for t in r.json()]
        url = r.links.get("next", {}).get("url")
        pages += 1
    assert pages == 3 and seen == ids  # each table once, oldest first
    assert (await http.get("/api/tables?limit=101")).status_code == 422
    bad = await http.get("/api/tables?cursor=not-a-cursor")
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "request.invalid"
    assert "cursor" in bad.json()["error"]["message"]


async def test_an_unchanged_page_is_a_304_and_a_change_a_new_etag(
        http: httpx.AsyncClient) -> None:
    await _tables(http, 3)
    r = await http.get("/api/tables")
    etag = r.headers["etag"]
    assert r.headers["cache-control"] == "no-cache"
    for sent in (etag, f"W/{etag}", f'"other", {etag}', "*"):
        again = await http.get("/api/tables", headers={"If-None-Match": sent})
        assert again.status_code == 304 and again.content == b"", sent
        assert again.headers["etag"] == etag
    await _tables(http, 1)
    changed = await http.get("/api/tables", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and len(changed.json()) == 4
    assert changed.headers["etag"] != etag
    # a page whose rows are the same but which now has a next page is not the same page
    two = await http.get("/api/tables?limit=4")
    await _tables(http, 1)
    after = await http.get("/api/tables?limit=4", headers={"If-None-Match": two.headers["etag"]})
    assert after.status_code == 200 and after.json() == two.json() and "next" in after.links


async def test_a_row_lists_the_taken_seats_and_view_full_the_summaries(
        http: httpx.AsyncClient) -> None:
    [tid] = await _tables(http, 1, bots=[{"seat": 3, "kind": "random"}])
    [row] = (await http.get("/api/tables")).json()
    assert row["num_seats"] == 10 and row["seats_taken"] == 1
    [bot] = row["players"]
    assert bot["seat"] == 3 and bot["bot"] is True and bot["bot_level"] == "random"
    assert set(bot) == {"seat", "name", "player_id", "bot", "bot_level"}
    [full] = (await http.get("/api/tables?view=full")).json()
    assert full == (await http.get(f"/api/tables/{tid}")).json()
