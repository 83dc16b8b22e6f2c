"""The SDK's reconnect loop under hostile conditions (a real in-process server): found by the
adversarial review of the websockets reconnect loop."""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[0]))
from clientkit import bot_token, live_server, make_table

from cardhall.client import BuiltinBot, Client, ClientError
from cardhall.client.table import TableClosedError

BLOT = {"game": "bazaar_blot", "seats": 4, "config": {"target_score": 301},
        "bots": [{"seat": s, "kind": "rule"} for s in (1, 2, 3)]}


async def _wait(cond, seconds: float = 20.0) -> None:
    async with asyncio.timeout(seconds):
        while not cond():
            await asyncio.sleep(0.01)


async def test_first_connect_to_a_closed_port_fails_fast_with_client_error() -> None:
    t0 = time.monotonic()
    with pytest.raises(ClientError) as info:
        await Client("ws://127.0.0.1:9/ws", "x", open_timeout_seconds=2.0).connect()
    assert info.value.code == "client.unreachable"
    assert time.monotonic() - t0 < 2.0


async def test_a_session_whose_table_vanished_while_reconnecting_is_closed() -> None:
    """The table is closed while the socket is down (a server restart does the same: tables
    live in memory, tokens in the database). The resume join answers table.not_found; the
    session must end (next_game_over raises TableClosedError), not wait forever."""
    async with live_server(turn_timeout_seconds=5.0) as live:
        _, token = await bot_token(live, "orphan")
        tid = await make_table(live, token, **BLOT)
        table = live.tables.get(tid)
        async with Client(live.ws_url, token, backoff_seconds=1.0) as client:
            session = await client.join(tid, BuiltinBot("bazaar_blot", "rule", 5))
            await _wait(lambda: session.moves >= 1)
            table.seats[0].conn.close(1012)          # the socket drops ...
            await live.tables.close(tid)             # ... and the table goes meanwhile
            await _wait(lambda: client.reconnects >= 1)
            await asyncio.sleep(0.5)
            print("session.closed =", session.closed, "errors =",
                  [(e.code, e.message) for e in session.errors])
            with pytest.raises(TableClosedError):
                async with asyncio.timeout(5):
                    await session.next_game_over()


async def test_backoff_restarts_after_a_successful_reconnect() -> None:
    """websockets resets its delays only when the generator is resumed with anext(); the SDK
    always resumes it with athrow(), so the delays keep doubling over a client's lifetime."""
    async with live_server(turn_timeout_seconds=5.0) as live:
        _, token = await bot_token(live, "yo-yo")
        tid = await make_table(live, token, **BLOT)
        table = live.tables.get(tid)
        async with Client(live.ws_url, token, backoff_seconds=0.2,
                          max_backoff_seconds=3.0) as client:
            await client.join(tid, BuiltinBot("bazaar_blot", "rule", 5))
            waits = []
            for i in range(5):
                await _wait(lambda: table.seats[0].conn is not None
                            and not table.seats[0].conn.closed)
                t0 = time.monotonic()
                table.seats[0].conn.close(1012)
                await _wait(lambda n=i + 1: client.reconnects >= n)
                waits.append(round(time.monotonic() - t0, 2))
            assert waits[-1] < 1.0, f"5th separate drop waited {waits[-1]} s (waits {waits})"


async def test_close_during_reconnect_returns_promptly_and_leaks_no_task() -> None:
    async with live_server() as live:
        _, token = await bot_token(live, "closer")
        client = Client(live.ws_url, token, backoff_seconds=5.0)
        await client.connect()
    # the server is gone now: the reader is in the reconnect loop's 2.5-7.5 s delay
    await asyncio.sleep(0.2)
    before = {t for t in asyncio.all_tasks() if not t.done()}
    t0 = time.monotonic()
    await client.close()
    assert time.monotonic() - t0 < 1.0
    assert client._reader is not None and client._reader.done()
    leaked = [t for t in asyncio.all_tasks() if not t.done() and t not in before
              and t is not asyncio.current_task()]
    assert leaked == []


async def test_max_attempts_gives_up_and_closes_sessions() -> None:
    async with live_server() as live:
        _, token = await bot_token(live, "quitter")
        tid = await make_table(live, token, **BLOT)
        client = Client(live.ws_url, token, backoff_seconds=0.05, max_backoff_seconds=0.1,
                        max_attempts=3)
        await client.connect()
        session = await client.join(tid, None, spectate=True)
    t0 = time.monotonic()
    await _wait(lambda: client._reader is not None and client._reader.done(), 10)
    assert session.closed is not None, "sessions told the connection is lost"
    assert client._reader.exception() is None
    print("gave up after", round(time.monotonic() - t0, 2), "s")
    await client.close()


async def test_banned_while_disconnected_stops_reconnecting() -> None:
    async with live_server() as live:
        pid, token = await bot_token(live, "naughty")
        tid = await make_table(live, token, **BLOT)
        table = live.tables.get(tid)
        async with Client(live.ws_url, token, backoff_seconds=0.5) as client:
            session = await client.join(tid, BuiltinBot("bazaar_blot", "rule", 5))
            table.seats[0].conn.close(1012)
            async with live.http as http:
                r = await http.post(f"/api/admin/players/{pid}/ban",
                                    headers={"Authorization": "Bearer admin-secret"})
                assert r.status_code == 200, r.text
            await _wait(lambda: client._reader is not None and client._reader.done(), 10)
            assert client.reconnects == 0 and session.closed is not None


async def test_requests_after_the_client_gave_up_fail_fast_with_client_error() -> None:
    async with live_server() as live:
        _, token = await bot_token(live, "late")
        client = Client(live.ws_url, token, backoff_seconds=0.05, max_backoff_seconds=0.1,
                        max_attempts=1, open_timeout_seconds=3.0)
        await client.connect()
    await _wait(lambda: client._reader is not None and client._reader.done(), 10)
    t0 = time.monotonic()
    with pytest.raises(ClientError):
        await client.ping()
    assert time.monotonic() - t0 < 1.0
    await client.close()
