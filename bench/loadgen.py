"""The load generator of ``make bench``: WebSocket clients against cardhall or the bare server.

    python bench/loadgen.py --target cardhall --base http://127.0.0.1:8000 --mode closed \
        --tables 100 --duration 20

Runs in its own process (``bench/run.py`` starts it as a subprocess) with the ``websockets``
client library, four clients per table. Modes:

* ``closed``: once every client is connected, every client answers every ``state`` that offers
  it legal actions with an ``act`` at once (a random legal entry made concrete) - the table's
  peak rate.
* ``open``: each table acts ``--rate`` times per second on a fixed schedule (random phase): at
  each tick one seat holding an offer for the table's newest version acts; a tick that finds no
  offer (the server has not answered the previous act yet) fires as soon as one arrives and is
  counted in ``late_ticks``.
* ``silent``: nobody acts (cardhall only); with a short turn timeout the server's timer moves for
  everyone; seat 0's client measures timer lateness = arrival of the next ``state`` - (arrival of
  the state with ``deadline_ms`` + ``deadline_ms``).

Against the bare server (``bench/bare_server.py``) a "move" replaces the act, its ``ack`` the
``accepted``, and the broadcast's ``next`` says whose turn it is.

Several servers (a cluster, ``docs/scaling.md``): ``--rest-base`` (repeated) are where the
tables and their guests are created, round robin by table; ``--ws-base`` (repeated) are where
clients connect, each client to one of them picked at random (seeded). Both default to
``--base``. ``--hold-after-create`` prints ``{"phase": "created"}`` once the tables exist and
waits for a line on stdin before connecting (the orchestrator starts a node in between).

Stdout carries one JSON object per line: ``{"phase": "connected"}``, ``{"phase":
"measure_start"}``, ``{"phase": "measure_end"}`` (so the orchestrator can sample the server's
CPU, RSS and GC in step), then ``{"phase": "result", ...}``. Every loop is bounded: setup by
``--setup-timeout``, the run by ``--warmup`` + ``--duration``, the close by 20 s.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import sys
import time
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))

from loadclient import SEATS, Client, create_tables, note
from loadstats import Stats, Table, rate_per_second, summarize_ms


class LoadGen:
    """One run: set up the tables, connect, warm up, measure, close, report."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.stats = Stats()
        self.tables: list[Table] = []
        self.started = self.closing = False
        self.ws_urls = [f"ws://{b.split('://', 1)[1]}/ws" for b in args.ws_base]
        self.by_ws: dict[str, int] = {}
        """Clients per ``--ws-base``."""

    async def fire(self, table: Table) -> None:
        """An open-loop tick (or a late one): one seat of ``table`` acts/moves, if it can."""
        if self.args.target == "bare":
            if table.in_flight:
                table.pending = True
                return
            table.pending = False
            await table.seats[table.turn].move()
            return
        taken = table.take_offer()
        if taken is None:
            table.pending = True
            return
        table.pending = False
        await table.seats[taken[0]].act(taken[1])

    async def ticker(self, table: Table, end: float) -> None:
        """Open loop: ``--rate`` ticks per second at ``table`` (random phase) until ``end``."""
        period = 1.0 / self.args.rate
        t = time.perf_counter() + table.rng.random() * period
        while t < end:
            await asyncio.sleep(max(0.0, t - time.perf_counter()))
            if table.pending and self.stats.on:
                self.stats.late_ticks += 1  # the previous tick is still waiting
            await self.fire(table)
            t += period

    async def start_closed_loop(self) -> None:
        """Closed loop, once every client is connected: bare rooms get their first move (seat
        0); cardhall clients answer the last state they got if it offers legal actions."""
        for t in self.tables:
            if self.args.target == "bare":
                await t.seats[0].move()
                continue
            for c in t.seats:
                if c.latest is not None and c.latest.offers:
                    await c.act(c.latest)

    async def setup(self) -> None:
        """Tables (cardhall: over REST), then every client connected and joined, 16 at a time."""
        rng = random.Random(self.args.seed)
        t = time.perf_counter()
        if self.args.target == "cardhall":
            made = await create_tables(self.args)
            note(f"{len(made)} tables created over REST in {time.perf_counter() - t:.1f} s")
        else:
            made = [(f"r{t}", [""] * SEATS) for t in range(self.args.tables)]
        if self.args.hold_after_create:
            emit({"phase": "created", "tables": len(made)})
            await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        sem = asyncio.Semaphore(16)

        self.readers: list[asyncio.Task[None]] = []

        async def connect(c: Client) -> None:
            async with sem:
                await c.connect()
            self.readers.append(asyncio.create_task(c.run()))  # read from the first frame on

        for table_id, tokens in made:
            table = Table(table_id, random.Random(rng.random()))
            table.seats = [Client(self, table, s, tokens[s], self.ws_url(rng))
                           for s in range(SEATS)]
            self.tables.append(table)
        clients = [c for t in self.tables for c in t.seats]
        t = time.perf_counter()
        await asyncio.gather(*(connect(c) for c in clients))
        note(f"{len(clients)} clients connected in {time.perf_counter() - t:.1f} s")

    def ws_url(self, rng: random.Random) -> str:
        """The socket URL of one more client: one ``--ws-base`` at random (counted)."""
        url = self.ws_urls[0] if len(self.ws_urls) == 1 else rng.choice(self.ws_urls)
        base = self.args.ws_base[self.ws_urls.index(url)]
        self.by_ws[base] = self.by_ws.get(base, 0) + 1
        return url

    async def run(self) -> dict[str, Any]:
        """The whole run; returns the result object."""
        a, stats = self.args, self.stats
        t_setup = time.perf_counter()
        await asyncio.wait_for(self.setup(), a.setup_timeout)
        setup_s = time.perf_counter() - t_setup
        emit({"phase": "connected", "connections": SEATS * len(self.tables),
              "by_ws_base": self.by_ws})
        self.started = True
        end = time.perf_counter() + a.warmup + a.duration
        tickers = []
        if a.mode == "open":
            tickers = [asyncio.create_task(self.ticker(t, end)) for t in self.tables]
        elif a.mode == "closed":
            await self.start_closed_loop()
        await asyncio.sleep(a.warmup)
        cpu0 = time.process_time()
        stats.start, stats.on = time.perf_counter(), True
        emit({"phase": "measure_start"})
        await asyncio.sleep(a.duration)
        stats.end, stats.on = time.perf_counter(), False
        cpu = time.process_time() - cpu0
        emit({"phase": "measure_end"})
        await asyncio.sleep(min(2.0, a.duration))  # let answers to acts of the window arrive
        await self.close(tickers)
        return self.report(setup_s, cpu)

    async def close(self, tickers: list[asyncio.Task[None]]) -> None:
        """Stop the tickers, close every socket (bounded: 20 s), stop the readers."""
        self.closing = True
        for task in tickers:
            task.cancel()

        async def close_one(c: Client) -> None:
            with contextlib.suppress(Exception):  # a socket that is already gone
                await c.ws.close()

        clients = [c for t in self.tables for c in t.seats]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*(close_one(c) for c in clients)), 20)
        for task in self.readers:
            task.cancel()
        await asyncio.gather(*self.readers, *tickers, return_exceptions=True)

    def report(self, setup_s: float, cpu: float) -> dict[str, Any]:
        """The result object of the window (see the module docstring)."""
        a, s = self.args, self.stats
        secs = s.end - s.start
        n = len(s.latency)
        out: dict[str, Any] = {
            "target": a.target, "mode": a.mode, "tables": len(self.tables),
            "connections": SEATS * len(self.tables), "setup_s": round(setup_s, 2),
            "duration_s": round(secs, 2), "actions": n,
            "actions_per_s": rate_per_second(n, secs), "latency": summarize_ms(s.latency),
            "acts_sent": s.acts_sent, "errors": dict(s.errors),
            "frames_per_action": round(s.frames / n, 2) if n else None,
            "bytes_per_action": round(s.bytes / n) if n else None,
            "bytes_per_frame": round(s.bytes / s.frames) if s.frames else None,
            "frames_per_s": rate_per_second(s.frames, secs),
            "game_overs": s.game_overs, "closed_by_server": s.closed,
            "matches_ended": s.matches_ended if a.rematch else None,
            "rematches": s.rematches if a.rematch else None,
            "loadgen_cpu_cores": round(cpu / secs, 2) if secs > 0 else None,
        }
        if len(a.ws_base) > 1 or a.ws_base != a.rest_base:
            out["clients_by_ws_base"] = dict(self.by_ws)
        if a.mode == "open":
            out["rate_per_table"] = a.rate
            out["late_ticks"] = s.late_ticks
        if a.mode == "silent":
            out["turn_timeout_s"] = a.turn_timeout
            out["timer_lateness"] = summarize_ms(s.lateness)
        return out


