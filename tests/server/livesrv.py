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
from websockets.asyncio.client import ClientConnection, connect

from cardhall.bots import RandomPolicy
from cardhall.config import Settings
from cardhall.engine.inspect import strings_in
from cardhall.protocol.frames import STEP_FIELDS, Frame, apply_state
from cardhall.protocol.messages import GAMES, SERVER, SERVER_TYPED
from cardhall.server.app import create_app
from cardhall.server.drain import DrainingServer
from cardhall.server.main import make_server
from cardhall.tables.connections import QueueConnection
from cardhall.tables.state import TableState

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tables"))

WAIT_SECONDS = 20.0

GENEROUS_LIMITS: dict[str, Any] = {
    "max_live_tables_per_player": 100_000, "max_sockets_per_player": 100_000,
    "max_waiting_tables_per_address": 100_000,
    "max_sockets_per_address": 100_000,
    "rest_rate_limit": "1000000/minute", "guest_rate_limit": "1000000/minute"}
"""Quotas and rates (``server/quotas.py``) far above what a test does: tests create players,
tables and sockets much faster than a person; the quota tests set their own."""


class LiveServer:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.app = create_app(settings)
        self.server: DrainingServer | None = None
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
                              "bot_delay_seconds": 0.0, "next_hand_pause_seconds": 0.05,
                              **GENEROUS_LIMITS}
    values.update(overrides)
    settings = Settings(**values)
    live = LiveServer(settings)
    server = make_server(live.app, settings, host="127.0.0.1", port=0, log_level="warning")
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
        self.frames: list[dict[str, Any]] = []
        """Every message as sent (``state`` frames as full or delta)."""
        self.states: dict[str, dict[str, Any]] = {}
        self._ready: list[dict[str, Any]] = []

    async def send(self, msg: dict[str, Any] | str) -> None:
        await self.ws.send(msg if isinstance(msg, str) else json.dumps(msg))

    async def recv(self) -> dict[str, Any]:
        """The next message as a client sees it: a ``state`` frame (full or delta) becomes the
        full state it leads to (``apply_state``; step fields kept), preceded, when it carried
        events, by an ``events`` entry ``{"type": "events", "table_id", "version", "seat"
        (the actor), "timeout", "events"}``."""
        while not self._ready:
            async with asyncio.timeout(WAIT_SECONDS):
                text = await self.ws.recv()
            assert isinstance(text, str)
            self.raw.append(text)
            frame = json.loads(text)
            SERVER.validate_python(frame)  # every server message conforms to the protocol models
            if frame.get("type") != "state" or frame.get("game") in GAMES:
                SERVER_TYPED.validate_python(frame)  # per-game view, legal actions, events
            self.frames.append(frame)
            self._ready.extend(self._decode(frame))
        msg = self._ready.pop(0)
        self.received.append(msg)
        return msg

    def _decode(self, frame: dict[str, Any]) -> list[dict[str, Any]]:
        if frame["type"] != "state":
            return [frame]
        out = []
        if frame.get("events"):
            out.append({"type": "events", "table_id": frame["table_id"],
                        "version": frame["version"], "seat": frame.get("actor"),
                        "timeout": frame.get("timeout", False), "events": frame["events"]})
        table = frame["table_id"]
        state = apply_state(self.states.get(table), frame)  # a gap fails the test
        self.states[table] = state
        out.append({**state, **{k: frame[k] for k in STEP_FIELDS if k in frame}})
        return out

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

    Patches :meth:`QueueConnection.send`; entries are ``(message type, hidden cards now, hidden
    cards at the previous frame, cards the step's public events showed, seed hex)`` in send
    order, so the n-th entry matches the n-th frame the client received (``Client.frames``).

    A frame reports a whole step, which may show a card publicly and hide it again (Blot: the
    last trick, then the next deal): its events are judged by what was hidden before and after
    the step, less what a public event of the step showed (each event's own content is judged
    per action by the engine's LeakChecker in self-play); the rest by what is hidden now."""

    def __init__(self, live: LiveServer, monkeypatch: Any) -> None:
        self.sent: dict[str, list[tuple[str, set[str], set[str], set[str], str | None]]] = {}
        self._last: dict[str, set[str]] = {}
        self._made: dict[tuple[str, int], tuple[set[str], set[str], str | None]] = {}
        """What was hidden when a table made a message (a durable table delivers it later,
        once its step is logged): ``(connection id, id(message))`` -> facts."""
        original = QueueConnection.send
        original_table_send = TableState.send
        audit = self

        def table_send(table: Any, conn: Any, msg: Any) -> None:
            if isinstance(conn, QueueConnection) and not conn.closed:
                audit._made[(conn.id, id(msg))] = audit._facts(live, conn, msg)
            original_table_send(table, conn, msg)

        def send(conn: QueueConnection, msg: Any) -> None:
            if not conn.closed:
                audit._record(live, conn, msg)
            original(conn, msg)

        monkeypatch.setattr(QueueConnection, "send", send)
        monkeypatch.setattr(TableState, "send", table_send)

    def _record(self, live: LiveServer, conn: QueueConnection, msg: Any) -> None:
        data = msg.data if isinstance(msg, Frame) else msg.model_dump()
        made = self._made.pop((conn.id, id(msg)), None)
        hidden, public, seed = made if made is not None else self._facts(live, conn, msg)
        before = self._last.get(conn.id, hidden)
        self._last[conn.id] = hidden
        self.sent.setdefault(conn.player.id, []).append(
            (data["type"], hidden, before, public, seed))

    def _facts(self, live: LiveServer, conn: QueueConnection,
               msg: Any) -> tuple[set[str], set[str], str | None]:
        """The cards hidden from ``conn`` now, the step's public event cards, the seed."""
        hidden: set[str] = set()
        public: set[str] = set()
        seed = None
        data = msg.data if isinstance(msg, Frame) else msg.model_dump()
        table = live.tables.get(data.get("table_id") or "")
        if table is not None and table.recorder is not None and data["type"] != "game_over":
            seat = table.seat_of(conn)
            gs = None if seat is None else table.game_seat(seat.index)
            hidden = table.recorder.state.hidden_from(gs)
            seed = table.seed.hex() if table.seed else None
            public = set(strings_in([e.to_json() for e in table.fanout._events
                                     if e.visible_to(None)]))
        return hidden, public, seed

    def violations(self, player_id: str, frames: list[dict[str, Any]]) -> list[str]:
        """Cards or the seed a client received (``Client.frames``) that were hidden from it."""
        sent = self.sent.get(player_id, [])
        out = []
        for i, msg in enumerate(frames):
            kind, hidden, before, public, seed = sent[i]
            assert kind == msg["type"], (i, kind, msg["type"])
            seen = set(strings_in({k: v for k, v in msg.items() if k != "events"}))
            in_events = set(strings_in(msg.get("events") or []))
            leaked = (hidden & seen) | (hidden & before & (in_events - public))
            if leaked:
                out.append(f"message {i} ({kind}) shows hidden {sorted(leaked)}")
            if seed is not None and seed in seen | in_events:
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
