"""Per-player socket quota and the table limit through a real server (uvicorn, loopback).

``max_sockets_per_player`` counts *authenticated* sockets per player id: the one too many gets
a typed ``error`` ``quota.sockets`` and is closed with 4029; a socket that goes gives its place
back. Quick seat at ``max_tables`` is a JSON 503 ``table.limit`` from the real server (it was
a bare text/plain 500 once).
"""

from __future__ import annotations

import asyncio
import contextlib

import pytest
from livesrv import client, live_server
from websockets.exceptions import ConnectionClosed

from cardhall.server.ws import CLOSE_QUOTA_SOCKETS


async def until_released(live: object, player_id: str, held: int) -> None:
    quota = live.app.state.socket_quota  # type: ignore[attr-defined]
    async with asyncio.timeout(10):
        while quota.open.get(player_id, 0) != held:
            await asyncio.sleep(0.01)  # polling the server's bookkeeping, bounded


async def test_the_socket_over_the_quota_gets_quota_sockets_and_4029() -> None:
    async with live_server(max_sockets_per_player=2) as live:
        ana, token = await live.player("ana")
        _, bob = await live.player("bob")
        async with contextlib.AsyncExitStack() as stack:
            first = await stack.enter_async_context(client(live, token))
            await stack.enter_async_context(client(live, token))
            # hello again on an open socket is the same socket: no second place
            await first.send({"type": "hello", "token": token, "rid": "again"})
            assert (await first.expect("welcome"))["rid"] == "again"
            async with client(live) as third:
                await third.send({"type": "ping", "nonce": 1})  # unauthenticated: not counted
                await third.expect("pong")
                await third.send({"type": "hello", "token": token, "rid": "h"})
                err = await third.expect("error")
                assert err["code"] == "quota.sockets" and err["request"]["rid"] == "h"
                assert "max_sockets_per_player" in err["message"]
                with pytest.raises(ConnectionClosed) as info:
                    await third.recv()
                assert info.value.rcvd is not None
                assert info.value.rcvd.code == CLOSE_QUOTA_SOCKETS == 4029
            async with client(live, bob):  # another player is not affected
                pass
            await first.close()
            await until_released(live, ana, 1)
            async with client(live, token) as again:  # the place is free again
                await again.send({"type": "ping", "nonce": 2})
                await again.expect("pong")
        await until_released(live, ana, 0)


async def test_quick_seat_at_the_table_limit_is_a_json_503_from_the_real_server() -> None:
    async with live_server(max_tables=1) as live:
        _, token = await live.player("ana")
        auth = {"Authorization": f"Bearer {token}"}
        async with live.http as http:
            r = await http.post("/api/tables", json={"game": "bazaar_blot"}, headers=auth)
            assert r.status_code == 201, r.text
            r = await http.post("/api/tables/quick-seat", json={"game": "soldiers_bluff"},
                                headers=auth)
        assert r.status_code == 503, r.text
        assert r.headers["content-type"] == "application/json"
        assert r.json()["error"]["code"] == "table.limit"
        assert set(r.json()["error"]) == {"code", "message"}
