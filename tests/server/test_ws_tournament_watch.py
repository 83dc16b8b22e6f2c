"""Following a tournament over the WebSocket (``watch_tournament``; ``docs/protocol.md``,
"Tournaments"): the document at once, then after every change (a join, the start, tables,
rounds, the end), the same as ``GET /api/tournaments/{id}``; typed refusals."""

from __future__ import annotations

from livesrv import client, live_server

OPEN = {"game": "bazaar_blot", "format": "swiss", "rounds": 1, "boards_per_round": 1,
        "duplicate": True, "bots": 3, "open": True, "starts_in_seconds": 3600}


async def test_a_watcher_sees_the_join_the_start_and_the_end() -> None:
    async with live_server(turn_timeout_seconds=0.3) as live:
        _pid, token = await live.player("ana")
        auth = {"Authorization": f"Bearer {token}"}
        async with live.http as http:
            tid = (await http.post("/api/tournaments", json=OPEN, headers=auth)).json()["id"]
            async with client(live, token) as c:
                await c.send({"type": "watch_tournament", "tournament_id": tid, "rid": "w1"})
                first = await c.expect("tournament")
                assert first["rid"] == "w1" and first["document"]["status"] == "registering"
                assert "request" not in first["document"]
                await http.post(f"/api/tournaments/{tid}/join", headers=auth)
                joined = await c.until(lambda m: m["type"] == "tournament"
                                       and len(m["document"]["entrants"]) == 4)
                assert joined["rid"] is None
                await http.post(f"/api/tournaments/{tid}/start", headers=auth)
                running = await c.until(lambda m: m["type"] == "tournament"
                                        and m["document"]["status"] == "running")
                assert all(b["seed"] is None for b in running["document"]["rounds"][0]["boards"])
                done = await c.until(lambda m: m["type"] == "tournament"
                                     and m["document"]["status"] == "finished")
                rest = (await http.get(f"/api/tournaments/{tid}")).json()
                assert done["document"] == rest


async def test_unknown_tournament_and_stop_watching() -> None:
    async with live_server() as live:
        _pid, token = await live.player("ana")
        async with client(live) as anon:
            await anon.send({"type": "watch_tournament", "tournament_id": "x"})
            assert (await anon.expect("error"))["code"] == "auth.required"
        async with client(live, token) as c:
            await c.send({"type": "watch_tournament", "tournament_id": "nope", "rid": "a"})
            err = await c.expect("error")
            assert err["code"] == "tournament.not_found" and err["request"]["rid"] == "a"
            await c.send({"type": "watch_tournament", "tournament_id": None})
            await c.send({"type": "ping", "nonce": 1})
            assert (await c.until(lambda m: m["type"] in ("pong", "tournament",
                                                          "error")))["type"] == "pong"
        assert not live.app.state.tournaments.watchers
