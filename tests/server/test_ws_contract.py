"""The bot author's contract, behaviour side: a join that both watches and sits, a leave of a
table never joined, and an amount beyond 64 bits are each refused with a typed error that
changes nothing (``docs/protocol.md``, "Error codes")."""

from __future__ import annotations

from livesrv import client, live_server

BIG = 2**70


async def _table(live, token: str, **body: object) -> str:  # type: ignore[no-untyped-def]
    async with live.http as http:
        r = await http.post("/api/tables", json=body, headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


async def test_join_with_spectate_and_a_seat_is_refused() -> None:
    async with live_server() as live:
        _, token = await live.player("ana")
        tid = await _table(live, token, game="soldiers_bluff", seats=2)
        async with client(live, token) as c:
            for extra in ({"seat": 0}, {"seat_token": "abc"}):
                await c.send({"type": "join", "table_id": tid, "spectate": True, "rid": "j1",
                              **extra})
                err = await c.expect("error")
                assert err["code"] == "protocol.invalid_field"
                assert next(iter(extra)) in err["message"] and "spectate" in err["message"]
                assert err["request"] == {"type": "join", "rid": "j1", "action_id": None}
            table = live.tables.get(tid)
            assert not table.spectators and not any(s.taken for s in table.seats)
            await c.send({"type": "join", "table_id": tid, "spectate": True})
            assert (await c.expect("joined"))["role"] == "spectator"


async def test_leave_of_a_table_never_joined_is_an_error() -> None:
    async with live_server() as live:
        _, token = await live.player("ana")
        tid = await _table(live, token, game="soldiers_bluff", seats=2)
        v = live.tables.get(tid).version
        async with client(live, token) as c:
            await c.send({"type": "leave", "table_id": tid, "rid": "l1"})
            err = await c.expect("error")
            assert err["code"] == "table.not_joined"
            assert err["table_id"] == tid
            assert err["request"] == {"type": "leave", "rid": "l1", "action_id": None}
            assert live.tables.get(tid).version == v
            # joined then left: a second leave is refused the same way
            await c.send({"type": "join", "table_id": tid, "spectate": True})
            await c.expect("joined")
            await c.send({"type": "leave", "table_id": tid})
            await c.expect("left")
            await c.send({"type": "leave", "table_id": tid})
            assert (await c.expect("error"))["code"] == "table.not_joined"


async def test_an_amount_of_2_to_the_70_is_reported_as_that_integer() -> None:
    """orjson reads an integer beyond 64 bits as a float; the server reads it exactly, so the
    engine's refusal names ``1180591620717411303424``, not ``1.18e+21``."""
    async with live_server(turn_timeout_seconds=60) as live:
        (_, ta), (_, tb) = [await live.player(n) for n in ("ana", "bob")]
        tid = await _table(live, ta, game="soldiers_bluff", seats=2, starting_stack=100)
        async with client(live, ta) as a, client(live, tb) as b:
            await a.send({"type": "join", "table_id": tid, "seat": 0})
            await b.send({"type": "join", "table_id": tid, "seat": 1})
            table = live.tables.get(tid)
            conns = {0: a, 1: b}
            await a.until(lambda m: m["type"] == "state" and m["status"] == "playing")

            def mover():  # type: ignore[no-untyped-def]
                return conns[table.seat_map[table.recorder.state.to_act()[0]]]

            async def current(c):  # type: ignore[no-untyped-def]
                await c.until(lambda m: m["type"] == "state" and m["version"] == table.version)

            while table.recorder.state.view(None)["phase"] != "betting":  # exchange nothing
                m = mover()
                await current(m)
                await m.send({"type": "act", "table_id": tid, "version": table.version,
                              "action_id": f"x{table.version}",
                              "action": {"type": "exchange", "cards": []}})
                await m.expect("accepted")
            m = mover()
            await current(m)
            v, n = table.version, len(table.recorder.history.actions)
            text = (f'{{"type": "act", "table_id": "{tid}", "version": {v}, '
                    f'"action_id": "big", "action": {{"type": "bet", "to": {BIG}}}}}')
            await m.send(text)
            err = await m.expect("error")
            assert err["code"] == "engine.illegal_action", err
            assert str(BIG) in err["message"] and "e+" not in err["message"]
            assert table.version == v and len(table.recorder.history.actions) == n
            # ... and a malformed one (a float) still names the float
            await m.send(text.replace(str(BIG), "1.5"))
            assert (await m.expect("error"))["code"] == "engine.malformed_action"
