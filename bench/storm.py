"""The reconnect storm's load script (``make bench`` parts ``storm`` and ``restart_storm``,
``bench/storms.py``): every seat of N four-seat tables reconnects at once and resumes.

    python bench/storm.py seat --base http://127.0.0.1:8000 --tables 1000 --layout one \
        --plan /tmp/plan.json
    python bench/storm.py storm --base http://127.0.0.1:8000 --plan /tmp/plan.json --batch 100

``seat`` creates the guests (``POST /api/players``) and the Bazaar Blot tables (``POST
/api/tables``) over REST, 16 requests in flight, then takes every seat (``hello`` + ``join``,
16 sockets at a time, each retried up to 3 times), holds every socket until all are seated
(the games start), closes them and writes the plan (each socket's table, seat and token) to
``--plan``. Layouts: ``one`` (one player per socket: 4 guests per table) and ``shared`` (many
sockets per player: one guest per table, each guest holding a seat at 4 tables, so 4 sockets
per player).

``storm`` opens every socket of the plan, ``--batch`` handshakes in flight at once (a socket
holds its place from the TCP connect until its ``joined``), each saying ``hello`` and
``join`` (a resume of its seat), and keeps them open until every one is seated or refused.
A socket is **refused** when it gets an ``error`` or is closed before its ``joined`` (no
retry: the figure is what a storm does at the first try). ``--target bare`` opens the same
number of sockets against ``bench/bare_server.py`` (no hello, nothing to resume: the floor).
Prints one JSON object: ``sockets``, ``seated``, ``refused`` (by error code or close), the
time from the first connect to the last seat (``seconds_to_all_seated``), per-socket
connect -> joined latency (p50/p99/max), and sockets per second. Bounded by ``--timeout``.

``--play-rate R`` (default 0: nobody plays) adds the table traffic of a restart: once a socket
has its ``joined`` it keeps reading, and each table acts ``R`` times a second from the storm's
first connect until ``--after-seconds`` (5) after the last socket's answer
(``bench/stormplay.py``); the JSON object gains ``play``: act -> accepted latency and refused
acts by code during the storm and after it, and the sockets closed while playing.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import json
import sys
import time
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))

from loadstats import summarize_ms
from stormplay import Play

SEATS = 4


def note(text: str) -> None:
    """Progress on stderr (stdout is the JSON result)."""
    print(f"[storm] {text}", file=sys.stderr, flush=True)


def ws_url(base: str) -> str:
    """``ws://HOST:PORT/ws`` of ``http://HOST:PORT``."""
    return f"ws://{base.split('://', 1)[1]}/ws"


