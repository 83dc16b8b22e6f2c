"""Finished-game saves per second for ``make bench``: single, batched, and through the writer.

On a temporary SQLite file and, when reachable, on PostgreSQL at ``CARDHALL_TEST_POSTGRES_URL``
(default ``postgresql+asyncpg://postgres@127.0.0.1:5432/test``; each run in a fresh schema,
dropped afterwards), with one realistic record: a finished random Bazaar Blot match (its history
is ~7 KB of JSON, 4 result rows). Arms, interleaved over two rounds, the best round reported:

* ``orm_single_before``: the save as it was before issue 11 (ORM session, ``get`` then ``add``,
  ``pool_pre_ping``, SQLite ``synchronous=FULL``), one game per transaction;
* ``single``: ``Store.save_game`` in a loop (one game per transaction) -- the baseline;
* ``batched_100``: ``Store.save_games`` with 100 games per call (one transaction each);
* ``writer``: ``GameWriter.submit`` for every game, then ``flush`` (the server's path).

Latency (``latency_16_producers``): 16 tasks each awaiting its own save in a loop, the old ORM
save and ``save_game`` (how tables saved before the writer), against 16 tasks handing 1,000
games/s to one writer (submit -> commit); p50/p99/max in ms.

Every throughput figure comes with its ratio to ``single`` of the same run, and with games per CPU second of
this process (the SQLite thread included, the PostgreSQL server not), which moves less than wall
time on a shared machine. PostgreSQL also gets ``commit_floor_per_s``: one-row autocommit
inserts through bare asyncpg, the most single-game transactions the server can commit per second
here. Each arm runs for about ``ARM_SECONDS`` (bounded), so the module takes about 20 s.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from sqlalchemy import event
from sqlalchemy.ext.asyncio import async_sessionmaker, create_async_engine

from cardhall.selfplay import play_one
from cardhall.storage import GameRecord, GameWriter, SeatResult
from cardhall.storage.models import Game, GameResult
from cardhall.storage.sql import SqlStore

POSTGRES_URL = os.environ.get(
    "CARDHALL_TEST_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test")
QUICK = os.environ.get("QUICK", "") not in ("", "0")
"""One short round (a sanity run, about 6 s): ``QUICK=1`` in the environment, or
:func:`run_all` with ``quick=True`` (``make bench QUICK=1``)."""
ARM_SECONDS = 0.3 if QUICK else 0.8
"""Wall-time budget of one arm in one round."""
ROUNDS = 1 if QUICK else 2
BATCH = 100
PRODUCERS = 16
"""Concurrent savers in the latency arms (the issue measured SQLite p99 with 16)."""
OFFERED_PER_S = 1000
"""Games per second the writer's latency arm offers, spread over ``PRODUCERS`` tasks."""
TARGETS = {"single": 500, "batched": 3000}
"""Issue 11: >= 500 single and >= 3,000 batched saves/s."""


def blot_record_template() -> tuple[dict[str, Any], dict[str, Any], list[SeatResult]]:
    """``(history, outcome, results)`` of one random Bazaar Blot match (seed 1)."""
    rec, _, _ = play_one("bazaar_blot", 4, 1, check=False)
    assert rec.state.outcome is not None
    history = rec.history.to_json()
    outcome = rec.state.outcome.to_json()
    results = [SeatResult(gs, info.name, rec.state.outcome.returns[gs], None, True)
               for gs, info in enumerate(rec.history.seats)]
    return history, outcome, results


