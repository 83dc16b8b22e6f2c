"""The table traffic of a reconnect storm (``bench/storm.py storm --play-rate R``, issue 26).

After a restart everyone reconnects, and the tables whose players are back start playing
while the rest still reconnect. :class:`Play` is that traffic: once a socket of the storm has
its ``joined`` it is handed to :meth:`Play.attach`, which reads its frames until the socket
closes; every table has a ticker from the storm's first connect on, ``R`` ticks per second at
a random phase (``bench/loadgen.py``'s open loop), and at each tick the seat holding an offer
for the table's newest version (:class:`loadstats.Table`) acts once with a random legal
action (:func:`loadstats.pick_action`). A tick that finds no offer (a seat not back yet, or
the previous act not answered) fires as soon as one arrives.

Measured: act -> ``accepted`` latency and refused acts by error code, split by when the act
was sent: ``storm`` (from the first connect to the last socket's answer) and ``after`` (the
``--after-seconds`` after it). In Bazaar Blot an opponent may act out of turn (contra), so
``table.stale_version`` on an act is expected; an act's error is never a refusal of the
socket. An ``error`` that answers no act of ours is counted in ``errors_while_playing``, and
a socket the server closes while it plays in ``closed_while_playing`` (by the last such
error's code, else ``closed <close code>``).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import random
import secrets
import sys
import time
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))

from loadstats import Table, pick_action, read_state, summarize_ms


def window_report(acts: list[tuple[float, float]], refusals: list[tuple[float, str]],
                  start: float, end: float) -> dict[str, Any]:
    """The acts sent in ``[start, end)``: ``acts`` (answered: accepted or refused), their
    accept latency (p50/p99/max, ms) and the refused ones by error code. ``acts`` holds
    ``(sent, seconds to accepted)``, ``refusals`` ``(sent, code)``."""
    lat = [s for t, s in acts if start <= t < end]
    refused = collections.Counter(c for t, c in refusals if start <= t < end)
    return {"acts": len(lat) + sum(refused.values()), "accepted": len(lat),
            "latency": summarize_ms(lat), "refused_by": dict(refused)}


class Seat:
    """One resumed socket of the storm: its table, seat and what it sent."""

    def __init__(self, play: Play, table: Table, seat: int, ws: Any) -> None:
        self.play, self.table, self.seat, self.ws = play, table, seat, ws
        self.last_error = ""

    async def act(self, table_id: str, version: int, legal: list[dict[str, Any]]) -> None:
        """Send an ``act`` against ``version`` with a random legal action."""
        play = self.play
        play.n += 1
        aid = f"{play.prefix}-{play.n}"
        action = pick_action(legal, self.table.rng)
        play.sent[aid] = time.perf_counter()
        with contextlib.suppress(Exception):  # a socket closing under us: its reader counts it
            await self.ws.send(orjson.dumps({"type": "act", "table_id": table_id,
                                             "version": version, "action_id": aid,
                                             "action": action}).decode())


class Play:
    """The storm's table traffic (see the module docstring); ``rate`` acts/s per table."""

    def __init__(self, rate: float, seed: int = 26) -> None:
        self.rate, self.rng = rate, random.Random(seed)
        self.tables: dict[str, Table] = {}
        self.sent: dict[str, float] = {}  # action_id -> perf_counter when sent
        self.acts: list[tuple[float, float]] = []  # (sent, seconds to accepted)
        self.refusals: list[tuple[float, str]] = []  # (sent, error code) of refused acts
        self.errors_while_playing: collections.Counter[str] = collections.Counter()
        self.closed_while_playing: collections.Counter[str] = collections.Counter()
        self.closing = False
        self.prefix, self.n = secrets.token_hex(3), 0
        self.tickers: list[asyncio.Task[None]] = []
        self.readers: list[asyncio.Task[None]] = []
        self.played: set[str] = set()  # tables with an accepted act

    def table(self, table_id: str) -> Table:
        """The table ``table_id`` (made on first use, four empty seats)."""
        t = self.tables.get(table_id)
        if t is None:
            t = self.tables[table_id] = Table(table_id, random.Random(self.rng.random()))
            t.seats = [None] * 4
        return t

    def start(self, table_ids: list[str]) -> None:
        """Every table's ticker, from now on (each at a random phase)."""
        for tid in dict.fromkeys(table_ids):
            self.tickers.append(asyncio.create_task(self.ticker(self.table(tid))))

    async def ticker(self, table: Table) -> None:
        """``rate`` ticks per second at ``table`` (random phase) until cancelled."""
        period = 1.0 / self.rate
        t = time.perf_counter() + table.rng.random() * period
        while True:
            await asyncio.sleep(max(0.0, t - time.perf_counter()))
            await self.fire(table)
            t += period

    async def fire(self, table: Table) -> None:
        """A tick (or a late one): the seat holding the newest offer acts, if one does."""
        taken = table.take_offer()
        if taken is None:
            table.pending = not self.closing
            return
        table.pending = False
        seat, info = taken
        holder = table.seats[seat]
        if holder is not None:
            await holder.act(info.table_id, info.version, info.legal_actions)

    def attach(self, item: dict[str, Any], ws: Any, early: list[dict[str, Any]]) -> None:
        """A socket just resumed ``item``'s seat: read its frames (``early``: those before
        its ``joined``, handled first) until it closes."""
        table = self.table(str(item["table_id"]))
        seat = Seat(self, table, int(item["seat"]), ws)
        table.seats[seat.seat] = seat
        self.readers.append(asyncio.create_task(self.read(seat, early)))

    async def read(self, seat: Seat, early: list[dict[str, Any]]) -> None:
        """Handle ``early`` then every frame of ``seat``'s socket until it closes."""
        from websockets.exceptions import ConnectionClosed

        for msg in early:
            await self.on_frame(seat, msg, time.perf_counter())
        try:
            while True:
                raw = await seat.ws.recv(decode=False)
                await self.on_frame(seat, orjson.loads(raw), time.perf_counter())
        except ConnectionClosed as exc:
            if not self.closing:
                code = exc.rcvd.code if exc.rcvd else "abnormally"
                self.closed_while_playing[seat.last_error or f"closed {code}"] += 1
        finally:
            seat.table.offers.pop(seat.seat, None)
            if seat.table.seats[seat.seat] is seat:
                seat.table.seats[seat.seat] = None

    async def on_frame(self, seat: Seat, msg: dict[str, Any], now: float) -> None:
        """One server message to ``seat``: remember offers, time answers, count errors."""
        kind = msg.get("type")
        if kind == "state":
            info = read_state(msg)
            assert info is not None
            if info.table_id != seat.table.id:
                return
            seat.table.offer(seat.seat, info)
            if seat.table.pending:
                await self.fire(seat.table)
        elif kind == "accepted":
            t0 = self.sent.pop(str(msg.get("action_id")), None)
            if t0 is not None:
                self.acts.append((t0, now - t0))
                self.played.add(str(msg.get("table_id")))
        elif kind == "error":
            request = msg.get("request") or {}
            t0 = self.sent.pop(str(request.get("action_id")), None)
            code = str(msg.get("code"))
            if t0 is not None:
                self.refusals.append((t0, code))
            else:
                self.errors_while_playing[code] += 1
                seat.last_error = code

    async def stop(self, grace: float = 2.0) -> None:
        """Stop the tickers, give the acts in flight ``grace`` seconds to be answered, then
        mark the close as ours (the readers end when the sockets close)."""
        for task in self.tickers:
            task.cancel()
        deadline = time.perf_counter() + grace
        while self.sent and time.perf_counter() < deadline:
            await asyncio.sleep(0.05)
        self.closing = True

    def report(self, start: float, last_seat: float, after_end: float) -> dict[str, Any]:
        """The play figures: acts in the storm (``start`` .. ``last_seat``) and after it
        (.. ``after_end``), acts never answered, errors and closes while playing."""
        return {"rate": self.rate,
                "tables": len(self.tables), "tables_played": len(self.played),
                "storm": window_report(self.acts, self.refusals, start, last_seat),
                "after": window_report(self.acts, self.refusals, last_seat, after_end),
                "unanswered": len(self.sent),
                "errors_while_playing": dict(self.errors_while_playing),
                "closed_while_playing": dict(self.closed_while_playing)}
