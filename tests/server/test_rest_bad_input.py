"""Bad REST input gets a typed error and creates nothing (``design.md`` section 7)."""

from __future__ import annotations

from typing import Any

import pytest
from httpx import ASGITransport, AsyncClient

from cardhall.config import Settings
from cardhall.server.app import create_app


@pytest.fixture
async def http() -> Any:
    app = create_app(Settings(database_url="memory://", admin_token="admin-secret"))
    async with app.router.lifespan_context(app), AsyncClient(
            transport=ASGITransport(app=app), base_url="http://t") as c:
        _, token = await app.state.store.create_player("ana")
        c.headers["Authorization"] = f"Bearer {token}"
        c.app = app  # type: ignore[attr-defined]
        yield c


@pytest.mark.parametrize(("body", "code"), [
    ({"game": "soldiers_bluff", "seats": "2"}, "request.invalid"),
    ({"game": "soldiers_bluff", "seats": 2.0}, "request.invalid"),
    ({"game": "soldiers_bluff", "seats": True}, "request.invalid"),
    ({"game": "soldiers_bluff", "turn_timeout_seconds": "5"}, "request.invalid"),
    ({"game": "soldiers_bluff", "starting_stack": 1000.0}, "request.invalid"),
    ({"game": "soldiers_bluff", "bots": [{"seat": "1"}]}, "request.invalid"),
    ({"game": "soldiers_bluff", "starting_stack": 0}, "engine.invalid_config"),
    ({"game": "soldiers_bluff", "starting_stack": 10**20}, "engine.invalid_config"),
    ({"game": "palace_poker", "starting_stack": 10_000_001}, "engine.invalid_config"),
])
async def test_create_table_rejects_wrong_types_and_out_of_range_stacks(
        http: AsyncClient, body: dict[str, Any], code: str) -> None:
    r = await http.post("/api/tables", json=body)
    assert r.status_code == 422 and r.json()["error"]["code"] == code, r.text
    assert http.app.state.tables.list() == []  # type: ignore[attr-defined]


async def test_the_largest_starting_stack_is_accepted(http: AsyncClient) -> None:
    r = await http.post("/api/tables", json={"game": "soldiers_bluff",
                                             "starting_stack": 10_000_000})
    assert r.status_code == 201, r.text


async def test_other_bodies_are_strict_too(http: AsyncClient) -> None:
    r = await http.post("/api/players", json={"name": "bo", "bot": "yes"})
    assert r.json()["error"]["code"] == "request.invalid"
    r = await http.post("/api/tables/quick-seat", json={"game": 5})
    assert r.json()["error"]["code"] == "request.invalid"
    r = await http.post("/api/tables", json={"game": "soldiers_bluff"})
    tid = r.json()["id"]
    r = await http.post(f"/api/admin/tables/{tid}/kick", json={"seat": "0"},
                        headers={"Authorization": "Bearer admin-secret"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "request.invalid"


async def test_huge_offsets_and_over_nested_bodies_are_typed_422s(
        make_client: Any) -> None:  # memory and SQLite stores
    http = await make_client()
    for url in ("/api/games?offset=" + "9" * 30, "/api/games?offset=9999999999999999999",
                "/api/admin/players?offset=" + "9" * 20):
        r = await http.get(url, headers={"Authorization": "Bearer test-admin-token-0123456789"})
        assert r.status_code == 422 and r.json()["error"]["code"] == "request.invalid", r.text
    r = await http.get("/api/games?offset=1000000000")
    assert r.status_code == 200 and r.json()["items"] == []
    deep = '{"game": "soldiers_bluff", "config": ' + '{"a": ' * 3000 + "1" + "}" * 3001
    r = await http.post("/api/tables", content=deep,
                        headers={"content-type": "application/json"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "request.invalid", r.text


async def test_admin_routes_on_a_table_that_is_closing_answer_not_found(
        http: AsyncClient) -> None:
    r = await http.post("/api/tables", json={"game": "soldiers_bluff"})
    tid = r.json()["id"]
    table = http.app.state.tables.get(tid)  # type: ignore[attr-defined]
    table.stopped = True  # its task is ending but the registry has not dropped it yet
    admin = {"Authorization": "Bearer admin-secret"}
    for method, url, body in (("GET", f"/api/admin/tables/{tid}", None),
                              ("POST", f"/api/admin/tables/{tid}/kick", {"seat": 0})):
        r = await http.request(method, url, json=body, headers=admin)
        assert r.status_code == 404 and r.json()["error"]["code"] == "table.not_found", r.text
    table.stopped = False


async def test_a_starting_stack_below_the_ante_is_refused_at_creation(http: AsyncClient) -> None:
    # It used to be accepted; once two seats joined, the table closed with reason "error".
    r = await http.post("/api/tables", json={"game": "palace_poker", "seats": 2,
                                             "config": {"small_bet": 10}, "starting_stack": 3})
    assert r.status_code == 422, r.text
    error = r.json()["error"]
    assert error["code"] == "engine.invalid_config" and "starting_stack" in error["message"]
    assert http.app.state.tables.list() == []  # type: ignore[attr-defined]
    r = await http.post("/api/tables", json={"game": "palace_poker", "seats": 2,
                                             "config": {"small_bet": 10}, "starting_stack": 5})
    assert r.status_code == 201, r.text


async def test_the_table_limit_is_a_typed_503_for_create_and_quick_seat() -> None:
    # quick-seat at the limit answered a bare text/plain 500 (an uncaught RuntimeError).
    app = create_app(Settings(database_url="memory://", max_tables=1))
    async with app.router.lifespan_context(app), AsyncClient(
            transport=ASGITransport(app=app), base_url="http://t") as http:
        _, token = await app.state.store.create_player("ana")
        http.headers["Authorization"] = f"Bearer {token}"
        r = await http.post("/api/tables", json={"game": "bazaar_blot"})
        assert r.status_code == 201, r.text
        for path, body in (("/api/tables", {"game": "soldiers_bluff"}),
                           ("/api/tables/quick-seat", {"game": "soldiers_bluff"})):
            r = await http.post(path, json=body)
            assert r.status_code == 503, r.text
            assert r.json()["error"]["code"] == "table.limit"
            assert "max_tables=1" in r.json()["error"]["message"]
        assert len(app.state.tables.list()) == 1


async def test_admin_kick_of_a_missing_seat_or_table_is_typed(http: AsyncClient) -> None:
    admin = {"Authorization": "Bearer admin-secret"}
    r = await http.post("/api/tables", json={"game": "soldiers_bluff"})
    table_id = r.json()["id"]
    r = await http.post(f"/api/admin/tables/{table_id}/kick", json={"seat": 7}, headers=admin)
    assert r.status_code == 422 and r.json()["error"]["code"] == "table.bad_seat", r.text
    r = await http.post("/api/admin/tables/nope/kick", json={"seat": 0}, headers=admin)
    assert r.status_code == 404 and r.json()["error"]["code"] == "table.not_found", r.text
