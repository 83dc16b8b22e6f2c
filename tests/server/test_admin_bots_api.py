"""Bot identities: created by a player (``POST /api/players``) or by the admin
(``POST /api/admin/bots``), each with its own token."""

from __future__ import annotations

import httpx

ADMIN = {"Authorization": "Bearer test-admin-token-0123456789"}


async def test_admin_creates_a_bot_with_its_own_token(client: httpx.AsyncClient) -> None:
    r = await client.post("/api/admin/bots", json={"name": "house-bot"}, headers=ADMIN)
    assert r.status_code == 201
    bot = r.json()
    assert bot["bot"] is True and bot["owner_id"] is None and bot["token"]
    me = await client.get("/api/players/me", headers={"Authorization": f"Bearer {bot['token']}"})
    assert me.json() == {"id": bot["id"], "name": "house-bot", "bot": True, "owner_id": None}


async def test_admin_bot_owned_by_a_player(client: httpx.AsyncClient) -> None:
    ann = (await client.post("/api/players", json={"name": "ann"})).json()
    r = await client.post("/api/admin/bots", json={"name": "anns-bot", "owner_id": ann["id"]},
                          headers=ADMIN)
    assert r.status_code == 201 and r.json()["owner_id"] == ann["id"]
    r = await client.post("/api/admin/bots", json={"name": "x", "owner_id": "nobody"},
                          headers=ADMIN)
    assert (r.status_code, r.json()["error"]["code"]) == (404, "player.not_found")


async def test_admin_bots_needs_the_admin_token(client: httpx.AsyncClient) -> None:
    ann = (await client.post("/api/players", json={"name": "ann"})).json()
    r = await client.post("/api/admin/bots", json={"name": "b"},
                          headers={"Authorization": f"Bearer {ann['token']}"})
    assert (r.status_code, r.json()["error"]["code"]) == (401, "admin.invalid_token")
    r = await client.post("/api/admin/bots", json={"name": "\u0007"}, headers=ADMIN)
    assert (r.status_code, r.json()["error"]["code"]) == (422, "request.invalid")


async def test_a_player_creates_an_owned_bot(client: httpx.AsyncClient) -> None:
    ann = (await client.post("/api/players", json={"name": "ann"})).json()
    r = await client.post("/api/players", json={"name": "anns-bot", "bot": True},
                          headers={"Authorization": f"Bearer {ann['token']}"})
    assert r.status_code == 201 and r.json()["bot"] and r.json()["owner_id"] == ann["id"]
