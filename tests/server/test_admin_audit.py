"""Every admin route that changes something logs one ``cardhall.admin`` line with ``who``,
``action`` and ``target`` (``server/audit.py``); reading routes log nothing."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import httpx
import pytest

from cardhall.server.audit import admin_action
from cardhall.server.observability import configure_logging

ADMIN = {"Authorization": "Bearer test-admin-token-0123456789"}


def audit(caplog: pytest.LogCaptureFixture) -> list[tuple[str, str, str]]:
    return [(r.who, r.action, r.target) for r in caplog.records  # type: ignore[attr-defined]
            if r.name == "cardhall.admin"]


async def test_each_changing_admin_route_logs_one_line(client: httpx.AsyncClient,
                                                       caplog: pytest.LogCaptureFixture) -> None:
    ann = (await client.post("/api/players", json={"name": "ann"})).json()
    auth = {"Authorization": f"Bearer {ann['token']}"}
    table = (await client.post("/api/tables", json={"game": "bazaar_blot"}, headers=auth)).json()
    tid = table["id"]
    with caplog.at_level(logging.INFO, logger="cardhall.admin"):
        await client.get("/api/admin/tables", headers=ADMIN)
        await client.get("/api/admin/players", headers=ADMIN)
        assert audit(caplog) == []
        r = await client.post(f"/api/admin/tables/{tid}/kick", json={"seat": 0}, headers=ADMIN)
        assert r.status_code == 200, r.text
        assert (await client.post(f"/api/admin/players/{ann['id']}/ban",
                                  headers=ADMIN)).status_code == 200
        assert (await client.post(f"/api/admin/players/{ann['id']}/unban",
                                  headers=ADMIN)).status_code == 200
        bot = (await client.post("/api/admin/bots", json={"name": "house"}, headers=ADMIN)).json()
        assert (await client.post(f"/api/admin/tables/{tid}/close",
                                  headers=ADMIN)).status_code == 200
        await client.post("/api/admin/players/nobody/ban", headers=ADMIN)  # 404: changes nothing
    assert audit(caplog) == [("admin", "table.kick", tid), ("admin", "player.ban", ann["id"]),
                             ("admin", "player.unban", ann["id"]),
                             ("admin", "bot.create", bot["id"]),
                             ("admin", "table.close", tid)]


def test_the_audit_fields_are_json_keys(capsys: pytest.CaptureFixture[str]) -> None:
    configure_logging("json")
    try:
        admin_action("player.ban", "p1", kicked_seats=["t1:0"])
        [line] = [json.loads(x) for x in capsys.readouterr().err.splitlines()]
    finally:
        logging.getLogger().handlers[:] = []
    assert line["who"] == "admin" and line["action"] == "player.ban"
    assert line["target"] == "p1" and line["kicked_seats"] == ["t1:0"]
    assert line["logger"] == "cardhall.admin" and line["event"] == "admin player.ban p1"


async def test_admin_actions_are_stored_and_listed_newest_first(client: httpx.AsyncClient) -> None:
    ann = (await client.post("/api/players", json={"name": "ann"})).json()
    bot = (await client.post("/api/admin/bots", json={"name": "annbot", "owner_id": ann["id"]},
                             headers=ADMIN)).json()
    first = await client.post(f"/api/admin/players/{ann['id']}/ban", headers=ADMIN)
    assert first.json()["changed"] and first.json()["bots_banned"] == [bot["id"]]
    second = await client.post(f"/api/admin/players/{ann['id']}/ban",
                               headers={**ADMIN, "X-Request-ID": "0123456789abcdef0123456789abcdef"})
    assert (second.json()["changed"], second.json()["bots_banned"]) == (False, [])
    page = (await client.get("/api/admin/audit", headers=ADMIN)).json()
    assert [(e["action"], e["target"]) for e in page["items"]] == [
        ("player.ban", ann["id"]), ("player.ban", ann["id"]), ("bot.create", bot["id"])]
    newest = page["items"][0]
    assert newest["who"] == "admin" and newest["request_id"] == "0123456789abcdef0123456789abcdef" and newest["client"]
    assert newest["details"]["changed"] is False
    assert page["items"][1]["details"]["bots_banned"] == [bot["id"]]
    bans = (await client.get("/api/admin/audit?action=bot.create", headers=ADMIN)).json()
    assert [e["target"] for e in bans["items"]] == [bot["id"]]
    one = (await client.get(f"/api/admin/audit?target={ann['id']}&limit=1",
                            headers=ADMIN)).json()
    assert len(one["items"]) == 1 and one["next_offset"] == 1
    assert (await client.get("/api/admin/audit")).status_code == 401


async def test_a_slow_audit_store_does_not_hang_the_request(make_client: Any) -> None:
    client = await make_client(db_timeout_seconds=0.05)
    store = client._transport.app.state.store  # type: ignore[attr-defined]

    async def stuck(_entry: Any) -> Any:
        await asyncio.Event().wait()  # a database that never answers

    store.add_audit = stuck
    bot = await client.post("/api/admin/bots", json={"name": "house"}, headers=ADMIN)
    assert bot.status_code == 201  # the action happened; the line was logged, the row not
