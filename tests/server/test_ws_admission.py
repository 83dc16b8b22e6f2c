"""Who may keep a socket open (``docs/protocol.md``, "Limits"; ``docs/security.md``,
"Sessions, sockets and proxies"): a socket that sends no ``hello`` is closed at the hello
deadline (``auth.hello_timeout``, 4009), and one client address holds at most
``max_sockets_per_address`` sockets (``quota.address_sockets``, 4030). The last test is the
attack itself: silent sockets against a server with 256 file descriptors."""

from __future__ import annotations

import asyncio
import resource
from pathlib import Path
from typing import Any

import pytest
from livesrv import Client, client, live_server
from procsrv import ProcServer
from test_ws_revocation import closed_code
from websockets.asyncio.client import ClientConnection, connect

from cardhall.config import Settings


def test_the_defaults_are_a_10_s_hello_deadline_and_50_sockets_per_address() -> None:
    settings = Settings()
    assert settings.hello_timeout_seconds == 10.0
    assert settings.max_sockets_per_address == 50


async def test_a_socket_without_hello_is_closed_at_the_deadline() -> None:
    async with live_server(hello_timeout_seconds=0.5) as live:
        _, token = await live.player("ana")
        async with client(live) as silent, client(live) as pinger, client(live, token) as ana:
            loop = asyncio.get_running_loop()
            start = loop.time()
            await pinger.send({"type": "ping", "nonce": "n"})  # a ping is no hello
            assert (await pinger.expect("pong"))["nonce"] == "n"
            for c in (silent, pinger):
                seen, code = await closed_code(c)
                assert code == 4009
                assert [m["code"] for m in seen if m["type"] == "error"] == \
                    ["auth.hello_timeout"]
            assert 0.4 < loop.time() - start < 2.0
            await ana.send({"type": "ping", "nonce": "after"})  # authenticated: stays open
            assert (await ana.expect("pong"))["nonce"] == "after"


async def test_one_address_holds_at_most_max_sockets_per_address() -> None:
    async with live_server(max_sockets_per_address=3) as live:
        _, token = await live.player("ana")
        held = [await connect(live.ws_url).__aenter__() for _ in range(3)]
        try:
            async with client(live) as extra:
                extra_seen, code = await closed_code(extra)
            assert code == 4030
            assert [m["code"] for m in extra_seen] == ["quota.address_sockets"]
            async with live.http as http:  # REST is not capped
                assert (await http.get("/healthz")).status_code == 200
            await held.pop().close()  # a place is given back when a socket closes
            async with asyncio.timeout(5):
                while live.app.state.address_cap.open.get("127.0.0.1") != 2:
                    await asyncio.sleep(0.01)  # polling the count, bounded above
            async with client(live, token) as again:
                await again.send({"type": "ping", "nonce": "in"})
                assert (await again.expect("pong"))["nonce"] == "in"
        finally:
            for ws in held:
                await ws.close()


async def _open(url: str, **kwargs: Any) -> ClientConnection | None:
    try:
        return await connect(url, open_timeout=10, **kwargs).__aenter__()
    except Exception:  # refused or reset while the server is out of descriptors
        return None


@pytest.mark.slow
async def test_silent_sockets_do_not_starve_a_server_of_file_descriptors(
        tmp_path: Path) -> None:
    """300 sockets that never say ``hello``, from one address, against a server limited to
    256 file descriptors: it keeps at most 50 (the default cap) and closes each at the hello
    deadline; another player (another address) connects and plays, ``/healthz`` answers."""
    server = ProcServer(tmp_path, {"CARDHALL_HELLO_TIMEOUT_SECONDS": "3"})
    await server.start()
    try:
        assert server.proc is not None
        resource.prlimit(server.proc.pid, resource.RLIMIT_NOFILE, (256, 256))
        attack = [await _open(server.ws_url) for _ in range(300)]
        async with server.http() as http:
            assert (await http.get("/healthz")).status_code == 200
            token = (await http.post("/api/players", json={"name": "bob"})).json()["token"]
        victim = await _open(server.ws_url, local_addr=("127.0.0.2", 0))
        assert victim is not None, "another address could not open a socket"
        bob = Client(victim)
        await bob.hello(token)
        codes = []
        for ws in attack:
            assert ws is not None, "the server refused a connection: out of descriptors?"
            async with asyncio.timeout(10):
                await ws.wait_closed()
            assert ws.close_code is not None
            codes.append(ws.close_code)
        assert set(codes) <= {4009, 4030}
        assert codes.count(4009) <= 50 and codes.count(4030) >= 250
        await bob.send({"type": "ping", "nonce": "after"})  # past the deadline: still open
        assert (await bob.expect("pong"))["nonce"] == "after"
        await victim.close()
    finally:
        await server.stop()


