"""``/api/admin/players``: the admin token guard, listing, ban/unban."""

from __future__ import annotations

from typing import Any

import httpx

ADMIN = {"Authorization": "Bearer test-admin-token-0123456789"}


def _code(r: httpx.Response) -> tuple[int, str]:
    return r.status_code, r.json()["error"]["code"]


async def test_admin_token_ok_bad_missing(client: httpx.AsyncClient) -> None:
    assert (await client.get("/api/admin/players", headers=ADMIN)).status_code == 200
    bad = await client.get("/api/admin/players", headers={"Authorization": "Bearer wrong"})
    assert _code(bad) == (401, "admin.invalid_token")
    assert _code(await client.get("/api/admin/players")) == (401, "admin.invalid_token")


async def test_a_player_token_is_not_an_admin_token(client: httpx.AsyncClient) -> None:
    ann = (await client.post("/api/players", json={"name": "ann"})).json()
    r = await client.get("/api/admin/players", headers={"Authorization": f"Bearer {ann['token']}"})
    assert _code(r) == (401, "admin.invalid_token")


async def test_admin_disabled_when_token_unset(make_client: Any) -> None:
    for unset in (None, ""):
        client = await make_client(admin_token=unset)
        r = await client.get("/api/admin/players", headers=ADMIN)
        assert _code(r) == (503, "admin.disabled")


async def test_list_players_paginated(client: httpx.AsyncClient) -> None:
    ids = [(await client.post("/api/players", json={"name": f"p{i}"})).json()["id"]
           for i in range(3)]
    page = (await client.get("/api/admin/players?limit=2", headers=ADMIN)).json()
    assert [p["id"] for p in page["items"]] == ids[:2] and page["next_offset"] == 2
    assert set(page["items"][0]) == {"id", "name", "bot", "banned", "owner_id"}
    page = (await client.get("/api/admin/players?limit=2&offset=2", headers=ADMIN)).json()
    assert [p["id"] for p in page["items"]] == ids[2:] and page["next_offset"] is None
    one = await client.get(f"/api/admin/players/{ids[1]}", headers=ADMIN)
    assert one.json()["name"] == "p1"


async def test_unknown_player_is_404(client: httpx.AsyncClient) -> None:
    for r in (await client.get("/api/admin/players/nope", headers=ADMIN),
              await client.post("/api/admin/players/nope/ban", headers=ADMIN),
              await client.post("/api/admin/players/nope/unban", headers=ADMIN)):
        assert _code(r) == (404, "player.not_found")
