"""``cardhall verify`` reads a player's export (``GET /api/players/{id}/games.ndjson``) on
standard input: each line names a game without its history, which the command fetches from
``--url`` (with the player's ``--token``: the full copy, verified; without: the table copy,
checked as far as it goes, exit 3), so ``curl .../games.ndjson | cardhall verify`` checks every
game a player played."""

from __future__ import annotations

import asyncio
import io
import json
from typing import Any

import pytest
from livesrv import LiveServer, client, live_server, play_randomly

from cardhall.cli import main as cli_main


async def _play(live: LiveServer, token: str, seed: int) -> str:
    async with live.http as http:
        r = await http.post("/api/tables", headers={"Authorization": f"Bearer {token}"},
                            json={"game": "soldiers_bluff", "seats": 2,
                                  "bots": [{"seat": 1, "kind": "rule"}]})
    assert r.status_code == 201, r.text
    table = r.json()["id"]
    async with client(live, token) as c:
        await c.send({"type": "join", "table_id": table, "seat": 0,
                      "client_seed": f"my seed {seed}"})
        await c.expect("joined")
        over = await play_randomly(c, table, seed)
    return str(over["game_id"])


async def _verify(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                  export: str, *argv: str) -> tuple[int, list[dict[str, Any]]]:
    monkeypatch.setattr("sys.stdin", io.StringIO(export))
    status = await asyncio.to_thread(cli_main, ["verify", "--json", *argv])
    return status, [json.loads(ln) for ln in capsys.readouterr().out.splitlines()]


async def test_the_players_export_piped_to_verify_checks_every_game(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    async with live_server() as live:
        player, token = await live.player("ana")
        ids = [await _play(live, token, seed) for seed in (1, 2)]
        await live.writer.flush()
        async with live.http as http:
            export = (await http.get(f"/api/players/{player}/games.ndjson")).text
        assert sorted(json.loads(ln)["id"] for ln in export.splitlines()) == sorted(ids)
        url = f"http://127.0.0.1:{live.port}"
        status, rows = await _verify(monkeypatch, capsys, export, "--url", url, f"--token={token}")
        assert status == 0, rows
        assert sorted(r["game_id"] for r in rows[:-1]) == sorted(ids)
        assert all(r["verified"] and r["copy"] == "full" for r in rows[:-1])
        assert rows[-1]["summary"] == {"games": 2, "verified": 2, "table_copy": 0,
                                       "unreadable": 0, "mismatch": 0, "exit": 0}
        status, rows = await _verify(monkeypatch, capsys, export, "--url", url)
        assert status == 3 and all(r["copy"] == "table" for r in rows[:-1])  # no token
        _, other = await live.player("bob")
        status, rows = await _verify(monkeypatch, capsys, export, "--url", url, f"--token={other}")
        assert status == 2 and rows[0]["error"]["code"] == "game.not_participant"
