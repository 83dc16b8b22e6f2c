"""Verifiable shuffles end to end (``docs/fairness.md``): a client joins with a client seed over
the WebSocket, plays a real game against built-in bots, and ``GET /api/games/{id}/verify``
recomputes every deal from the revealed seeds, agreeing with ``cardhall verify``; a tampered
stored history fails it naming the entry; odd client seeds are refused with a typed error."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from livesrv import LiveServer, client, live_server, play_randomly

from cardhall.cli import main as cli_main
from cardhall.engine import verify_history
from cardhall.storage import SeatResult

T0 = datetime(2026, 3, 1, 10, 0, tzinfo=UTC)


async def create_table(live: LiveServer, token: str, **body: Any) -> dict[str, Any]:
    async with live.http as http:
        r = await http.post("/api/tables", json=body, headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


async def verify(live: LiveServer, game_id: str) -> tuple[int, dict[str, Any]]:
    async with live.http as http:
        r = await http.get(f"/api/games/{game_id}/verify")
    return r.status_code, r.json()


@pytest.mark.unverified_saves  # it also stores a tampered copy, which must fail verify
@pytest.mark.parametrize("game,seats", [("soldiers_bluff", 3), ("palace_poker", 2)])
async def test_a_game_played_with_a_client_seed_verifies_over_rest_and_cli(
        game: str, seats: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    async with live_server() as live:
        _, token = await live.player("ana")
        table = await create_table(live, token, game=game, seats=seats,
                                   bots=[{"seat": s, "kind": "rule"} for s in range(1, seats)])
        async with client(live, token) as c:
            await c.send({"type": "join", "table_id": table["id"], "seat": 0,
                          "client_seed": "ana picks this: 42!"})
            await c.expect("joined")
            over = await play_randomly(c, table["id"], 7)
        await live.writer.flush()
        history = over["history"]
        assert history["shuffle"] == "cardhall-shuffle/1"
        assert history["client_seeds"] == ["ana picks this: 42!"] + [None] * (seats - 1)
        status, body = await verify(live, over["game_id"])
        assert status == 200 and body["verified"] is True and body["mismatches"] == []
        assert body["game_id"] == over["game_id"] and body["chance_actions"] >= 1
        assert {k: v for k, v in body.items() if k != "game_id"} == verify_history(history).to_json()
        # the same stored game with one chance action altered
        store = live.store
        doc = json.loads(json.dumps(history))
        index = next(i for i, e in enumerate(doc["actions"]) if e["seat"] is None)
        doc["client_seeds"][0] = "not what ana sent"
        await store.save_game(game_id="tampered", game=game, table_id="t1", history=doc,
                              outcome=doc["outcome"], started_at=T0, ended_at=T0,
                              results=[SeatResult(i, f"p{i}", 0, None, True) for i in range(seats)])
        status, body = await verify(live, "tampered")
        assert status == 200 and body["verified"] is False
        assert body["mismatches"][0]["index"] == index
        status, body = await verify(live, "no-such-game")
        assert status == 404 and body["error"]["code"] == "game.not_found"
    path = tmp_path / "game.json"
    path.write_text(json.dumps(history))
    capsys.readouterr()
    assert cli_main(["verify", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == verify_history(history).to_json()
    path.write_text(json.dumps(doc))
    assert cli_main(["verify", str(path), "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["mismatches"][0]["index"] == index


@pytest.mark.parametrize("join", [
    {"seat": 0, "client_seed": ""},
    {"seat": 0, "client_seed": "x" * 65},
    {"seat": 0, "client_seed": "caf\u00e9"},
    {"seat": 0, "client_seed": "two\nlines"},
    {"seat": 0, "client_seed": 42},
    {"spectate": True, "client_seed": "watching"},
])
async def test_an_odd_client_seed_is_refused_with_a_typed_error(join: dict[str, Any]) -> None:
    async with live_server() as live:
        _, token = await live.player("ana")
        table = await create_table(live, token, game="soldiers_bluff", seats=2,
                                   bots=[{"seat": 1, "kind": "rule"}])
        async with client(live, token) as c:
            await c.send({"type": "join", "table_id": table["id"], **join})
            err = await c.expect("error")
            assert err["code"] == "protocol.invalid_field" and "client_seed" in err["message"]
        tables = live.tables
        t = tables.get(table["id"])
        assert t is not None and not t.seats[0].taken  # nothing changed
