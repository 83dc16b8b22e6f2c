"""Bad input over a real socket gets a typed error, changes nothing, and (where safe) leaves
the connection usable (``design.md`` section 7)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from livesrv import Client, client, live_server
from websockets.exceptions import ConnectionClosed

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tables"))
from toygame import register


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> None:
    register(monkeypatch)


async def still_usable(c: Client) -> None:
    await c.send({"type": "ping", "nonce": "alive"})
    assert (await c.expect("pong"))["nonce"] == "alive"


async def error_for(c: Client, frame: object) -> dict[str, object]:
    await c.send(frame)  # type: ignore[arg-type]
    err = await c.expect("error")
    await still_usable(c)
    return err


async def test_protocol_errors_before_and_after_hello(toy: None) -> None:
    async with live_server(max_frame_bytes=1000, ws_max_size_bytes=4000) as live:
        _, token = await live.player("ana")
        async with client(live) as c:
            assert (await error_for(c, {"type": "join", "table_id": "t1"}))["code"] == \
                "auth.required"
            assert (await error_for(c, {"type": "hello", "token": "nope"}))["code"] == \
                "auth.invalid_token"
            await c.hello(token)
            cases = {
                "{not json": "protocol.invalid_json",
                "[1, 2]": "protocol.invalid_message",
                '{"type": "dance"}': "protocol.unknown_type",
                '{"no_type": 1}': "protocol.unknown_type",
                '{"type": "ping", "zzz": 1}': "protocol.extra_field",
                '{"type": "act", "table_id": "t", "version": "1", "action_id": "a", '
                '"action": {}}': "protocol.invalid_field",
                '{"type": "ping", "nonce": "' + "x" * 1200 + '"}': "protocol.frame_too_large",
                '{"type": "resync", "table_id": "nope"}': "table.not_found",
            }
            for frame, code in cases.items():
                err = await error_for(c, frame)
                assert err["code"] == code, (frame[:40], err)
                assert isinstance(err["message"], str) and err["message"]
            await c.ws.send(b"\x00\x01")
            assert (await c.expect("error"))["code"] == "protocol.binary_frame"
            await still_usable(c)
            # above the hard limit the WebSocket layer closes the connection (1009)
            await c.send('{"type": "ping", "nonce": "' + "x" * 5000 + '"}')
            with pytest.raises(ConnectionClosed) as info:
                await c.recv()
            assert info.value.rcvd is not None and info.value.rcvd.code == 1009


async def test_rate_limit_drops_messages_with_a_typed_error(toy: None) -> None:
    async with live_server(ws_rate_per_second=0.001, ws_rate_burst=5) as live, \
            client(live) as c:
        for i in range(8):
            await c.send({"type": "ping", "nonce": i})
        got = [await c.recv() for _ in range(8)]
        assert [m["type"] for m in got] == ["pong"] * 5 + ["error"] * 3
        assert {m.get("code") for m in got[5:]} == {"protocol.rate_limited"}


async def test_table_errors_change_nothing(toy: None) -> None:
    async with live_server() as live:
        (_, ta), (_, tb), (_, tc) = [await live.player(n) for n in ("ana", "bob", "cy")]
        async with live.http as http:
            r = await http.post("/api/tables", json={"game": "toy_duel", "seats": 2,
                                                     "turn_timeout_seconds": 60},
                                headers={"Authorization": f"Bearer {ta}"})
        tid = r.json()["id"]
        async with client(live, ta) as a, client(live, tb) as b, client(live, tc) as cy:
            await a.send({"type": "join", "table_id": tid, "seat": 0})
            await b.send({"type": "join", "table_id": tid, "seat": 1})
            st_a = await a.until(lambda m: m["type"] == "state" and m["status"] == "playing")
            st_b = await b.until(lambda m: m["type"] == "state" and m["status"] == "playing")
            mover, idle = (a, b) if st_a["legal_actions"] else (b, a)
            st_m, st_i = (st_a, st_b) if mover is a else (st_b, st_a)
            table = live.tables.get(tid)
            v, n = table.version, len(table.recorder.history.actions)
            snap = table.recorder.state.snapshot()
            good = st_m["legal_actions"][0]
            mine = {"type": "play", "card": st_i["view"]["hand"][0]}

            def act(action: object, **kw: object) -> dict[str, object]:
                return {"type": "act", "table_id": tid, "action_id": "x1",
                        "version": kw.pop("version", v), "action": action, **kw}

            # someone else's seat, out of turn, stale version, not seated, malformed, illegal
            err = await error_for(idle, act(good, seat=st_m["seat"]))
            assert err["code"] == "table.not_your_seat"
            assert (await error_for(idle, act(mine)))["code"] == "engine.not_your_turn"
            err = await error_for(mover, act(good, version=v - 1))
            assert err["code"] == "table.stale_version"
            assert err["request"] == {"type": "act", "rid": None, "action_id": "x1"}
            assert err["table_id"] == tid and err["version"] == v
            assert (await error_for(cy, act(good)))["code"] == "table.not_seated"
            err = await error_for(mover, act({"type": "play", "card": "Zz"}))
            assert err["code"] == "engine.malformed_action"
            err = await error_for(mover, act({"type": "play", "card": mine["card"]}))
            assert err["code"] == "engine.illegal_action"
            err = await error_for(cy, {"type": "join", "table_id": tid, "seat": 0})
            assert err["code"] == "table.seat_taken"
            err = await error_for(cy, {"type": "join", "table_id": tid, "seat": 7})
            assert err["code"] == "table.bad_seat"
            assert table.version == v and len(table.recorder.history.actions) == n
            assert table.recorder.state.snapshot() == snap
            # and the right move still works on the same connection
            await mover.send(act(good))
            assert (await mover.expect("accepted"))["version"] == v + 1


async def test_an_invalid_message_of_a_known_type_names_it_in_request(toy: None) -> None:
    """``request`` names the refused message whenever its ``type`` is known (extra or bad
    fields); an unknown type has no request to name."""
    async with live_server() as live:
        _, token = await live.player("ana")
        async with client(live, token) as c:
            err = await error_for(c, {"type": "ping", "rid": "r1", "bogus": 1})
            assert err["code"] == "protocol.extra_field"
            assert err["request"] == {"type": "ping", "rid": "r1", "action_id": None}
            err = await error_for(c, {"type": "act", "table_id": "t", "version": "x",
                                      "action_id": "a9", "action": {}})
            assert err["code"] == "protocol.invalid_field"
            assert err["request"] == {"type": "act", "rid": None, "action_id": "a9"}
            err = await error_for(c, {"type": "shout", "rid": "r2"})
            assert err["code"] == "protocol.unknown_type" and err["request"] is None


def test_client_types_are_the_protocols() -> None:
    from cardhall.protocol import messages as p
    from cardhall.server.wsread import CLIENT_TYPES

    assert set(p.CLIENT.json_schema()["discriminator"]["mapping"]) == CLIENT_TYPES
