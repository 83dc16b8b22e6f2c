"""Graceful shutdown in process (``server/drain.py``, ``docs/protocol.md`` "Shutdown"): on the
exit signal the app drains before uvicorn closes the sockets, so a seated client reads
``table_closed``/``shutdown`` and then the close (1012), and new work is refused meanwhile."""

from __future__ import annotations

import asyncio
import signal
from typing import Any

import pytest
from livesrv import WAIT_SECONDS, Client, LiveServer, client, live_server
from websockets.exceptions import ConnectionClosed

AUTH = "Authorization"


async def _post(live: LiveServer, path: str, token: str, body: dict[str, Any]) -> Any:
    async with live.http as http:
        return await http.post(path, json=body, headers={AUTH: f"Bearer {token}"})


async def _seat_mid_game(live: LiveServer, c: Client, token: str) -> str:
    """Create a Soldier's Bluff table with a bot at seat 1, join seat 0, wait for the game."""
    r = await _post(live, "/api/tables", token, {
        "game": "soldiers_bluff", "seats": 2, "bots": [{"seat": 1, "kind": "rule"}]})
    assert r.status_code == 201, r.text
    tid: str = r.json()["id"]
    await c.send({"type": "join", "table_id": tid, "seat": 0})
    await c.expect("joined")
    await c.until(lambda m: m["type"] == "state" and m["status"] == "playing")
    return tid


async def _closed_code(c: Client) -> tuple[int | None, str]:
    """Read until the socket closes; the close ``(code, reason)``. Fails on any other frame
    type than ``state``/``events`` (what a table may still send before it closes)."""
    with pytest.raises(ConnectionClosed) as info:
        while True:
            msg = await c.recv()
            assert msg["type"] in ("state", "events"), msg
    rcvd = info.value.rcvd
    return (None, "") if rcvd is None else (rcvd.code, rcvd.reason)


def _hold_table_stop(live: LiveServer, monkeypatch: pytest.MonkeyPatch) -> asyncio.Event:
    """Make the drain wait at ``tables.stop()`` until the returned event is set."""
    release = asyncio.Event()
    original = live.tables.stop

    async def held() -> None:
        await release.wait()
        await original()

    monkeypatch.setattr(live.tables, "stop", held)
    return release


async def _until_draining(live: LiveServer) -> None:
    async with asyncio.timeout(WAIT_SECONDS):
        while not getattr(live.app.state, "draining", False):
            await asyncio.sleep(0.005)  # polling a flag, bounded by the timeout


async def test_sigterm_sends_table_closed_shutdown_before_the_close_and_refuses_new_work(
        monkeypatch: pytest.MonkeyPatch) -> None:
    async with live_server(turn_timeout_seconds=60.0) as live:
        _, token = await live.player("ana")
        _, other = await live.player("bob")
        release = _hold_table_stop(live, monkeypatch)
        async with client(live, token) as ana:
            tid = await _seat_mid_game(live, ana, token)
            assert live.server is not None
            live.server.handle_exit(signal.SIGTERM, None)  # what the signal handler calls
            await _until_draining(live)

            r = await _post(live, "/api/tables", token, {"game": "soldiers_bluff"})
            assert (r.status_code, r.json()["error"]["code"]) == (503, "server.draining")
            assert set(r.json()["error"]) == {"code", "message"}
            r = await _post(live, "/api/tables/quick-seat", token, {"game": "bazaar_blot"})
            assert (r.status_code, r.json()["error"]["code"]) == (503, "server.draining")

            await ana.send({"type": "join", "table_id": tid, "rid": "again"})
            refused = await ana.until(lambda m: m["type"] == "error")
            assert refused["code"] == "server.draining"
            assert refused["request"] == {"type": "join", "rid": "again", "action_id": None}

            async with client(live) as bob:  # a new socket: hello refused, then closed
                await bob.send({"type": "hello", "token": other})
                assert (await bob.expect("error"))["code"] == "server.draining"
                assert (await _closed_code(bob))[0] == 1012

            release.set()
            closed = await ana.until(lambda m: m["type"] == "table_closed")
            assert (closed["table_id"], closed["reason"]) == (tid, "shutdown")
            assert await _closed_code(ana) == (1012, "server shutting down")


async def test_drain_without_sockets_or_tables_ends_the_server() -> None:
    async with live_server() as live:
        assert live.server is not None
        live.server.handle_exit(signal.SIGINT, None)
        async with asyncio.timeout(WAIT_SECONDS):
            while live.server.started and not live.app.state.draining:
                await asyncio.sleep(0.005)  # polling a flag, bounded by the timeout
    assert live.app.state.draining and live.app.state.sessions == set()


async def test_hello_when_the_store_fails_gets_an_error_and_close_1011(
        monkeypatch: pytest.MonkeyPatch) -> None:
    async with live_server() as live:
        async def down(token: str) -> None:
            raise ConnectionRefusedError("database is down")

        monkeypatch.setattr(live.store, "player_for_token", down)
        async with client(live) as c:
            await c.send({"type": "hello", "token": "whatever", "rid": "h1"})
            err = await c.expect("error")
            assert err["code"] == "server.unavailable"
            assert "database is down" in err["message"] and err["request"]["rid"] == "h1"
            code, reason = await _closed_code(c)
            assert code == 1011
            assert reason == "server error: ConnectionRefusedError: database is down"
