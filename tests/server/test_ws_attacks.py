"""Adversarial sessions over a real socket: bans of connected players, same-token sockets."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
from livesrv import client, live_server
from websockets.exceptions import ConnectionClosed

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tables"))
from toygame import register

ADMIN = {"Authorization": "Bearer admin-secret"}


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> None:
    register(monkeypatch)


async def test_a_ban_kicks_the_connected_player_and_closes_their_socket(toy: None) -> None:
    async with live_server() as live:
        (pa, ta), (_, tb) = await live.player("ana"), await live.player("bob")
        async with live.http as http:
            r = await http.post("/api/tables", json={"game": "toy_duel", "seats": 2,
                                                     "turn_timeout_seconds": 60},
                                headers={"Authorization": f"Bearer {tb}"})
            tid = r.json()["id"]
            async with client(live, ta) as a, client(live, tb) as b:
                await a.send({"type": "join", "table_id": tid, "seat": 0})
                await b.send({"type": "join", "table_id": tid, "seat": 1})
                await a.until(lambda m: m["type"] == "state" and m["status"] == "playing")
                r = await http.post(f"/api/admin/players/{pa}/ban", headers=ADMIN)
                body = r.json()
                assert r.status_code == 200 and body["banned"] and body["changed"]
                assert body["seats_kicked"] == [f"{tid}:0"] and body["sockets_closed"] == 1
                assert (await a.expect("table_closed"))["reason"] == "kicked"
                assert (await a.expect("error"))["code"] == "auth.banned"
                with pytest.raises(ConnectionClosed) as info:
                    while True:
                        await a.recv()
                assert info.value.rcvd is not None and info.value.rcvd.code == 4003
                table = live.tables.get(tid)
                assert table.seats[0].leaving and table.seats[0].stand_in == "banned"
                seen = await b.until(lambda m: m["type"] == "state" and m["seats"][0]["stand_in"])
                assert not seen["seats"][0]["connected"]  # the stand-in bot is no holder
                again = (await http.post(f"/api/admin/players/{pa}/ban", headers=ADMIN)).json()
                assert (again["changed"], again["seats_kicked"], again["sockets_closed"]) == \
                    (False, [], 0)
            async with client(live) as a2:  # a new socket: hello is refused while banned
                await a2.send({"type": "hello", "token": ta})
                assert (await a2.expect("error"))["code"] == "auth.banned"
            r = await http.post(f"/api/admin/players/{pa}/unban", headers=ADMIN)
            assert r.json()["changed"] and not r.json()["banned"]
            assert not (await http.post(f"/api/admin/players/{pa}/unban",
                                        headers=ADMIN)).json()["changed"]
            async with client(live, ta) as a3:
                await a3.send({"type": "join", "table_id": tid, "spectate": True})
                assert (await a3.expect("joined"))["role"] == "spectator"


async def test_banning_an_owner_bans_and_kicks_its_bots(toy: None) -> None:
    async with live_server() as live:
        (owner, _), (_, tb) = await live.player("ana"), await live.player("bob")
        async with live.http as http:
            made = await http.post("/api/admin/bots", json={"name": "anabot", "owner_id": owner},
                                   headers=ADMIN)
            bot_id, bot_token = made.json()["id"], made.json()["token"]
            r = await http.post("/api/tables", json={"game": "toy_duel", "seats": 2,
                                                     "turn_timeout_seconds": 60},
                                headers={"Authorization": f"Bearer {tb}"})
            tid = r.json()["id"]
            async with client(live, bot_token) as bot, client(live, tb) as b:
                await bot.send({"type": "join", "table_id": tid, "seat": 0})
                await b.send({"type": "join", "table_id": tid, "seat": 1})
                state = await bot.until(lambda m: m["type"] == "state"
                                        and m["status"] == "playing")
                r = await http.post(f"/api/admin/players/{owner}/ban", headers=ADMIN)
                body = r.json()
                assert body["bots_banned"] == [bot_id] and body["seats_kicked"] == [f"{tid}:0"]
                assert body["sockets_closed"] == 1
                assert (await bot.expect("table_closed"))["reason"] == "kicked"
                assert (await bot.expect("error"))["code"] == "auth.banned"
                with pytest.raises(ConnectionClosed):  # its late move is never read
                    await bot.send({"type": "act", "table_id": tid, "version": state["version"],
                                    "action_id": "late", "action": {"type": "pass"}})
                    while True:
                        msg = await bot.recv()
                        assert msg["type"] != "accepted"
                table = live.tables.get(tid)
                assert table.seats[0].stand_in == "banned"
                player = (await http.get(f"/api/admin/players/{bot_id}", headers=ADMIN)).json()
                assert player["banned"]


def conn_count(table: object) -> int:
    return len(table.connections())  # type: ignore[attr-defined]


async def test_binary_and_oversized_frames_count_against_the_rate_limit() -> None:
    async with live_server(ws_rate_per_second=0.001, ws_rate_burst=4,
                           max_frame_bytes=100) as live, client(live) as c:
        await c.ws.send(b"\x00")
        await c.ws.send(b"\x01")
        await c.send('{"type": "ping", "nonce": "' + "x" * 200 + '"}')
        await c.send('{"type": "ping", "nonce": "' + "x" * 200 + '"}')
        await c.ws.send(b"\x02")
        await c.send({"type": "ping"})
        codes = [(await c.recv()).get("code") for _ in range(6)]
        assert codes == ["protocol.binary_frame"] * 2 + ["protocol.frame_too_large"] * 2 + \
            ["protocol.rate_limited"] * 2


async def test_a_deeply_nested_action_is_refused_and_the_table_plays_on() -> None:
    async with live_server() as live:
        (_, ta), (_, tb) = await live.player("ana"), await live.player("bob")
        async with live.http as http:
            r = await http.post("/api/tables", json={"game": "soldiers_bluff", "seats": 2,
                                                     "turn_timeout_seconds": 60},
                                headers={"Authorization": f"Bearer {ta}"})
        tid = r.json()["id"]
        async with client(live, ta) as a, client(live, tb) as b:
            await a.send({"type": "join", "table_id": tid, "seat": 0})
            await b.send({"type": "join", "table_id": tid, "seat": 1})
            await a.until(lambda m: m["type"] == "state" and m["status"] == "playing")
            table = live.tables.get(tid)
            v = table.version
            for depth in (9, 1000):  # 1000 deep made the engine's error repr overflow
                nested = "[" * depth + "]" * depth
                await a.send(f'{{"type": "act", "table_id": "{tid}", "version": {v}, '
                             f'"action_id": "d", "action": {{"type": "exchange", '
                             f'"cards": {nested}}}}}')
                err = await a.expect("error")
                assert err["code"] == "protocol.invalid_field" and "nested" in err["message"]
            await a.send({"type": "resync", "table_id": tid})
            assert (await a.expect("state"))["version"] == v
            assert not table.stopped and table.version == v


async def test_a_client_that_does_not_keep_up_is_closed_with_4008() -> None:
    async with live_server(ws_outbound_queue=4, ws_rate_per_second=10_000,
                           ws_rate_burst=10_000) as live:
        _, ta = await live.player("ana")
        async with live.http as http:
            r = await http.post("/api/tables", json={"game": "soldiers_bluff"},
                                headers={"Authorization": f"Bearer {ta}"})
        tid = r.json()["id"]
        async with client(live, ta) as c:
            await c.send({"type": "join", "table_id": tid, "spectate": True})
            for _ in range(400):  # each answered by a full state, faster than it is read
                await c.send({"type": "resync", "table_id": tid})
            with pytest.raises(ConnectionClosed) as info:
                while True:
                    await c.recv()
            assert info.value.rcvd is not None and info.value.rcvd.code == 4008
            assert c.received[-1]["code"] == "table.slow_consumer"
        for _ in range(100):  # the table forgets the closed spectator
            if not live.tables.get(tid).spectators:
                break
            await asyncio.sleep(0.01)
        assert not live.tables.get(tid).spectators
