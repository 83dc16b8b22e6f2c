"""The load generator's clients (``bench/loadgen.py``): one WebSocket client per seat, and the
tables and guests it plays, created over REST.

:class:`Client` answers offers as ``docs/bots.md`` section 6 says (a random legal entry made
concrete), or the bare server's broadcasts with moves; :func:`create_tables` makes the
guests and Bazaar Blot tables of a run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import secrets
import sys
import time
from typing import TYPE_CHECKING, Any

import orjson
from loadstats import StateInfo, Table, pick_action, read_state

if TYPE_CHECKING:
    from loadgen import LoadGen

SEATS = 4


def note(text: str) -> None:
    """Progress on stderr."""
    print(f"[loadgen] {text}", file=sys.stderr, flush=True)


class Client:
    """One WebSocket client at one seat (connecting to ``ws_url``, ``ws://HOST:PORT/ws``);
    ``run`` reads until the socket closes."""

    def __init__(self, lg: LoadGen, table: Table, seat: int, token: str | None,
                 ws_url: str = "") -> None:
        self.lg, self.table, self.seat, self.token = lg, table, seat, token
        self.ws_url = ws_url
        self.ws: Any = None
        self.sent: dict[str, float] = {}
        self.prefix, self.n = secrets.token_hex(3), 0
        self.pending_deadline: tuple[int, float] | None = None  # silent mode: (version, due)
        self.latest: StateInfo | None = None  # closed mode: the last state before the start
        self.table_id = table.id  # the table this client plays now (--rematch moves it on)
        self.rematching = False  # --rematch: a ``rematch`` of the finished table is on its way

    async def connect(self) -> None:
        """Open the socket; for cardhall send ``hello`` + ``join`` (answers are read in ``run``)."""
        from websockets.asyncio.client import connect

        lg = self.lg
        if lg.args.target == "bare":
            url = f"{self.ws_url}?room={self.table.id}&seat={self.seat}"
        else:
            url = self.ws_url
        self.ws = await connect(url, max_size=2**23, compression=None, ping_interval=None,
                                open_timeout=lg.args.setup_timeout, close_timeout=2)
        if lg.args.target == "cardhall":
            await self.ws.send(orjson.dumps({"type": "hello", "token": self.token}).decode())
            await self.ws.send(orjson.dumps({"type": "join", "table_id": self.table.id,
                                             "seat": self.seat}).decode())
            await self.until_joined()

    async def until_joined(self) -> None:
        """Read until ``joined`` (so set-up goes at the server's pace, not faster); frames
        before it go to the handler. Raises ``RuntimeError`` on an ``error`` answer."""
        while True:
            msg = orjson.loads(await self.ws.recv(decode=False))
            kind = msg.get("type")
            if kind == "joined":
                return
            if kind == "error":
                raise RuntimeError(f"seat {self.seat} of {self.table.id}: {msg.get('code')}")
            if kind != "welcome":
                await self.on_cardhall(msg, time.perf_counter())

    async def run(self) -> None:
        """Read frames until the socket closes; dispatch each to the mode's handler."""
        from websockets.exceptions import ConnectionClosed

        stats = self.lg.stats
        try:
            while True:
                raw = await self.ws.recv(decode=False)
                now = time.perf_counter()
                if stats.on:
                    stats.frames += 1
                    stats.bytes += len(raw)
                msg = orjson.loads(raw)
                if self.lg.args.target == "bare":
                    await self.on_bare(msg, now)
                else:
                    await self.on_cardhall(msg, now)
        except ConnectionClosed:
            if not self.lg.closing:
                stats.closed += 1

    async def on_cardhall(self, msg: dict[str, Any], now: float) -> None:
        """Handle one cardhall server message."""
        kind, stats, mode = msg.get("type"), self.lg.stats, self.lg.args.mode
        if kind == "state":
            info = read_state(msg)
            assert info is not None
            if info.table_id != self.table_id:
                return  # a frame of the table this client played before a rematch
            if info.status == "finished" and self.lg.args.rematch:
                await self.rematch()
            elif mode == "silent":
                self.track_deadline(info, now)
            elif mode == "closed":
                if not self.lg.started:
                    self.latest = info  # answered when every client is connected
                elif info.offers:
                    await self.act(info)
            else:
                self.table.offer(self.seat, info)
                if self.table.pending:
                    await self.lg.fire(self.table)
        elif kind == "accepted":
            self.record(self.sent.pop(str(msg.get("action_id")), None), now)
        elif kind == "error":
            request = msg.get("request") or {}
            t0 = self.sent.pop(str(request.get("action_id")), None)
            if stats.on or (t0 is not None and stats.in_window(t0)):
                stats.errors[str(msg.get("code"))] += 1
        elif kind == "game_over":
            stats.game_overs += 1
            if stats.on and self.seat == 0 and msg.get("table_id") == self.table_id:
                stats.matches_ended += 1  # Blot: one game is the match (seat 0: once a table)
        elif kind == "rematch_ready" and msg.get("table_id") == self.table_id:
            await self.send({"type": "leave", "table_id": self.table_id})
            self.table_id, self.rematching = str(msg["rematch_table_id"]), False
            if stats.on:
                stats.rematches += 1

    async def rematch(self) -> None:
        """``--rematch``: the match is over; play again as a client does (``docs/protocol.md``,
        "Play again"): ``rematch``, then (on ``rematch_ready``) ``leave`` the old table and
        play the new one, where the server seats this client."""
        if not self.rematching:
            self.rematching = True
            await self.send({"type": "rematch", "table_id": self.table_id})

    async def send(self, msg: dict[str, Any]) -> None:
        """One JSON message on the socket."""
        await self.ws.send(orjson.dumps(msg).decode())

    async def on_bare(self, msg: dict[str, Any], now: float) -> None:
        """Handle one bare-server message (``ack`` or ``move`` broadcast)."""
        if msg.get("type") == "ack":
            self.record(self.sent.pop(str(msg.get("id")), None), now)
            return
        table = self.table
        table.turn, table.in_flight = int(msg["next"]), False
        if self.seat != table.turn or not self.lg.started:
            return
        if self.lg.args.mode == "closed":
            await self.move()
        elif table.pending:
            await self.lg.fire(table)

    def record(self, t0: float | None, now: float) -> None:
        """Count an accepted act/ack sent at ``t0`` if it was sent in the window."""
        stats = self.lg.stats
        if t0 is not None and stats.in_window(t0):
            stats.latency.append(now - t0)

    def track_deadline(self, info: StateInfo, now: float) -> None:
        """Silent mode, seat 0: timer lateness from the frames' versions and deadlines."""
        if self.seat != 0:
            return
        pend = self.pending_deadline
        if pend is not None and info.version <= pend[0]:
            return  # the same version again (e.g. presence): keep the first receipt
        if pend is not None and self.lg.stats.in_window(pend[1]):
            self.lg.stats.lateness.append(now - pend[1])
        self.pending_deadline = (None if info.deadline_ms is None or info.status != "playing"
                                 else (info.version, now + info.deadline_ms / 1000))

    async def act(self, info: StateInfo) -> None:
        """Send an ``act`` against ``info.version`` with a random legal action."""
        self.n += 1
        aid = f"{self.prefix}-{self.n}"
        action = pick_action(info.legal_actions, self.table.rng)
        self.sent[aid] = time.perf_counter()
        if self.lg.stats.on:
            self.lg.stats.acts_sent += 1
        await self.ws.send(orjson.dumps({"type": "act", "table_id": info.table_id,
                                         "version": info.version, "action_id": aid,
                                         "action": action}).decode())

    async def move(self) -> None:
        """Bare server: send a move."""
        self.n += 1
        mid = f"{self.prefix}-{self.n}"
        self.table.in_flight = True
        self.sent[mid] = time.perf_counter()
        if self.lg.stats.on:
            self.lg.stats.acts_sent += 1
        await self.ws.send(orjson.dumps({"type": "move", "id": mid}).decode())


async def create_tables(args: argparse.Namespace) -> list[tuple[str, list[str]]]:
    """Cardhall: ``4 * tables`` guests (``POST /api/players``) and ``tables`` Bazaar Blot
    tables (``POST /api/tables``), table ``t`` and its guests at ``rest_bases[t % len]``;
    returns ``[(table_id, [token per seat])]``. 16 requests in flight in all; raises
    ``httpx.HTTPStatusError`` on a refused request."""
    import httpx

    sem = asyncio.Semaphore(16)
    limits = httpx.Limits(max_connections=16)
    clients = [httpx.AsyncClient(base_url=b, timeout=args.setup_timeout, limits=limits)
               for b in args.rest_base]
    async with contextlib.AsyncExitStack() as stack:
        for c in clients:
            await stack.enter_async_context(c)

        async def post(http: Any, path: str, body: dict[str, Any],
                       token: str | None = None) -> Any:
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            async with sem:
                r = await http.post(path, json=body, headers=headers)
            r.raise_for_status()
            return r.json()

        async def table(t: int) -> tuple[str, list[str]]:
            http = clients[t % len(clients)]
            players = await asyncio.gather(*(post(http, "/api/players", {"name": f"b{t}-{s}"})
                                             for s in range(SEATS)))
            tokens = [p["token"] for p in players]
            body = {"game": "bazaar_blot", "seats": SEATS,
                    "turn_timeout_seconds": args.turn_timeout,
                    "config": {"target_score": args.target_score}}
            made = (await post(http, "/api/tables", body, tokens[0]))["id"], tokens
            if (t + 1) % 500 == 0:
                note(f"table {t + 1} created")
            return made

        return await asyncio.gather(*(table(t) for t in range(args.tables)))
