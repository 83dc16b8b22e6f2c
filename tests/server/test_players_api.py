"""``/api/players`` and bearer-token authentication (design.md sections 6-7)."""

from __future__ import annotations

from typing import Any

import httpx

from cardhall.config import Settings

ADMIN = {"Authorization": "Bearer test-admin-token-0123456789"}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def assert_error(r: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) == {"error"} and body["error"]["code"] == code
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    return dict(body["error"])


async def test_create_guest_returns_token(client: httpx.AsyncClient) -> None:
    r = await client.post("/api/players", json={"name": "  Ann  "})
    assert r.status_code == 201, r.text
    body = r.json()
    assert set(body) == {"id", "name", "bot", "owner_id", "token"}
    assert body["name"] == "Ann" and body["bot"] is False and body["owner_id"] is None
    me = await client.get("/api/players/me", headers=bearer(body["token"]))
    assert me.status_code == 200
    assert me.json() == {"id": body["id"], "name": "Ann", "bot": False, "owner_id": None}


async def test_bot_created_by_a_player_is_owned_by_it(client: httpx.AsyncClient) -> None:
    owner = (await client.post("/api/players", json={"name": "ann"})).json()
    r = await client.post("/api/players", json={"name": "annbot", "bot": True},
                          headers=bearer(owner["token"]))
    assert r.status_code == 201
    assert r.json()["bot"] is True and r.json()["owner_id"] == owner["id"]
    anon = (await client.post("/api/players", json={"name": "stray", "bot": True})).json()
    assert anon["bot"] is True and anon["owner_id"] is None


async def test_creating_with_a_bad_token_is_refused(client: httpx.AsyncClient) -> None:
    r = await client.post("/api/players", json={"name": "x", "bot": True},
                          headers=bearer("nope"))
    assert_error(r, 401, "auth.invalid_token")


async def test_me_without_token_is_401(client: httpx.AsyncClient) -> None:
    r = await client.get("/api/players/me")
    assert_error(r, 401, "auth.missing_token")
    assert r.headers["www-authenticate"] == "Bearer"
    r = await client.get("/api/players/me", headers={"Authorization": "Basic abc"})
    assert_error(r, 401, "auth.missing_token")


async def test_me_with_bad_token_is_401(client: httpx.AsyncClient) -> None:
    assert_error(await client.get("/api/players/me", headers=bearer("x" * 43)),
                 401, "auth.invalid_token")


async def test_banned_player_gets_403_until_unbanned(client: httpx.AsyncClient) -> None:
    ann = (await client.post("/api/players", json={"name": "ann"})).json()
    r = await client.post(f"/api/admin/players/{ann['id']}/ban", headers=ADMIN)
    assert r.status_code == 200 and r.json()["banned"] is True
    assert_error(await client.get("/api/players/me", headers=bearer(ann["token"])),
                 403, "auth.banned")
    r = await client.post(f"/api/admin/players/{ann['id']}/unban", headers=ADMIN)
    assert r.status_code == 200 and r.json()["banned"] is False
    assert (await client.get("/api/players/me", headers=bearer(ann["token"]))).status_code == 200


async def test_bad_bodies_get_typed_422(client: httpx.AsyncClient) -> None:
    for body in ({}, {"name": ""}, {"name": "x" * 33}, {"name": "a\x00b"},
                 {"name": "ann", "extra": 1}, {"name": "ann", "bot": "maybe"}, [1, 2]):
        err = assert_error(await client.post("/api/players", json=body), 422, "request.invalid")
        assert err["details"] and {"loc", "msg", "type"} <= set(err["details"][0])
    r = await client.post("/api/players", content=b"{not json",
                          headers={"Content-Type": "application/json"})
    assert_error(r, 422, "request.invalid")


async def test_oversized_body_gets_413(make_client: Any) -> None:
    client = await make_client(max_body_bytes=100)
    r = await client.post("/api/players", json={"name": "a", "pad": "x" * 200})
    assert_error(r, 413, "request.too_large")

    async def chunks() -> Any:  # no Content-Length: counted while streaming
        for _ in range(5):
            yield b"x" * 40

    r = await client.post("/api/players", content=chunks(),
                          headers={"Content-Type": "application/json"})
    assert_error(r, 413, "request.too_large")
    ok = await client.post("/api/players", json={"name": "small"})
    assert ok.status_code == 201


async def test_unknown_route_uses_the_error_shape(client: httpx.AsyncClient) -> None:
    assert_error(await client.get("/api/nothing"), 404, "request.not_found")
    assert_error(await client.delete("/api/players/me"), 405, "request.method_not_allowed")


def test_settings_default_body_limit_is_positive() -> None:
    assert Settings().max_body_bytes > 0
