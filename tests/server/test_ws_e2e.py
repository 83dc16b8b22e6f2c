"""End to end: the real app under uvicorn, real WebSocket clients, the toy games.

(Bazaar Blot's full match over sockets is in ``test_ws_blot.py``.)
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from livesrv import Audit, LiveServer, client, live_server, play_randomly

from cardhall.engine import History, replay, table_copy

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tables"))
from toygame import register

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> None:
    register(monkeypatch)


async def create_table(live: LiveServer, token: str, **body: Any) -> dict[str, Any]:
    async with live.http as http:
        r = await http.post("/api/tables", json=body, headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


async def test_two_clients_and_a_spectator_play_a_game_saved_and_replayed(
        toy: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import asyncio
    async with live_server() as live:
        audit = Audit(live, monkeypatch)
        (pa, ta), (pb, tb), (pe, te) = [await live.player(n) for n in ("ana", "bob", "eve")]
        table = await create_table(live, ta, game="toy_duel", seats=2, config={"cards_each": 4})
        tid = table["id"]
        async with client(live, ta) as a, client(live, tb) as b, client(live, te) as eve:
            await eve.send({"type": "join", "table_id": tid, "spectate": True})
            await eve.expect("state")
            await a.send({"type": "join", "table_id": tid, "seat": 0})
            assert (await a.expect("joined"))["seat_token"]
            await b.send({"type": "join", "table_id": tid})
            assert (await b.expect("joined"))["seat"] == 1
            over_a, over_b = await asyncio.gather(play_randomly(a, tid, 1),
                                                  play_randomly(b, tid, 2))
            over_e = await eve.expect("game_over")
            assert over_a == over_b  # each player's full copy, the spectator the table copy
            assert over_e == {**over_a, "history": table_copy(over_a["history"])}
            assert "seed" not in over_e["history"]
            for pid, c in ((pa, a), (pb, b), (pe, eve)):
                assert audit.violations(pid, c.frames) == []
            spectator_views = [m["view"] for m in eve.received if m["type"] == "state"]
            assert spectator_views and all(v is None or v["hand"] is None for v in spectator_views)
            states = [m for m in a.received if m["type"] == "state"]
            assert all(m["table_id"] == tid and isinstance(m["version"], int) for m in states)
        # saved once; the history replays (in-process and with `cardhall replay`) to the outcome
        await live.writer.flush()  # the game writer saves off the table's task
        games = await live.store.list_games(game="toy_duel")
        assert len(games) == 1
        history = await live.store.get_game(games[0].id)
        assert history == over_a["history"] and history["seed"]
        state = replay(History.from_json(history))
        assert state.outcome.to_json() == history["outcome"] == games[0].outcome


def test_cli_replays_a_saved_history(toy: None, tmp_path: Path) -> None:
    """``cardhall replay`` on a history the server saved (toy game: run in a subprocess that
    registers the toy game first)."""
    import asyncio

    async def make() -> dict[str, Any]:
        async with live_server() as live:
            _, token = await live.player("ana")
            table = await create_table(live, token, game="toy_duel", seats=2,
                                       bots=[{"seat": 1, "kind": "random"}])
            async with client(live, token) as c:
                await c.send({"type": "join", "table_id": table["id"], "seat": 0})
                over = await play_randomly(c, table["id"], 3)
            return over["history"]  # type: ignore[no-any-return]

    history = asyncio.run(make())
    path = tmp_path / "game.json"
    path.write_text(json.dumps(history))
    tables_dir = str(ROOT / "tests" / "tables")
    code = (
        f"import sys; sys.path.insert(0, {tables_dir!r}); import pytest;"
        "from toygame import register; mp = pytest.MonkeyPatch(); register(mp);"
        f"from cardhall.cli import main; sys.exit(main(['replay', {str(path)!r}]))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, env={"PYTHONPATH": str(ROOT / "src")}, timeout=60)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["finished"] and result["outcome"] == history["outcome"]


async def seated_pair(live: LiveServer, timeout: float, **body: Any) -> tuple[Any, ...]:
    (_, ta), (_, tb) = await live.player("ana"), await live.player("bob")
    table = await create_table(live, ta, game="toy_duel", seats=2,
                               turn_timeout_seconds=timeout, **body)
    return table["id"], ta, tb


async def test_silent_seat_is_moved_by_its_timeout_action(toy: None) -> None:
    async with live_server() as live:
        tid, ta, tb = await seated_pair(live, 1.0)
        async with client(live, ta) as a, client(live, tb) as b:
            await a.send({"type": "join", "table_id": tid, "seat": 0})
            await b.send({"type": "join", "table_id": tid, "seat": 1})
            st = await a.until(lambda m: m["type"] == "state" and m["status"] == "playing")
            assert 0 < st["deadline_ms"] <= 1000 and st["turn_timeout_ms"] == 1000
            first = st["timer_seat"]
            ev = await a.until(lambda m: m["type"] == "events" and m["timeout"])
            assert ev["seat"] == first and ev["events"][0]["kind"] == "played"
        table = live.tables.get(tid)
        logged = [x for x in table.recorder.history.actions if x.seat is not None]
        assert logged[0].timeout and logged[0].t_ms >= 900


@pytest.mark.slow
async def test_silent_seat_is_moved_after_the_default_ten_seconds(toy: None) -> None:
    import asyncio
    async with live_server() as live:
        tid, ta, tb = await seated_pair(live, 10.0)
        async with client(live, ta) as a, client(live, tb) as b:
            await a.send({"type": "join", "table_id": tid, "seat": 0})
            await b.send({"type": "join", "table_id": tid, "seat": 1})
            await a.until(lambda m: m["type"] == "state" and m["status"] == "playing")
            t0 = asyncio.get_running_loop().time()
            ev = await a.until(lambda m: m["type"] == "events" and m["timeout"])
            waited = asyncio.get_running_loop().time() - t0
        assert 9.5 <= waited <= 11.0, waited
        assert ev["timeout"]


async def test_disconnect_and_reconnect_resumes_the_seat_with_a_snapshot(toy: None) -> None:
    async with live_server() as live:
        tid, ta, tb = await seated_pair(live, 60.0)
        async with client(live, tb) as b:
            async with client(live, ta) as a:
                await a.send({"type": "join", "table_id": tid, "seat": 0})
                token = (await a.expect("joined"))["seat_token"]
                await b.send({"type": "join", "table_id": tid, "seat": 1})
                before = await a.until(lambda m: m["type"] == "state" and m["status"] == "playing")
            # a is gone; b keeps playing if it is its turn
            if before["to_act"] == [1]:
                st = await b.until(lambda m: m["type"] == "state" and m["legal_actions"])
                await b.send({"type": "act", "table_id": tid, "version": st["version"],
                              "action_id": "b1", "action": st["legal_actions"][0]})
                await b.expect("accepted")
            table = live.tables.get(tid)
            assert table.seats[0].taken and table.seats[0].conn is None
            async with client(live, ta) as a2:
                await a2.send({"type": "join", "table_id": tid})
                joined = await a2.expect("joined")
                assert joined["resumed"] and joined["seat"] == 0 and joined["seat_token"] == token
                snap = await a2.expect("state")
                assert snap["version"] == table.version and snap["seat"] == 0
                assert snap["view"] == table.recorder.state.view(0)
                assert snap["legal_actions"] == table.recorder.state.legal_actions(0)
                assert [m["type"] for m in a2.received] == ["welcome", "joined", "state"]


async def test_server_runs_the_websockets_sansio_implementation() -> None:
    async with live_server() as live:
        assert live.server is not None
        assert live.server.config.ws_protocol_class.__name__ == "WebSocketsSansIOProtocol"
        async with client(live) as c:
            await c.send({"type": "ping", "nonce": 1})
            assert (await c.expect("pong"))["nonce"] == 1


async def test_rest_lobby_and_admin(toy: None) -> None:
    async with live_server() as live:
        _, token = await live.player("ana")
        auth = {"Authorization": f"Bearer {token}"}
        admin = {"Authorization": "Bearer admin-secret"}
        async with live.http as http:
            bad_config = {"game": "toy_duel", "config": {"cards_each": 9}}
            r = await http.post("/api/tables", json=bad_config, headers=auth)
            assert r.status_code == 422 and r.json()["error"]["code"] == "engine.invalid_config"
            r = await http.post("/api/tables", json={"game": "nope"}, headers=auth)
            assert r.json()["error"]["code"] == "engine.unknown_game"
            r = await http.post("/api/tables", json={"game": "toy_duel"})
            assert r.status_code == 401
            r = await http.post("/api/tables", headers=auth, json={
                "game": "toy_duel", "seats": 3, "bots": [{"seat": 2, "kind": "random"}]})
            assert r.status_code == 201
            tid = r.json()["id"]
            listed = (await http.get("/api/tables")).json()
            assert [t["id"] for t in listed] == [tid] and listed[0]["seats_taken"] == 1
            assert (await http.get(f"/api/tables/{tid}")).json()["status"] == "waiting"
            assert (await http.get("/api/tables/zzz")).status_code == 404
            q = (await http.post("/api/tables/quick-seat", json={"game": "toy_duel"},
                                 headers=auth)).json()
            assert q["table_id"] == tid and q["seat"] == 0
            assert (await http.get("/api/admin/tables")).status_code == 401
            bad = await http.get("/api/admin/tables", headers={"Authorization": "Bearer x"})
            assert bad.json()["error"]["code"] == "admin.invalid_token"
            assert len((await http.get("/api/admin/tables", headers=admin)).json()) == 1
            inspect = (await http.get(f"/api/admin/tables/{tid}", headers=admin)).json()
            assert inspect["version"] >= 1 and "snapshot" not in inspect  # no game yet
            kick = await http.post(f"/api/admin/tables/{tid}/kick", json={"seat": 2}, headers=admin)
            assert kick.json() == {"kicked": True, "changed": True, "stand_in": False,
                                   "reason": None}
            again = await http.post(f"/api/admin/tables/{tid}/kick", json={"seat": 2},
                                    headers=admin)
            assert again.json() == {"kicked": False, "changed": False, "stand_in": False,
                                    "reason": "seat empty"}
            stats = (await http.get("/api/admin/stats", headers=admin)).json()
            assert stats["tables"] == 1 and stats["seats_taken"] == 0
            closed = await http.post(f"/api/admin/tables/{tid}/close", headers=admin)
            assert closed.json() == {"closed": True, "changed": True, "reason": None}
            assert (await http.get("/api/tables")).json() == []
