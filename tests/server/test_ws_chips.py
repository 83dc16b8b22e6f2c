"""Poker chips over a real WebSocket and REST (``tables/chips.py``, ``tables/sitout.py``): the
balance answer, a buy-in with the table's range in the state, sitting out during a hand (the
table then waits instead of dealing its bots alone), leaving returns the stack to the balance;
``sit_out`` refusals."""

from __future__ import annotations

from typing import Any

from livesrv import Client, LiveServer, client, live_server

from cardhall.engine.actions import minimal


async def _chips(live: LiveServer, token: str) -> dict[str, Any]:
    async with live.http as http:
        r = await http.get("/api/players/me/chips", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


async def _table(live: LiveServer, token: str, game: str, bots: list[int]) -> str:
    async with live.http as http:
        r = await http.post("/api/tables", headers={"Authorization": f"Bearer {token}"},
                            json={"game": game, "seats": len(bots) + 1,
                                  "bots": [{"seat": s, "kind": "rule"} for s in bots]})
    assert r.status_code == 201, r.text
    assert (r.json()["min_buy_in"] is None) == (game == "bazaar_blot")
    return str(r.json()["id"])


async def _play_out_the_hand(c: Client, tid: str) -> dict[str, Any]:
    """Fold (else the first legal move) at each own turn until the hand is over; the last
    state."""
    state: dict[str, Any] = {}
    n = 0
    while True:
        msg = await c.recv()
        if msg["type"] == "game_over":
            return state
        if msg["type"] != "state":
            continue
        state = msg
        legal = msg["legal_actions"]
        if msg["status"] == "playing" and legal and msg["seat"] in msg["to_act"]:
            fold = [e for e in legal if e["type"] == "fold"]
            n += 1
            await c.send({"type": "act", "table_id": tid, "version": msg["version"],
                          "action_id": f"a{n}", "action": minimal((fold or legal)[0])})


async def test_buy_in_sit_out_and_leave_over_the_socket() -> None:
    async with live_server(turn_timeout_seconds=5.0) as live:
        pid, token = await live.player("ana")
        assert await _chips(live, token) == {"player_id": pid, "balance": 1000, "enabled": True,
                                             "top_up_to": 1000, "top_up_every_seconds": 600.0}
        tid = await _table(live, token, "palace_poker", [1, 2])
        async with client(live, token) as c:
            await c.send({"type": "join", "table_id": tid, "seat": 0, "buy_in": 120})
            await c.expect("joined")
            first = await c.expect("state")
            assert (first["min_buy_in"], first["max_buy_in"]) == (20, 200)
            assert first["seats"][0]["stack"] == 120
            assert (await _chips(live, token))["balance"] == 880
            await c.send({"type": "sit_out", "table_id": tid, "sit_out": True})
            seen = await c.until(lambda m: m["type"] == "state" and m["seats"][0]["sitting_out"])
            assert seen["status"] == "playing"  # the running hand is played to its end
            await _play_out_the_hand(c, tid)
            waiting = await c.until(lambda m: m["type"] == "state" and m["status"] == "waiting")
            assert waiting["seats"][0]["sitting_out"] and waiting["hand"] == 1
            stack = waiting["seats"][0]["stack"]
            assert stack != 120
            await c.send({"type": "leave", "table_id": tid})
            await c.expect("left")  # sent once the step (and its cash-out) is committed
        assert (await _chips(live, token))["balance"] == 880 + stack


async def test_sit_out_refusals() -> None:
    async with live_server() as live:
        _, token = await live.player("bo")
        blot = await _table(live, token, "bazaar_blot", [1, 2, 3])
        poker = await _table(live, token, "soldiers_bluff", [1])
        async with client(live, token) as c:
            await c.send({"type": "join", "table_id": blot, "seat": 0})
            await c.expect("joined")
            await c.send({"type": "sit_out", "table_id": blot, "sit_out": True})
            err = await c.expect("error")
            assert err["code"] == "table.not_poker" and err["request"]["type"] == "sit_out"
            await c.send({"type": "join", "table_id": poker, "spectate": True})
            await c.expect("joined")
            await c.send({"type": "sit_out", "table_id": poker, "sit_out": True})
            assert (await c.expect("error"))["code"] == "table.not_seated"
            await c.send({"type": "sit_out", "table_id": poker, "sit_out": "yes"})
            assert (await c.expect("error"))["code"] == "protocol.invalid_field"
