"""Every admin route that changes something logs one ``cardhall.admin`` line with ``who``,
``action`` and ``target`` (``server/audit.py``); reading routes log nothing."""

from __future__ import annotations

import json
import logging

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
