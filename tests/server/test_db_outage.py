"""Database outages against the real app (uvicorn in this process, durable tables).

1. PostgreSQL refuses connections while games finish (a TCP proxy between the app and the
   database is switched to refuse, then back): the log degrades, the save counters move, the
   tables keep sending states; afterwards every finished game is saved exactly once and the
   outbox is empty.
2. The database blocks for 5 s (PostgreSQL: ``LOCK TABLE ... ACCESS EXCLUSIVE`` held by another
   connection; SQLite: another connection in ``BEGIN EXCLUSIVE``): a table with a silent client
   keeps firing its turn timer and sending the timeout steps meanwhile; after the release
   everything is committed.

Waits are bounded (``asyncio.timeout``, polling with a deadline); the 5-second lock window is
the scenario itself, not a synchronisation.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import random
import sqlite3
import uuid
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from dbproxy import db_proxy
from livesrv import Client, LiveServer, client, live_server
from sqlalchemy.engine import make_url

from cardhall.bots import RandomPolicy

POSTGRES_URL = os.environ.get(
    "CARDHALL_TEST_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
)
DEADLINE_SECONDS = 60.0
LOCK_SECONDS = 5.0
GAME, SEATS = "soldiers_bluff", 3

pytestmark = pytest.mark.slow

RICH: dict[str, Any] = {"chips_top_up_to": 100_000}
"""The tables are created with a 100,000-chip ``starting_stack`` (seat 0 never goes broke):
their buy-in is 10,000 to 100,000 chips, so seat 0's player, whose balance starts at 1,000, gets
the free top-up to 100,000 when it sits down (chip balances are on, ``tables/chips.py``)."""


def _dsn(url: str) -> str:
    return url.replace("postgresql+asyncpg://", "postgresql://", 1)


async def _pg_execute(sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(_dsn(POSTGRES_URL), timeout=5)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


async def _pg_schema() -> AsyncIterator[str]:
    """A fresh schema on the test server (dropped afterwards); skips when unreachable."""
    import asyncpg

    try:
        conn = await asyncpg.connect(_dsn(POSTGRES_URL), timeout=2)
    except Exception as exc:
        pytest.skip(f"PostgreSQL not reachable at {POSTGRES_URL} ({type(exc).__name__}: {exc}); "
                    "set CARDHALL_TEST_POSTGRES_URL")
    await conn.close()
    schema = f"cardhall_test_{uuid.uuid4().hex[:12]}"
    await _pg_execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield schema
    finally:
        await _pg_execute(f'DROP SCHEMA "{schema}" CASCADE')


async def _until(what: str, pred: Callable[[], Awaitable[bool] | bool],
                 seconds: float = DEADLINE_SECONDS) -> None:
    """Poll ``pred`` until it holds; fail naming ``what`` after ``seconds``."""
    try:
        async with asyncio.timeout(seconds):
            while True:
                ok = pred()
                if not isinstance(ok, bool):
                    ok = await ok
                if ok:
                    return
                await asyncio.sleep(0.02)  # polling a condition, bounded by the timeout
    except TimeoutError:
        pytest.fail(f"not within {seconds} s: {what} (last look: {LAST_LOOK})")


async def _create_table(live: LiveServer, token: str) -> str:
    bots = [{"seat": s, "kind": "rule"} for s in range(1, SEATS)]
    async with live.http as http:
        r = await http.post("/api/tables", headers={"Authorization": f"Bearer {token}"},
                            json={"game": GAME, "seats": SEATS, "bots": bots,
                                  "starting_stack": 100_000, "turn_timeout_seconds": 0.3})
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


async def _degraded(live: LiveServer) -> bool:
    """Whether ``GET /readyz`` answers 200 ``degraded`` (the node serves on: issue 27 case 3)
    and says the log is not ok."""
    async with live.http as http:
        r = await http.get("/readyz")
    body = r.json()
    return r.status_code == 200 and body["status"] == "degraded" \
        and body["checks"]["log"]["ok"] is False


async def _all_committed(live: LiveServer) -> bool:
    """Nothing playing, the log and the writer drained, the outbox empty (the last look is
    kept in ``LAST_LOOK`` for the failure message)."""
    log, writer = live.app.state.log, live.writer
    look = {"playing": sum(t.status == "playing" for t in live.tables.list()),
            "log backlog": log.backlog, "log healthy": log.healthy, "writer queued": writer.queued,
            "outbox": None}
    LAST_LOOK.clear()
    LAST_LOOK.update(look)
    if look["playing"] or log.backlog or not log.healthy or writer.queued:
        return False
    with contextlib.suppress(Exception):  # the database may still be coming back
        LAST_LOOK["outbox"] = len(await live.store.load_outbox())
    return LAST_LOOK["outbox"] == 0


LAST_LOOK: dict[str, Any] = {}


async def _check_saved(live: LiveServer, game_ids: list[str]) -> None:
    """Each of ``game_ids`` is in ``games`` once, with one result row per seat."""
    summaries = await live.store.list_games(limit=100_000)
    stored = Counter(s.id for s in summaries)
    assert not [g for g, n in stored.items() if n > 1]
    missing = [g for g in game_ids if g not in stored]
    assert not missing, f"{len(missing)} of {len(game_ids)} finished games not saved"
    by_id = {s.id: s for s in summaries}
    assert all(len(by_id[g].seats) == SEATS for g in game_ids)
    assert live.writer.failed == 0 and live.app.state.log.lost == 0


# ----- 1. the database refuses connections ------------------------------------------------
CAUTIOUS = frozenset({"exchange", "pass", "check", "fold"})
"""The moves seat 0 picks from: it never bets, raises or calls, so it cannot go broke (a broke
seat stops its table dealing) and its stack only pays the forced bets."""


class Player:
    """Seat 0's client: random cautious moves (:data:`CAUTIOUS`); notes each game_over with
    the phase it came in."""

    def __init__(self, c: Client, table_id: str, seed: int, phase: dict[str, str]) -> None:
        self.c, self.table_id, self.phase = c, table_id, phase
        self.rng = random.Random(seed)
        self.games: list[tuple[str, str]] = []
        self.states: Counter[str] = Counter()
        self.stop = False
        self.debug: Callable[[], str] = lambda: ""

    async def run(self) -> None:
        policy = RandomPolicy()
        n = 0
        while True:
            try:
                msg = await self.c.recv()
            except TimeoutError:
                raise AssertionError(f"table {self.table_id} went silent: {self.debug()}") from None
            if msg["type"] == "game_over":
                self.games.append((msg["game_id"], self.phase["now"]))
                if self.stop:
                    return
            if msg["type"] != "state":
                continue
            self.states[self.phase["now"]] += 1
            legal = [e for e in msg["legal_actions"] if e["type"] in CAUTIOUS]
            if legal and msg["status"] == "playing":
                n += 1
                action = policy.choose(msg["view"], legal, self.rng)
                await self.c.send({"type": "act", "table_id": self.table_id,
                                   "version": msg["version"], "action_id": f"m{n}",
                                   "action": action})


@pytest.mark.postgres
async def test_games_finished_while_postgres_refuses_connections_are_saved_once() -> None:
    async for schema in _pg_schema():
        pg = make_url(POSTGRES_URL)
        async with db_proxy(pg.host or "127.0.0.1", pg.port or 5432) as proxy:
            url = pg.set(host="127.0.0.1", port=proxy.port).render_as_string(hide_password=False)
            async with live_server(database_url=url, database_schema=schema,
                                   turn_timeout_seconds=0.3, db_timeout_seconds=1.0,
                                   log_sync_timeout_seconds=0.2, **RICH) as live:
                saved = await _refused_outage(live, proxy)
        # the log written through the outage restores: every table comes back, none aborted
        async with live_server(database_url=POSTGRES_URL, database_schema=schema) as again:
            assert again.tables.tables_restored == 3 and again.tables.tables_aborted == 0
            assert {s.id for s in await again.store.list_games(limit=100_000)} == saved
            assert await again.store.load_outbox() == []


async def _refused_outage(live: LiveServer, proxy: Any) -> set[str]:
    """Play through the outage; the ids of the games saved at the end."""
    log, writer = live.app.state.log, live.writer
    phase = {"now": "up"}
    async with contextlib.AsyncExitStack() as stack:
        players = []
        for i in range(3):
            _, token = await live.player(f"p{i}")
            tid = await _create_table(live, token)
            c = await stack.enter_async_context(client(live, token))
            await c.send({"type": "join", "table_id": tid, "seat": 0})
            players.append(Player(c, tid, i, phase))
        def debug() -> str:
            tables = [live.tables.get(p.table_id) for p in players]
            return (f"log healthy={log.healthy} backlog={log.backlog} running={log.running}; "
                    f"tables {[(t.status, t.version) for t in tables if t]}; seat stacks "
                    f"{[[s.stack for s in t.seats] for t in tables if t]}; last messages "
                    f"{[[(m['type'], m.get('version')) for m in p.c.received[-3:]] for p in players]}")

        for p in players:
            p.debug = debug
        tasks = [asyncio.create_task(p.run()) for p in players]
        stack.callback(lambda: [t.cancel() for t in tasks])

        def finished(ph: str) -> int:
            for t in tasks:  # a crashed player fails the test with its error
                if t.done():
                    t.result()
            return sum(1 for p in players for _, seen in p.games if seen == ph)

        await _until("a game finished at each table", lambda: all(p.games for p in players))
        before = (writer.attempts_failed, log.failures)

        await proxy.refuse()
        phase["now"] = "down"
        # the log's failed commits move; the writer's only if it was saving when the proxy
        # refused (it gets a game once the game's outbox row is committed)
        await _until("the log degraded, its failures moved, 20 games finished", lambda: (
            not log.healthy and log.failures > before[1] and finished("down") >= 20))
        assert log.healthy is False and log.backlog > 0
        assert await _degraded(live), "/readyz was not degraded during the outage"
        assert all(p.states["down"] > 0 for p in players), "a table stopped sending states"
        down = finished("down")

        await proxy.forward()
        phase["now"] = "up again"
        for p in players:
            p.stop = True
        async with asyncio.timeout(DEADLINE_SECONDS):
            await asyncio.gather(*tasks)
    # the clients are gone: the tables end their hands and stop dealing
    await _until("tables idle, log and writer drained, outbox empty",
                 lambda: _all_committed(live))
    seen = [g for p in players for g, _ in p.games]
    assert len(seen) == len(set(seen))
    await _check_saved(live, seen)
    assert down >= 20 and proxy.resets > 0
    print(f"refused outage: {len(seen)} games seen ({down} finished while refusing), "
          f"log failures {log.failures}, writer failed attempts "
          f"{writer.attempts_failed - before[0]}, "
          f"proxy resets {proxy.resets}")
    return {s.id for s in await live.store.list_games(limit=100_000)}


# ----- 2. the database blocks for 5 s -----------------------------------------------------
@contextlib.asynccontextmanager
async def _pg_lock(schema: str) -> AsyncIterator[None]:
    import asyncpg

    conn = await asyncpg.connect(_dsn(POSTGRES_URL), timeout=5,
                                 server_settings={"search_path": schema})
    try:
        tx = conn.transaction()
        await tx.start()
        await conn.execute("LOCK TABLE table_log, games IN ACCESS EXCLUSIVE MODE")
        try:
            yield
        finally:
            await tx.rollback()
    finally:
        await conn.close()


@contextlib.asynccontextmanager
async def _sqlite_lock(path: Path) -> AsyncIterator[None]:
    con = sqlite3.connect(path, timeout=30, isolation_level=None, check_same_thread=False)
    try:
        await asyncio.to_thread(con.execute, "BEGIN EXCLUSIVE")
        try:
            yield
        finally:
            await asyncio.to_thread(con.execute, "ROLLBACK")
    finally:
        con.close()


async def _silent_seat_through_a_lock(live: LiveServer,
                                      lock: Callable[[], contextlib.AbstractAsyncContextManager[None]]
                                      ) -> None:
    log = live.app.state.log
    _, token = await live.player("ana")
    tid = await _create_table(live, token)
    games: list[str] = []
    async with client(live, token) as c:
        await c.send({"type": "join", "table_id": tid, "seat": 0})

        async def receive(seconds: float | None, stop: Callable[[dict[str, Any]], bool]) -> int:
            """Timeout steps of seat 0 received until ``stop`` or ``seconds`` passed."""
            n = 0
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(seconds):
                    while True:
                        msg = await c.recv()
                        if msg["type"] == "game_over":
                            games.append(msg["game_id"])
                        if msg["type"] == "events" and msg["timeout"] and msg["seat"] == 0:
                            n += 1
                        if stop(msg):
                            return n
            return n

        async with asyncio.timeout(DEADLINE_SECONDS):  # the table runs: a timeout and a game
            await receive(None, lambda m: m["type"] == "game_over")
        await _until("the first game saved", lambda: _all_saved(live, games))
        async with lock():
            timeouts = await receive(LOCK_SECONDS, lambda m: False)
            assert log.healthy is False
            assert await _degraded(live), "/readyz was not degraded during the lock"
            in_lock = len(games)
        assert timeouts >= 3, f"only {timeouts} timeout steps arrived during the lock"
        await receive(DEADLINE_SECONDS, lambda m: m["type"] == "game_over")
    await _until("tables idle, log and writer drained, outbox empty",
                 lambda: _all_committed(live))
    await _check_saved(live, games)
    print(f"lock: {timeouts} timeout steps during the {LOCK_SECONDS} s lock, {len(games)} games "
          f"({in_lock} by its end), log failures {log.failures}, "
          f"writer failed attempts {live.writer.attempts_failed}")


async def _all_saved(live: LiveServer, game_ids: list[str]) -> bool:
    stored = {s.id for s in await live.store.list_games(limit=100_000)}
    return all(g in stored for g in game_ids)


LOCK_SETTINGS: dict[str, Any] = {"turn_timeout_seconds": 0.3, "db_timeout_seconds": 2.0,
                                 "log_sync_timeout_seconds": 0.5,
                                 # the silent seat keeps timing out: no stand-in takes it over
                                 "stand_in_after_timeouts": 0, **RICH}


@pytest.mark.postgres
async def test_postgres_locked_for_5_s_tables_keep_timing_out_then_all_is_committed() -> None:
    async for schema in _pg_schema():
        async with live_server(database_url=POSTGRES_URL, database_schema=schema,
                               **LOCK_SETTINGS) as live:
            await _silent_seat_through_a_lock(live, functools.partial(_pg_lock, schema))


async def test_sqlite_locked_for_5_s_tables_keep_timing_out_then_all_is_committed(
        tmp_path: Path) -> None:
    path = tmp_path / "cardhall.db"
    async with live_server(database_url=f"sqlite+aiosqlite:///{path}", **LOCK_SETTINGS) as live:
        await _silent_seat_through_a_lock(live, functools.partial(_sqlite_lock, path))