async def create(base: str, tables: int, layout: str,
                 timeout: float) -> list[dict[str, Any]]:
    """Guests and tables over REST; the plan: one ``{"table_id", "seat", "token",
    "player"}`` per socket. ``shared``: guest ``g`` is created by table ``g`` and seat ``s``
    of table ``t`` is guest ``(t + s * tables // 4) % tables`` (4 distinct per table)."""
    import httpx

    if layout == "shared" and tables % SEATS:
        raise ValueError(f"layout shared needs a multiple of {SEATS} tables, got {tables}")
    sem = asyncio.Semaphore(16)
    async with httpx.AsyncClient(base_url=base, timeout=timeout,
                                 limits=httpx.Limits(max_connections=16)) as http:
        async def post(path: str, body: dict[str, Any], token: str | None = None) -> Any:
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            async with sem:
                r = await http.post(path, json=body, headers=headers)
            r.raise_for_status()
            return r.json()

        n_players = tables * SEATS if layout == "one" else tables
        players = await asyncio.gather(*(post("/api/players", {"name": f"s{i}"})
                                         for i in range(n_players)))

        def holder(t: int, s: int) -> dict[str, Any]:
            return dict(players[t * SEATS + s] if layout == "one"
                        else players[(t + s * tables // SEATS) % tables])

        body = {"game": "bazaar_blot", "seats": SEATS, "turn_timeout_seconds": 600,
                "config": {"target_score": 1001}}
        ids = await asyncio.gather(*(post("/api/tables", body, holder(t, 0)["token"])
                                     for t in range(tables)))
    return [{"table_id": made["id"], "seat": s, "token": holder(t, s)["token"],
             "player": holder(t, s)["id"]} for t, made in enumerate(ids) for s in range(SEATS)]


class Outcome:
    """What one socket of a storm got: ``seated`` (its ``joined``), else ``refused`` (the
    error code or ``closed <code>``), and ``seconds`` from its connect to its ``joined``."""

    def __init__(self) -> None:
        self.seated, self.refused, self.seconds = False, "", 0.0
        self.ws: Any = None
        self.early: list[dict[str, Any]] = []  # ``state`` frames before the ``joined``


async def resume(url: str, item: dict[str, Any] | None, timeout: float,
                 out: Outcome | None = None) -> Outcome:
    """Connect, ``hello`` and ``join`` ``item``'s seat (``None``: the bare server, connect
    only), filling ``out`` (a new one by default); the socket stays open in ``Outcome.ws``."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    out = Outcome() if out is None else out
    t0 = time.perf_counter()
    try:
        out.ws = ws = await connect(url, max_size=2**23, compression=None, ping_interval=None,
                                    open_timeout=timeout, close_timeout=2)
        if item is not None:
            await ws.send(orjson.dumps({"type": "hello", "token": item["token"]}).decode())
            await ws.send(orjson.dumps({"type": "join", "table_id": item["table_id"],
                                        "seat": item["seat"]}).decode())
            while True:
                msg = orjson.loads(await ws.recv(decode=False))
                if msg.get("type") == "joined":
                    break
                if msg.get("type") == "error":
                    out.refused = str(msg.get("code"))
                    return out
                if msg.get("type") == "state":
                    out.early.append(msg)
        out.seated, out.seconds = True, time.perf_counter() - t0
    except ConnectionClosed as exc:
        out.refused = f"closed {exc.rcvd.code if exc.rcvd else 'abnormally'}"
    except (OSError, TimeoutError) as exc:
        out.refused = f"connect {type(exc).__name__}"
    return out


async def wave(url: str, items: list[dict[str, Any] | None], batch: int,
               timeout: float, play: Play | None = None) -> tuple[list[Outcome], float]:
    """Every item's socket, ``batch`` handshakes in flight; the outcomes and the seconds from
    the first connect to the last answer. With ``play`` each seated socket is handed to it
    (:meth:`Play.attach`) at once, out of the handshakes' count. A socket still unanswered
    after ``timeout`` seconds is refused as ``no answer``; a progress line every 10 s."""
    sem = asyncio.Semaphore(batch)
    outcomes = [Outcome() for _ in items]
    answered = 0

    async def one(item: dict[str, Any] | None, out: Outcome) -> None:
        nonlocal answered
        async with sem:
            await resume(url, item, timeout, out)
        answered += 1
        if play is not None and item is not None and out.seated:
            play.attach(item, out.ws, out.early)

    t0 = time.perf_counter()
    tasks = [asyncio.create_task(one(i, o)) for i, o in zip(items, outcomes, strict=True)]
    pending: set[asyncio.Task[None]] = set(tasks)
    while pending and time.perf_counter() - t0 < timeout:
        _, pending = await asyncio.wait(pending, timeout=min(10.0, timeout))
        if pending:
            note(f"{answered} of {len(items)} answered after {time.perf_counter() - t0:.0f} s")
    secs = time.perf_counter() - t0
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    for o in outcomes:
        if not o.seated and not o.refused:
            o.refused = "no answer"
    return outcomes, secs


async def close_all(outcomes: list[Outcome]) -> None:
    """Close every socket still open (bounded: 20 s)."""
    async def close(o: Outcome) -> None:
        with contextlib.suppress(Exception):
            await o.ws.close()

    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(asyncio.gather(*(close(o) for o in outcomes if o.ws)), 20)


async def seat(a: argparse.Namespace) -> dict[str, Any]:
    """The ``seat`` command: create, take every seat (16 at a time, 3 tries), write the plan."""
    t0 = time.perf_counter()
    plan = await create(a.base, a.tables, a.layout, a.timeout)
    note(f"{a.tables} tables, {len(plan)} seats created in {time.perf_counter() - t0:.1f} s")
    done: list[Outcome] = []
    todo = list(plan)
    for _ in range(3):
        outcomes, _secs = await wave(ws_url(a.base), list(todo), 16, a.timeout)
        done += [o for o in outcomes if o.seated]
        todo = [i for i, o in zip(todo, outcomes, strict=True) if not o.seated]
        await close_all([o for o in outcomes if not o.seated])
        if not todo:
            break
    await close_all(done)
    if todo:
        raise RuntimeError(f"{len(todo)} seats could not be taken in 3 tries")
    Path(a.plan).write_text(json.dumps({"layout": a.layout, "tables": a.tables,
                                        "sockets": plan}))
    return {"tables": a.tables, "sockets": len(plan), "seconds": round(time.perf_counter() - t0, 1)}


async def storm(a: argparse.Namespace) -> dict[str, Any]:
    """The ``storm`` command (see the module docstring)."""
    plan = json.loads(Path(a.plan).read_text())
    items: list[dict[str, Any] | None] = (list(plan["sockets"]) if a.target == "cardhall"
                                          else [None] * len(plan["sockets"]))
    url = ws_url(a.base)
    if a.target == "bare":
        url += "?room=r&seat=0"
    play = Play(a.play_rate) if a.play_rate > 0 and a.target == "cardhall" else None
    t0 = time.perf_counter()
    if play is not None:
        play.start([i["table_id"] for i in plan["sockets"]])
    budget = a.timeout - 30 - (a.after_seconds + 5 if play else 0)  # then play on, close
    outcomes, secs = await wave(url, items, a.batch, budget, play)
    played: dict[str, Any] = {}
    if play is not None:
        last = time.perf_counter()
        await asyncio.sleep(a.after_seconds)
        after_end = time.perf_counter()
        await play.stop()
        played = {"play": play.report(t0, last, after_end)}
    await close_all(outcomes)
    seated = [o for o in outcomes if o.seated]
    refused = collections.Counter(o.refused for o in outcomes if not o.seated)
    return {"target": a.target, "layout": plan["layout"], "tables": plan["tables"],
            "sockets": len(outcomes), "players": len({i["player"] for i in plan["sockets"]}),
            "batch": a.batch, "seated": len(seated), "refused": sum(refused.values()),
            "refused_by": dict(refused), "seconds_to_all_seated": round(secs, 2),
            "sockets_per_s": round(len(seated) / secs, 1) if secs > 0 else None,
            "latency": summarize_ms([o.seconds for o in seated]), **played}


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options (see ``--help``)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("command", choices=["seat", "storm"])
    ap.add_argument("--base", required=True, help="http://HOST:PORT of the server")
    ap.add_argument("--plan", required=True, help="the plan file (seat writes, storm reads)")
    ap.add_argument("--tables", type=int, default=1000)
    ap.add_argument("--layout", choices=["one", "shared"], default="one")
    ap.add_argument("--batch", type=int, default=100, help="handshakes in flight at once")
    ap.add_argument("--target", choices=["cardhall", "bare"], default="cardhall")
    ap.add_argument("--play-rate", type=float, default=0.0,
                    help="storm: acts per second per table once its seats are back (0: none)")
    ap.add_argument("--after-seconds", type=float, default=5.0,
                    help="storm with --play-rate: keep playing this long after the last seat")
    ap.add_argument("--timeout", type=float, default=300.0, help="bound of the whole command")
    return ap.parse_args(argv)


def main() -> None:
    """Run one command and print its JSON object; uvloop when installed."""
    a = parse_args()
    try:
        import uvloop
        runner: Any = uvloop.run
    except ImportError:
        runner = asyncio.run
    print(json.dumps(runner(seat(a) if a.command == "seat" else storm(a))), flush=True)


if __name__ == "__main__":
    main()
