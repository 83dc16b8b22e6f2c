"""``/api/games``: filters, pagination and history fetch over stored games."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import httpx

from cardhall.storage import SeatResult

T0 = datetime(2026, 3, 1, 10, 0, tzinfo=UTC)


async def _seed(client: httpx.AsyncClient) -> None:
    store = client._transport.app.state.store  # type: ignore[attr-defined]
    specs = [("g0", "bazaar_blot", 0, "p1"), ("g1", "palace_poker", 10, "p2"), ("g2", "bazaar_blot", 20, "p2"),
             ("g3", "bazaar_blot", 30, None)]
    for gid, game, minutes, pid in specs:
        ended = T0 + timedelta(minutes=minutes)
        await store.save_game(
            game_id=gid, game=game, table_id="t9",
            history={"format": "cardhall-history/1", "game": game, "id": gid, "actions": []},
            outcome={"winner": 0}, started_at=ended - timedelta(minutes=3), ended_at=ended,
            results=[SeatResult(0, "ann", 5, pid), SeatResult(1, "bot", -5, None, True)])


async def _ids(client: httpx.AsyncClient, query: str) -> list[str]:
    r = await client.get(f"/api/games{query}")
    assert r.status_code == 200, r.text
    return [g["id"] for g in r.json()["items"]]


async def test_list_shape(client: httpx.AsyncClient) -> None:
    await _seed(client)
    body = (await client.get("/api/games")).json()
    assert body["limit"] == 50 and body["offset"] == 0 and body["next_offset"] is None
    first: dict[str, Any] = body["items"][0]
    assert first["id"] == "g3" and first["game"] == "bazaar_blot" and first["table_id"] == "t9"
    assert datetime.fromisoformat(first["ended_at"]) == T0 + timedelta(minutes=30)
    assert first["outcome"] == {"winner": 0}
    assert first["seats"] == [
        {"seat": 0, "name": "ann", "result": 5, "player_id": None, "bot": False, "mark": "win"},
        {"seat": 1, "name": "bot", "result": -5, "player_id": None, "bot": True, "mark": "loss"}]


async def test_filters(client: httpx.AsyncClient) -> None:
    await _seed(client)
    assert await _ids(client, "") == ["g3", "g2", "g1", "g0"]
    assert await _ids(client, "?game=bazaar_blot") == ["g3", "g2", "g0"]
    assert await _ids(client, "?player=p2") == ["g2", "g1"]
    assert await _ids(client, "?player=p2&game=bazaar_blot") == ["g2"]
    assert await _ids(client, "?since=2026-03-01T10:10:00Z") == ["g3", "g2", "g1"]
    assert await _ids(client, "?until=2026-03-01T10:10:00") == ["g0"]  # naive = UTC
    assert await _ids(client, "?since=2026-03-01T12:05:00%2B02:00&until=2026-03-01T10:25:00Z") \
        == ["g2", "g1"]


async def test_pagination(client: httpx.AsyncClient) -> None:
    await _seed(client)
    page = (await client.get("/api/games?limit=3")).json()
    assert [g["id"] for g in page["items"]] == ["g3", "g2", "g1"] and page["next_offset"] == 3
    page = (await client.get("/api/games?limit=3&offset=3")).json()
    assert [g["id"] for g in page["items"]] == ["g0"] and page["next_offset"] is None


async def test_bad_query_is_typed_422(client: httpx.AsyncClient) -> None:
    for q in ("?limit=0", "?limit=1000", "?offset=-1", "?since=yesterday"):
        r = await client.get(f"/api/games{q}")
        assert r.status_code == 422 and r.json()["error"]["code"] == "request.invalid", q


async def test_get_history_and_404(client: httpx.AsyncClient) -> None:
    await _seed(client)
    r = await client.get("/api/games/g0")  # Blot: published in full by default
    assert r.status_code == 200
    assert r.json() == {"format": "cardhall-history/1", "game": "bazaar_blot", "id": "g0",
                        "actions": []}
    # a poker history this build cannot replay has no table copy: only the full copy exists
    r = await client.get("/api/games/g1")
    assert r.status_code == 404 and r.json()["error"]["code"] == "game.not_found"
    r = await client.get("/api/games/g1?full=1",
                         headers={"Authorization": "Bearer test-admin-token-0123456789"})
    assert r.status_code == 200 and r.json()["game"] == "palace_poker"
    r = await client.get("/api/games/nope")
    assert r.status_code == 404
    assert r.json()["error"]["code"] == "game.not_found"


async def test_unknown_game_filter_is_422_like_creating_a_table(
        client: httpx.AsyncClient) -> None:
    """``?game=blot`` (no such game) is refused as ``POST /api/tables`` refuses it, not an
    empty 200 page."""
    await _seed(client)
    r = await client.get("/api/games?game=blot")
    assert r.status_code == 422 and r.json()["error"]["code"] == "engine.unknown_game"
    assert "blot" in r.json()["error"]["message"]
