"""Every REST route declares its 2xx body in OpenAPI, and declaring it changed no answer.

The lobby, admin, replay, rules-data and meta routes used to return bare dicts; they now have
response models (``response_model=``). The models must document the body without changing a
byte of what is answered: these tests compare the answer with the JSON of the dict the route
computes, and with ``docs/rest.md``'s examples' keys.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
from fastapi import Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from test_replay_api import _save

from cardhall.cluster import ops
from cardhall.server.routes import admin, games, lobby
from cardhall.tables.lobby import lobby_row
from cardhall.tables.manager import TableManager

ADMIN = {"Authorization": "Bearer test-admin-token-0123456789"}  # conftest.ADMIN_TOKEN


def raw_bytes(value: Any) -> bytes:
    """What the route answered before it had a response model (a bare ``JSONResponse``)."""
    return bytes(JSONResponse(value).body)


def same_json(model: type[BaseModel], raw: dict[str, Any], *, exclude_unset: bool = False) -> bool:
    """``raw`` through ``model`` serializes to the same keys, order and values."""
    dumped = model.model_validate(raw).model_dump(mode="json", by_alias=True,
                                                  exclude_unset=exclude_unset)
    return json.dumps(dumped) == json.dumps(raw)


async def _player(client: httpx.AsyncClient) -> dict[str, str]:
    token = (await client.post("/api/players", json={"name": "Ann"})).json()["token"]
    return {"Authorization": f"Bearer {token}"}


def _body_schema(content: dict[str, Any]) -> Any:
    """The documented schema of a JSON body, or of each line of an NDJSON one."""
    body = content.get("application/json") or content.get("application/x-ndjson") or {}
    return body.get("schema", {})


def test_every_route_documents_a_json_2xx_body(client: httpx.AsyncClient) -> None:
    app = client._transport.app  # type: ignore[attr-defined]
    undocumented = []
    for path, item in app.openapi()["paths"].items():
        for method, op in item.items():
            ok = {k: v for k, v in op["responses"].items() if k.startswith("2")}
            schemas = [_body_schema(v.get("content", {})) for v in ok.values()]
            if not ok or any(not s for s in schemas):
                undocumented.append(f"{method.upper()} {path}")
    assert undocumented == []


async def test_lobby_and_admin_answers_are_byte_identical(client: httpx.AsyncClient) -> None:
    manager: TableManager = client._transport.app.state.tables  # type: ignore[attr-defined]
    me = await _player(client)
    created = await client.post("/api/tables", headers=me, json={
        "game": "palace_poker", "seats": 3, "bots": [{"seat": 1}], "starting_stack": 100})
    assert created.status_code == 201
    table = manager.get(created.json()["id"])
    assert table is not None
    assert created.content == raw_bytes(table.summary())
    assert (await client.get(f"/api/tables/{table.id}")).content == raw_bytes(table.summary())
    assert (await client.get("/api/tables")).content == raw_bytes(
        [lobby_row(t.summary()) for t in manager.list()])
    assert (await client.get("/api/tables?view=full")).content == raw_bytes(
        [t.summary() for t in manager.list()])
    listed = await admin.admin_list_tables(client._transport.app.state.hall,  # type: ignore[attr-defined]
                                           Response())
    assert (await client.get("/api/admin/tables", headers=ADMIN)).content == raw_bytes(listed)
    inspected = await table.call(ops.inspect)
    assert "snapshot" not in inspected  # waiting: no game yet, the keys are left out
    got = await client.get(f"/api/admin/tables/{table.id}", headers=ADMIN)
    assert got.content == raw_bytes(inspected)
    assert (await client.get("/api/admin/stats", headers=ADMIN)).content == raw_bytes(
        {**manager.stats(), "nodes": 1, "tables_by_node": None, "unreachable": []})
    quick = await client.post("/api/tables/quick-seat", headers=me, json={"game": "palace_poker"})
    assert quick.content == raw_bytes({"table_id": table.id, "seat": quick.json()["seat"],
                                       "table": table.summary()})
    kick = await client.post(f"/api/admin/tables/{table.id}/kick", headers=ADMIN,
                             json={"seat": 0})
    assert kick.json() == {"kicked": False, "changed": False, "stand_in": False,
                           "reason": "seat empty"}
    close = await client.post(f"/api/admin/tables/{table.id}/close", headers=ADMIN)
    assert close.json() == {"closed": True, "changed": True, "reason": None}


async def test_inspect_of_a_running_game_keeps_snapshot_and_history(
        client: httpx.AsyncClient) -> None:
    manager: TableManager = client._transport.app.state.tables  # type: ignore[attr-defined]
    table = await manager.create("palace_poker", num_seats=2, bots={0: "rule", 1: "rule"})
    inspected: dict[str, Any] = {}
    for _ in range(200):  # bots start the game within a few inbox steps; no sleeping
        inspected = await table.call(ops.inspect)
        if "snapshot" in inspected:
            break
    assert "snapshot" in inspected and "history" in inspected
    assert same_json(admin.TableInspect, inspected, exclude_unset=True)


async def test_replay_cards_health_and_asyncapi_answers_are_byte_identical(
        client: httpx.AsyncClient) -> None:
    app = client._transport.app  # type: ignore[attr-defined]
    await _save(client, "soldiers_bluff", 2)
    from types import SimpleNamespace

    from cardhall.server.copies import Reader
    raw = await games.replay_step(SimpleNamespace(app=app),  # type: ignore[arg-type]
                                  "r1", app.state.store, app.state.settings, Reader(admin=True),
                                  seat=1, step=3, full=True)
    got = await client.get("/api/games/r1/replay?seat=1&step=3&full=1",
                           headers={"Authorization": "Bearer test-admin-token-0123456789"})
    assert got.content == raw_bytes(raw)
    from cardhall.games.soldiers_bluff import cards
    got = await client.get("/api/rules/soldiers_bluff/cards")
    assert got.content == raw_bytes(cards.card_table())
    from cardhall.server.asyncapi import document
    assert (await client.get("/asyncapi.json")).content == raw_bytes(document())
    health = (await client.get("/healthz")).json()
    assert list(health) == ["status", "version", "games"]


def test_table_summary_models_match_the_wire_shape() -> None:
    """The lobby model lists exactly the summary's keys, in its order (``docs/rest.md``)."""
    assert list(lobby.TablePublic.model_fields) == [
        "id", "game", "status", "version", "num_seats", "seats_taken", "seats_out_of_chips",
        "min_buy_in", "max_buy_in", "seats", "hand", "turn_timeout_seconds", "config", "next_seed_commitment", "private",
        "tournament", "watchable", "rated", "created_by",
        "created_at", "last_active_at"]


async def test_a_405_lists_every_documented_method_of_the_path(client: httpx.AsyncClient) -> None:
    """Found by schemathesis: Starlette's ``Allow`` named only the first route's method."""
    r = await client.delete("/api/tables")
    assert r.status_code == 405 and r.headers["allow"] == "GET, POST"
    assert r.json()["error"]["code"] == "request.method_not_allowed"
    r = await client.options("/api/tables/quick-seat")
    assert r.status_code == 405 and r.headers["allow"] == "POST"


async def test_games_since_until_refuse_a_bare_number(client: httpx.AsyncClient) -> None:
    """Found by schemathesis: ``until=0.5`` was read as a Unix time; they are ISO 8601 times."""
    r = await client.get("/api/games?until=0.5")
    assert r.status_code == 422 and r.json()["error"]["code"] == "request.invalid"
    assert (await client.get("/api/games?until=2026-03-01T10:00:00")).status_code == 200
