"""A real server for end-to-end tests: the app under uvicorn on a free port, in this process,
plus a small WebSocket client and a server-side audit of what each connection was sent.

The server runs as a task on the test's event loop (``uvicorn.Server.serve``) with the
``websockets-sansio`` implementation; waits are bounded (``asyncio.timeout``), never sleeps.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from websockets.asyncio.client import ClientConnection, connect

from cardhall.bots import RandomPolicy
from cardhall.config import Settings
from cardhall.engine.inspect import strings_in
from cardhall.protocol.messages import SERVER
from cardhall.server.app import create_app
from cardhall.tables.connections import QueueConnection

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tables"))

WAIT_SECONDS = 20.0


class LiveServer:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.app = create_app(settings)
        self.server: uvicorn.Server | None = None
        self.port = 0

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    @property
    def http(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(base_url=f"http://127.0.0.1:{self.port}", timeout=10.0)

    @property
    def store(self) -> Any:
        return self.app.state.store

    @property
    def tables(self) -> Any:
        return self.app.state.tables

    @property
    def writer(self) -> Any:
        """The app's game writer: ``await live.writer.flush()`` before reading saved games."""
        return self.app.state.writer

    async def player(self, name: str) -> tuple[str, str]:
        """A new identity: ``(player_id, token)``."""
        rec, token = await self.store.create_player(name)
        return rec.id, token


@contextlib.asynccontextmanager
async def live_server(**overrides: Any) -> AsyncIterator[LiveServer]:
    """Start the app on 127.0.0.1 with a free port; stop it (bounded) on exit."""
    values: dict[str, Any] = {"database_url": "memory://", "admin_token": "admin-secret",
                              "bot_delay_seconds": 0.0, "next_hand_pause_seconds": 0.05}
    values.update(overrides)
    settings = Settings(**values)
    live = LiveServer(settings)
    config = uvicorn.Config(live.app, host="127.0.0.1", port=0, ws=settings.ws_implementation,
                            ws_max_size=settings.ws_max_size_bytes, ws_per_message_deflate=False,
                            log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    live.server = server
    task = asyncio.create_task(server.serve())
    async with asyncio.timeout(WAIT_SECONDS):
        while not server.started:
            if task.done():
                task.result()
            await asyncio.sleep(0.005)  # polling a condition, bounded by the timeout
    live.port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield live
    finally:
        server.should_exit = True
        async with asyncio.timeout(WAIT_SECONDS):
            await task


class Client:
    """A test WebSocket client: every message it receives is kept in ``received``."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.received: list[dict[str, Any]] = []
        self.raw: list[str] = []

    async def send(self, msg: dict[str, Any] | str) -> None:
        await self.ws.send(msg if isinstance(msg, str) else json.dumps(msg))

    async def recv(self) -> dict[str, Any]:
        async with asyncio.timeout(WAIT_SECONDS):
            text = await self.ws.recv()
        assert isinstance(text, str)
        self.raw.append(text)
        msg = json.loads(text)
        SERVER.validate_python(msg)  # every server message conforms to the protocol models
        self.received.append(msg)
        return msg  # type: ignore[no-any-return]

    async def until(self, pred: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """Receive until a message satisfies ``pred``; return it."""
        while True:
            msg = await self.recv()
            if pred(msg):
                return msg

    async def expect(self, kind: str) -> dict[str, Any]:
        return await self.until(lambda m: m["type"] == kind)

    async def hello(self, token: str) -> dict[str, Any]:
        await self.send({"type": "hello", "token": token})
        return await self.expect("welcome")

    async def close(self) -> None:
        await self.ws.close()


@contextlib.asynccontextmanager
async def client(live: LiveServer, token: str | None = None) -> AsyncIterator[Client]:
    async with connect(live.ws_url, max_size=2**22) as ws:
        c = Client(ws)
        if token is not None:
            await c.hello(token)
        yield c


class Audit:
    """What the server sent each player's sockets, with the hidden cards at that moment.

    Patches :meth:`QueueConnection.send`; entries are ``(message type, hidden cards, seed hex)``
    in send order, so the n-th entry matches the n-th message the client received."""

    def __init__(self, live: LiveServer, monkeypatch: Any) -> None:
        self.sent: dict[str, list[tuple[str, set[str], str | None]]] = {}
        original = QueueConnection.send
        audit = self

        def send(conn: QueueConnection, msg: Any) -> None:
            if not conn.closed:
                audit._record(live, conn, msg)
            original(conn, msg)

        monkeypatch.setattr(QueueConnection, "send", send)

    def _record(self, live: LiveServer, conn: QueueConnection, msg: Any) -> None:
        hidden: set[str] = set()
        seed = None
        table = live.tables.get(getattr(msg, "table_id", None) or "")
        if table is not None and table.recorder is not None and msg.type != "game_over":
            seat = table.seat_of(conn)
            gs = None if seat is None else table.game_seat(seat.index)
            hidden = table.recorder.state.hidden_from(gs)
            seed = table.seed.hex() if table.seed else None
        self.sent.setdefault(conn.player.id, []).append((msg.type, hidden, seed))

    def violations(self, player_id: str, received: list[dict[str, Any]]) -> list[str]:
        """Cards or the seed a client received that were hidden from it when sent."""
        sent = self.sent.get(player_id, [])
        out = []
        for i, msg in enumerate(received):
            kind, hidden, seed = sent[i]
            assert kind == msg["type"], (i, kind, msg["type"])
            seen = set(strings_in(msg))
            if hidden & seen:
                out.append(f"message {i} ({kind}) shows hidden {sorted(hidden & seen)}")
            if seed is not None and seed in seen:
                out.append(f"message {i} ({kind}) shows the seed")
        return out


async def play_randomly(c: Client, table_id: str, seed: int) -> dict[str, Any]:
    """Answer every state that offers legal actions with a random one; return game_over."""
    rng = random.Random(seed)
    policy = RandomPolicy()
    n = 0
    while True:
        msg = await c.recv()
        if msg["type"] == "game_over":
            return msg
        if msg["type"] == "state" and msg["legal_actions"] and msg["status"] == "playing":
            n += 1
            action = policy.choose(msg["view"], msg["legal_actions"], rng)
            await c.send({"type": "act", "table_id": table_id, "version": msg["version"],
                          "action_id": f"m{n}", "action": action})
