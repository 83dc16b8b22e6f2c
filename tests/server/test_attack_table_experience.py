"""Attacks over a real socket and REST on the table-experience features (chips, sit out,
rematch, chat): malformed messages of the new types get a typed error and change nothing;
the chips endpoint tells a caller only its own balance."""

from __future__ import annotations

from typing import Any

from livesrv import LiveServer, client, live_server


async def _chips(live: LiveServer, headers: dict[str, str]) -> Any:
    async with live.http as http:
        return await http.get("/api/players/me/chips", headers=headers)


async def test_bad_messages_of_the_new_types_are_refused_and_change_nothing() -> None:
    async with live_server() as live:
        pid, token = await live.player("ana")
        async with live.http as http:
            r = await http.post("/api/tables", headers={"Authorization": f"Bearer {token}"},
                                json={"game": "palace_poker", "seats": 2,
                                      "bots": [{"seat": 1, "kind": "rule"}]})
            assert r.status_code == 201, r.text
            tid = r.json()["id"]
        async with client(live) as anon:  # before hello
            await anon.send({"type": "rematch", "table_id": tid})
            assert (await anon.expect("error"))["code"] == "auth.required"
        bad: list[dict[str, Any] | str] = [
            *({"type": "join", "table_id": tid, "seat": 0, "buy_in": v}
              for v in (0, -5, 10**7 + 1, 2**70, 100.0, 1e3, "100", True, [100],
                        {"n": 100})),
            {"type": "join", "table_id": tid, "spectate": True, "buy_in": 100},
            {"type": "sit_out", "table_id": tid, "sit_out": 1},
            {"type": "sit_out", "table_id": tid},
            {"type": "sit_out", "table_id": tid, "sit_out": True, "seat": 0},
            {"type": "rematch", "table_id": tid, "extra": 1},
            {"type": "rematch", "table_id": 7},
            {"type": "rematch", "table_id": "x" * 65},
            {"type": "rematch", "table_id": ""},
            {"type": "rematch"},
            {"type": "rematch", "table_id": tid, "rid": "r" * 65},
            {"type": "chat", "table_id": tid, "text": "x" * 201},
            {"type": "chat", "table_id": tid, "text": ""},
            {"type": "chat", "table_id": tid, "text": ["hi"]},
            {"type": "rematch_offer", "table_id": tid},
            {"type": "rematch_ready", "table_id": tid},
        ]
        async with client(live, token) as c:
            for msg in bad:
                await c.send(msg)
                err = await c.expect("error")
                assert err["code"].startswith("protocol."), (msg, err)
            await c.send({"type": "join", "table_id": tid, "seat": 0, "buy_in": 10**7})
            assert (await c.expect("error"))["code"] == "chips.bad_buy_in"
            await c.send({"type": "join", "table_id": tid, "seat": 0, "buy_in": 201})
            assert (await c.expect("error"))["code"] == "chips.bad_buy_in"
            r = await _chips(live, {"Authorization": f"Bearer {token}"})
            assert r.json()["balance"] == 1000  # nothing moved
            await c.send({"type": "join", "table_id": tid, "seat": 0, "buy_in": 100})
            await c.expect("joined")
            state = await c.until(lambda m: m["type"] == "state" and m["status"] == "playing")
            assert state["seats"][0]["stack"] == 100  # the table plays on
            await c.send({"type": "join", "table_id": tid, "buy_in": 50})  # not out of chips
            assert (await c.expect("error"))["code"] == "chips.no_rebuy"
            await c.send({"type": "rematch", "table_id": tid, "rid": "early"})
            err = await c.expect("error")
            assert (err["code"], err["request"]["rid"]) == ("rematch.not_over", "early")
            await c.send({"type": "rematch", "table_id": "no-such-table"})
            assert (await c.expect("error"))["code"] == "table.not_found"
            r = await _chips(live, {"Authorization": f"Bearer {token}"})
            assert r.json() == {"player_id": pid, "balance": 900, "enabled": True,
                                "top_up_to": 1000, "top_up_every_seconds": 600.0}


async def test_the_chips_endpoint_answers_only_the_bearers_balance() -> None:
    async with live_server() as live:
        ana_id, ana = await live.player("ana")
        bob_id, _bob = await live.player("bob")
        assert (await _chips(live, {})).status_code == 401
        assert (await _chips(live, {"Authorization": "Bearer nope"})).status_code == 401
        r = await _chips(live, {"Authorization": f"Bearer {ana}", "X-Player-Id": bob_id})
        assert r.json()["player_id"] == ana_id
        async with live.http as http:
            for path in (f"/api/players/{bob_id}/chips", f"/api/players/me/chips?player_id={bob_id}",
                         f"/api/players/{bob_id}"):
                r = await http.get(path, headers={"Authorization": f"Bearer {ana}"})
                assert r.status_code in (200, 404, 405, 422), (path, r.status_code)
                assert r.status_code != 200 or bob_id not in r.text or "balance" not in r.text, (
                    path, r.text)


async def test_two_sockets_buying_in_at_two_tables_at_once_cannot_spend_a_chip_twice() -> None:
    async with live_server() as live:
        pid, token = await live.player("ana")
        live.store.chips[pid] = 300
        auth = {"Authorization": f"Bearer {token}"}
        tids = []
        async with live.http as http:
            for _ in range(2):  # three seats, one bot: nothing is dealt while ana waits
                r = await http.post("/api/tables", headers=auth, json={
                    "game": "palace_poker", "seats": 3, "bots": [{"seat": 1, "kind": "rule"}]})
                assert r.status_code == 201, r.text
                tids.append(r.json()["id"])
        async with client(live, token) as a, client(live, token) as b:
            await a.send({"type": "join", "table_id": tids[0], "seat": 0, "buy_in": 200})
            await b.send({"type": "join", "table_id": tids[1], "seat": 0, "buy_in": 200})
            answers = [(await c.until(lambda m: m["type"] in ("joined", "error")))
                       for c in (a, b)]
            kinds = sorted(m.get("code", m["type"]) for m in answers)
            assert kinds == ["chips.insufficient", "joined"], answers
            assert (await _chips(live, auth)).json()["balance"] == 100
            for c, tid, m in zip((a, b), tids, answers, strict=True):
                if m["type"] == "joined":
                    await c.send({"type": "leave", "table_id": tid})
                    await c.expect("left")
        assert (await _chips(live, auth)).json()["balance"] == 300