@pytest.mark.slow
@pytest.mark.xfail(strict=True, reason="open: uvicorn has no deadline for a request's headers, "
                   "and the socket cap and hello deadline only count accepted WebSockets; a "
                   "reverse proxy bounds it in deploy/ (HAProxy's timeout http-request)")
async def test_connections_that_never_finish_their_headers_do_not_starve_the_server(
        tmp_path: Path) -> None:
    """300 TCP connections from one address that send half a request (``GET /ws`` with an
    ``Upgrade`` header and no blank line, a slowloris) against a server limited to 256 file
    descriptors: they never become WebSockets, so neither the per-address cap nor the hello
    deadline sees them; found: all are still open well past the hello deadline and another
    address can no longer connect."""
    server = ProcServer(tmp_path, {"CARDHALL_HELLO_TIMEOUT_SECONDS": "2"})
    await server.start()
    attack: list[asyncio.StreamWriter] = []
    try:
        assert server.proc is not None
        resource.prlimit(server.proc.pid, resource.RLIMIT_NOFILE, (256, 256))
        for _ in range(300):
            _, writer = await asyncio.open_connection("127.0.0.1", server.port)
            writer.write(b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n")
            await writer.drain()
            attack.append(writer)
        await asyncio.sleep(4)  # twice the hello deadline
        victim = await _open(server.ws_url, local_addr=("127.0.0.2", 0))
        assert victim is not None, "another address could not open a socket"
        await victim.close()
    finally:
        for writer in attack:
            writer.close()
        await server.stop()


async def _slow_token_reads(live: Any) -> asyncio.Event:
    """Make every token read wait for the returned event (a database busy in a restart
    storm); the hello deadline's timer fires meanwhile."""
    gate = asyncio.Event()
    read = live.store.player_for_token

    async def slow(token: str) -> Any:
        await gate.wait()
        return await read(token)

    live.store.player_for_token = slow
    return gate


async def _until_overdue(live: Any) -> None:
    async with asyncio.timeout(5):
        while not any(s._overdue for s in live.app.state.sessions):
            await asyncio.sleep(0.01)  # polling the deadline's flag, bounded above


async def test_a_hello_sent_in_time_but_served_late_keeps_its_socket() -> None:
    """Issue 26's restart storm: a hello waiting on the database past the deadline is the
    server's delay, not the client's; it is answered and the socket stays."""
    async with live_server(hello_timeout_seconds=0.3, auth_cache_seconds=0) as live:
        _, token = await live.player("ana")
        gate = await _slow_token_reads(live)
        async with client(live) as ana:
            await ana.send({"type": "hello", "token": token})
            await _until_overdue(live)  # the deadline passed while the hello waited
            gate.set()
            assert (await ana.expect("welcome"))["name"] == "ana"
            await ana.send({"type": "ping", "nonce": "after"})
            assert (await ana.expect("pong"))["nonce"] == "after"


async def test_a_late_served_hello_that_fails_closes_at_once() -> None:
    async with live_server(hello_timeout_seconds=0.3, auth_cache_seconds=0) as live:
        gate = await _slow_token_reads(live)
        async with client(live) as junk:
            await junk.send({"type": "hello", "token": "not-a-token"})
            await _until_overdue(live)
            gate.set()
            seen, code = await closed_code(junk)
            assert code == 4009
            assert [m["code"] for m in seen if m["type"] == "error"] == \
                ["auth.invalid_token", "auth.hello_timeout"]


async def test_a_late_served_hello_whose_read_raises_is_answered_server_unavailable() -> None:
    """The database fails the token read of a hello the deadline spared: that is the server's
    failure, not the client's silence. The client is told ``server.unavailable`` and the
    socket closes with 1011 (retry later), not ``auth.hello_timeout`` / 4009."""
    async with live_server(hello_timeout_seconds=0.3, auth_cache_seconds=0) as live:
        gate = asyncio.Event()

        async def down(token: str) -> Any:
            await gate.wait()
            raise OSError("database is down")

        live.store.player_for_token = down
        async with client(live) as ana:
            await ana.send({"type": "hello", "token": "whatever"})
            await _until_overdue(live)
            gate.set()
            seen, code = await closed_code(ana)
            assert [m["code"] for m in seen if m["type"] == "error"] == ["server.unavailable"]
            assert code == 1011