class Arms:
    """The four arms on one started store (and a legacy ORM engine on the same database)."""

    def __init__(self, store: SqlStore, schema: str | None) -> None:
        self.store = store
        self.history, self.outcome, self.results = blot_record_template()
        self.now = datetime.now(UTC)
        connect_args = {} if schema is None else {"server_settings": {"search_path": schema}}
        self.legacy = create_async_engine(store.url, pool_pre_ping=True,
                                          connect_args=connect_args)
        if store.backend == "sqlite":
            event.listen(self.legacy.sync_engine, "connect", _legacy_sqlite_pragmas)
        self.legacy_sessions = async_sessionmaker(self.legacy, expire_on_commit=False)

    def record(self) -> GameRecord:
        return GameRecord(uuid.uuid4().hex, "bazaar_blot", "bench", self.history, self.outcome,
                          self.results, self.now, self.now)

    async def orm_save(self) -> int:
        """One game the way the store saved it before issue 11."""
        r = self.record()
        row = Game(id=r.game_id, game=r.game, table_id=r.table_id, history=r.history,
                   outcome=r.outcome, started_at=r.started_at, ended_at=r.ended_at)
        row.results = [GameResult(game_id=r.game_id, seat=s.seat, player_id=s.player_id,
                                  name=s.name, is_bot=s.is_bot, result=s.result)
                       for s in r.results]
        async with self.legacy_sessions.begin() as session:
            if await session.get(Game, r.game_id) is None:
                session.add(row)
        return 1

    async def store_save(self) -> int:
        """One game through ``Store.save_game``."""
        r = self.record()
        await self.store.save_game(game_id=r.game_id, game=r.game, table_id=r.table_id,
                                   history=r.history, outcome=r.outcome,
                                   results=list(r.results), started_at=r.started_at,
                                   ended_at=r.ended_at)
        return 1

    async def orm_single_before(self, budget: float) -> Rate:
        return await timed(self.orm_save, budget)

    async def single(self, budget: float) -> Rate:
        return await timed(self.store_save, budget)

    async def awaited_concurrently(self, one: Callable[[], Awaitable[int]],
                                   seconds: float) -> dict[str, Any]:
        """``PRODUCERS`` tasks each awaiting ``one`` in a loop for ``seconds`` (how tables
        saved before the writer: each awaited its own save); per-save latency in ms."""
        await one()
        lat: list[float] = []
        errors = [0]
        t_end = time.perf_counter() + seconds

        async def producer() -> None:
            while (t := time.perf_counter()) < t_end:
                try:
                    await one()
                except Exception:  # e.g. SQLite "database is locked" under contention
                    errors[0] += 1
                lat.append(time.perf_counter() - t)

        t0 = time.perf_counter()
        await asyncio.gather(*(producer() for _ in range(PRODUCERS)))
        return latency_summary(lat, time.perf_counter() - t0, errors[0])

    async def writer_open_loop(self, seconds: float) -> dict[str, Any]:
        """``PRODUCERS`` tasks each submitting a game every ``PRODUCERS / OFFERED_PER_S``
        seconds through one writer; latency from submit to commit in ms."""
        stamping = _Stamping(self.store)
        w = GameWriter(stamping)  # type: ignore[arg-type]  # save_games is all it uses
        w.start()
        submitted: dict[str, float] = {}
        interval = PRODUCERS / OFFERED_PER_S
        t_end = time.perf_counter() + seconds

        async def producer() -> None:
            while time.perf_counter() < t_end:
                r = self.record()
                submitted[r.game_id] = time.perf_counter()
                w.submit(r)
                await asyncio.sleep(interval)  # pacing the offered load (a benchmark, not a test)

        t0 = time.perf_counter()
        await asyncio.gather(*(producer() for _ in range(PRODUCERS)))
        await w.close()
        lat = [stamping.done[g] - t for g, t in submitted.items()]
        out = latency_summary(lat, time.perf_counter() - t0, w.failed)
        out["batches"] = w.batches
        return out

    async def batched(self, budget: float) -> Rate:
        async def one() -> int:
            await self.store.save_games([self.record() for _ in range(BATCH)])
            return BATCH
        return await timed(one, budget)

    async def writer(self, budget: float, expected_rate: float) -> Rate:
        """Submit about ``budget`` seconds' worth of games (at ``expected_rate``), flush."""
        n = max(BATCH, int(expected_rate * budget))
        records = [self.record() for _ in range(n)]
        w = GameWriter(self.store)
        w.start()
        t0, cpu0 = time.perf_counter(), time.process_time()
        for r in records:
            w.submit(r)
        await w.flush()
        dt, cpu = time.perf_counter() - t0, time.process_time() - cpu0
        await w.close()
        assert w.saved == n and w.failed == 0, (w.saved, w.failed)
        return n / dt, n / max(cpu, 1e-9)

    async def close(self) -> None:
        await self.legacy.dispose()


class _Stamping:
    """Wraps a store's ``save_games`` and notes when each game's transaction committed."""

    def __init__(self, store: SqlStore) -> None:
        self.store = store
        self.done: dict[str, float] = {}

    async def save_games(self, records: Sequence[GameRecord]) -> list[bool]:
        flags = await self.store.save_games(records)
        t = time.perf_counter()
        for r in records:
            self.done[r.game_id] = t
        return flags


def latency_summary(lat: list[float], seconds: float, errors: int) -> dict[str, Any]:
    """Saves/s and p50/p99/max latency (ms) of ``lat`` (seconds)."""
    ms = sorted(x * 1000 for x in lat)
    cuts = statistics.quantiles(ms, n=100) if len(ms) >= 2 else ms * 99
    return {"saves": len(ms), "saves_per_s": round(len(ms) / seconds, 1),
            "p50_ms": round(cuts[49], 1), "p99_ms": round(cuts[98], 1),
            "max_ms": round(ms[-1], 1) if ms else None, "errors": errors}


def _legacy_sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")  # synchronous stays FULL, as before
    cursor.close()


Rate = tuple[float, float]
"""``(games per wall second, games per CPU second of this process)``."""


async def timed(one: Callable[[], Awaitable[int]], budget: float) -> Rate:
    """Call ``one`` (returns games saved) until ``budget`` seconds pass."""
    await one()  # warm: connection, statement cache
    done, t0, cpu0 = 0, time.perf_counter(), time.process_time()
    while (elapsed := time.perf_counter() - t0) < budget:
        done += await one()
    return done / elapsed, done / max(time.process_time() - cpu0, 1e-9)