def emit(obj: dict[str, Any]) -> None:
    """One JSON line on stdout, flushed (the orchestrator reads them as they come)."""
    sys.stdout.write(orjson.dumps(obj).decode() + "\n")
    sys.stdout.flush()


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options (see ``--help``)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--target", choices=["cardhall", "bare"], default="cardhall")
    ap.add_argument("--base", required=True, help="http://HOST:PORT of the server")
    ap.add_argument("--mode", choices=["closed", "open", "silent"], default="closed")
    ap.add_argument("--tables", type=int, default=100)
    ap.add_argument("--duration", type=float, default=20.0, help="measured seconds")
    ap.add_argument("--warmup", type=float, default=3.0, help="seconds before measuring")
    ap.add_argument("--rate", type=float, default=1.0, help="open loop: actions/s per table")
    ap.add_argument("--turn-timeout", type=float, default=600.0, help="table turn timeout, s")
    ap.add_argument("--target-score", type=int, default=1001, help="Blot match target")
    ap.add_argument("--rematch", action="store_true",
                    help="closed loop: when a match ends every client asks for the rematch and "
                    "plays it (use with a --target-score that ends matches, e.g. 101)")
    ap.add_argument("--setup-timeout", type=float, default=300.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rest-base", action="append", default=None,
                    help="http://HOST:PORT where tables are created; repeat for round robin "
                    "by table (default: --base)")
    ap.add_argument("--ws-base", action="append", default=None,
                    help="http://HOST:PORT where clients connect; repeat: each client picks "
                    "one at random (default: --base)")
    ap.add_argument("--hold-after-create", action="store_true",
                    help='print {"phase": "created"} and wait for a line on stdin before '
                    "connecting")
    args = ap.parse_args(argv)
    args.rest_base = args.rest_base or [args.base]
    args.ws_base = args.ws_base or [args.base]
    if args.target == "bare" and args.mode == "silent":
        ap.error("silent mode needs cardhall's turn timer")
    return args


def main() -> None:
    """Run once and print the result line; uvloop when installed."""
    args = parse_args()
    try:
        import uvloop
        runner: Any = uvloop.run
    except ImportError:
        runner = asyncio.run
    result = runner(LoadGen(args).run())
    emit({"phase": "result", **result})


if __name__ == "__main__":
    main()