async def measure(store: SqlStore, schema: str | None = None) -> dict[str, Any]:
    """Run the arms interleaved over ``ROUNDS`` rounds on a started store (in PostgreSQL
    ``schema``); the best round of each arm."""
    arms = Arms(store, schema)
    best: dict[str, Rate] = {}
    try:
        for _ in range(ROUNDS):
            got = {"orm_single_before": await arms.orm_single_before(ARM_SECONDS),
                   "single": await arms.single(ARM_SECONDS),
                   "batched_100": await arms.batched(ARM_SECONDS)}
            got["writer"] = await arms.writer(ARM_SECONDS, got["batched_100"][0])
            for k, v in got.items():
                best[k] = max(best.get(k, (0.0, 0.0)), v)
    finally:
        await arms.close()
    base = best["single"][0]
    out: dict[str, Any] = {k: {"saves_per_s": round(v[0], 1),
                               "ratio_to_single": round(v[0] / base, 2),
                               "saves_per_cpu_s": round(v[1], 1)} for k, v in best.items()}
    out["targets_met"] = {"single_500": base >= TARGETS["single"],
                          "batched_3000": best["batched_100"][0] >= TARGETS["batched"],
                          "writer_3000": best["writer"][0] >= TARGETS["batched"]}
    arms = Arms(store, schema)
    try:
        out[f"latency_{PRODUCERS}_producers"] = {
            "orm_awaited_before": await arms.awaited_concurrently(arms.orm_save, ARM_SECONDS),
            "save_game_awaited": await arms.awaited_concurrently(arms.store_save, ARM_SECONDS),
            f"writer_offered_{OFFERED_PER_S}_per_s": await arms.writer_open_loop(ARM_SECONDS),
        }
    finally:
        await arms.close()
    return out


async def sqlite_figures() -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="cardhall-bench-saves-") as tmp:
        store = SqlStore(f"sqlite+aiosqlite:///{Path(tmp) / 'saves.db'}")
        await store.start()
        try:
            return await measure(store)
        finally:
            await store.close()


async def postgres_figures() -> tuple[dict[str, Any] | None, str | None]:
    """``(figures, None)``, or ``(None, why)`` when PostgreSQL is not reachable."""
    import asyncpg

    dsn = POSTGRES_URL.replace("postgresql+asyncpg://", "postgresql://", 1)
    try:
        admin = await asyncpg.connect(dsn, timeout=2)
    except Exception as exc:
        return None, f"PostgreSQL not reachable at {POSTGRES_URL}: {type(exc).__name__}: {exc}"
    schema = f"cardhall_bench_{uuid.uuid4().hex[:12]}"
    await admin.execute(f'CREATE SCHEMA "{schema}"')
    try:
        store = SqlStore(POSTGRES_URL, schema=schema)
        await store.start()
        try:
            figures = await measure(store, schema)
        finally:
            await store.close()
        figures["commit_floor_per_s"] = round(await commit_floor(admin, schema), 1)
        return figures, None
    finally:
        await admin.execute(f'DROP SCHEMA "{schema}" CASCADE')
        await admin.close()


async def commit_floor(conn: Any, schema: str) -> float:
    """One-row autocommit inserts per second through bare asyncpg (one round trip, one WAL
    flush each): the ceiling of any one-game-per-transaction save on this server."""
    await conn.execute(f'CREATE TABLE "{schema}".floor (id text PRIMARY KEY)')
    sql = f'INSERT INTO "{schema}".floor VALUES ($1)'
    done, t0 = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - t0) < ARM_SECONDS:
        await conn.execute(sql, uuid.uuid4().hex)
        done += 1
    return done / elapsed


async def main() -> dict[str, Any]:
    t0 = time.perf_counter()
    out: dict[str, Any] = {"record": "one random Bazaar Blot match (4 seats)",
                           "batch_size": BATCH, "arm_seconds": ARM_SECONDS, "rounds": ROUNDS,
                           "sqlite": await sqlite_figures()}
    out["postgresql"], why = await postgres_figures()
    if why is not None:
        out["postgresql_skipped"] = why
    out["seconds"] = round(time.perf_counter() - t0, 1)
    return out


async def run_all(quick: bool) -> dict[str, Any]:
    """:func:`main` for ``bench/run.py``'s ``saves`` part (``quick``: one short round)."""
    global ARM_SECONDS, ROUNDS
    if quick:
        ARM_SECONDS, ROUNDS = 0.3, 1
    return await main()


def run() -> dict[str, Any]:
    """Saves per second per arm and back-end, each with its ratio to ``single`` (see the module
    docstring); ``postgresql`` is ``None`` (with ``postgresql_skipped``) when unreachable."""
    return asyncio.run(main())


if __name__ == "__main__":
    import json

    print(json.dumps(run(), indent=2))
