"""Finished-game saves per second for ``make bench`` (SQLite and PostgreSQL).

    python bench/saves.py --games 1000

Each record is a real finished Bazaar Blot match (one random self-play game, its
``cardhall-history/1`` document, a fresh id per save), saved the way the table runtime saves
it. Three ways:

* ``single``: ``await store.save_game(...)`` one after another (one transaction each);
* ``concurrent_16``: the same with 16 saves in flight (tables finishing together), with the
  per-save latency p50/p99;
* ``batched``: ``await store.save_games(records)`` in batches of ``--batch`` (one transaction
  per batch) when the store has that method, else ``null`` (``batched_error`` says why a
  ``save_games`` call failed).

SQLite runs on a temporary file on disk; PostgreSQL in a database created for the run and
dropped after it (``CARDHALL_BENCH_POSTGRES_URL``, else ``CARDHALL_TEST_POSTGRES_URL``, else
``postgresql+asyncpg://postgres@127.0.0.1:5432/test``: its server is used, not that database),
skipped with a reason when unreachable.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from loadstats import rate_per_second, summarize_ms

from cardhall.selfplay import play_one
from cardhall.storage import interface
from cardhall.storage.factory import make_store

DEFAULT_PG = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"


def blot_history() -> dict[str, Any]:
    """One finished random Bazaar Blot match as a history document (seed 1)."""
    rec, _violations, _steps = play_one("bazaar_blot", 4, 1, check=False)
    return rec.history.to_json()


def records(n: int, history: dict[str, Any]) -> list[dict[str, Any]]:
    """``n`` keyword sets for ``save_game`` sharing ``history`` (fresh ids and times each)."""
    now = datetime.now(UTC)
    outcome = {"reason": "target_reached", "returns": [1001, 640, 1001, 640]}
    out = []
    for i in range(n):
        gid = uuid.uuid4().hex
        results = [interface.SeatResult(seat=s, name=f"p{s}", result=outcome["returns"][s])
                   for s in range(4)]
        out.append({"game_id": gid, "game": "bazaar_blot", "table_id": f"t{i}",
                    "history": {**history, "id": gid}, "outcome": outcome, "results": results,
                    "started_at": now - timedelta(minutes=10), "ended_at": now})
    return out


def batch_items(batch: list[dict[str, Any]]) -> list[Any]:
    """The records in the form ``save_games`` takes: a record class of the storage interface
    when there is one (``GameRecord``, ``FinishedGame`` or ``SavedGame``), else the dicts."""
    for name in ("GameRecord", "FinishedGame", "SavedGame"):
        cls = getattr(interface, name, None)
        if cls is not None:
            return [cls(**r) for r in batch]
    return batch


async def measure(url: str, n: int, batch: int) -> dict[str, Any]:
    """The three figures on one store (started here, closed at the end)."""
    store = make_store(url)
    await store.start()
    history = blot_history()
    out: dict[str, Any] = {"history_bytes": len(json.dumps(history))}
    try:
        recs = records(n, history)
        t = time.perf_counter()
        for r in recs:
            await store.save_game(**r)
        out["single_per_s"] = rate_per_second(n, time.perf_counter() - t)
        out["concurrent_16"] = await concurrent(store, records(n, history), 16)
        out["batched_per_s"] = None
        if hasattr(store, "save_games"):
            out["batch_size"] = batch
            recs = records(n, history)
            t = time.perf_counter()
            try:
                for i in range(0, n, batch):
                    await store.save_games(batch_items(recs[i:i + batch]))
                out["batched_per_s"] = rate_per_second(n, time.perf_counter() - t)
            except Exception as e:  # a save_games of another shape: keep the other figures
                out["batched_error"] = f"{type(e).__name__}: {e}"[:300]
    finally:
        await store.close()
    return out


async def concurrent(store: Any, recs: list[dict[str, Any]], width: int) -> dict[str, Any]:
    """``recs`` saved by ``width`` workers; saves/s and per-save latency."""
    queue = list(reversed(recs))
    lat: list[float] = []

    async def worker() -> None:
        while queue:
            r = queue.pop()
            t = time.perf_counter()
            await store.save_game(**r)
            lat.append(time.perf_counter() - t)

    t = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(width)))
    return {"per_s": rate_per_second(len(recs), time.perf_counter() - t),
            "latency": summarize_ms(lat)}


async def sqlite(n: int, batch: int) -> dict[str, Any]:
    """The figures on a fresh SQLite file in a temporary directory."""
    with tempfile.TemporaryDirectory(prefix="cardhall-bench-") as d:
        return await measure(f"sqlite+aiosqlite:///{d}/saves.db", n, batch)


async def postgres(n: int, batch: int) -> dict[str, Any]:
    """The figures in a throw-away PostgreSQL database; ``{"skipped": reason}`` if the
    server is unreachable or refuses."""
    import asyncpg
    from sqlalchemy.engine import make_url

    base = make_url(os.environ.get("CARDHALL_BENCH_POSTGRES_URL")
                    or os.environ.get("CARDHALL_TEST_POSTGRES_URL") or DEFAULT_PG)
    admin_dsn = base.set(drivername="postgresql", database="postgres").render_as_string(
        hide_password=False)
    name = f"cardhall_bench_{os.getpid()}"
    try:
        conn = await asyncio.wait_for(asyncpg.connect(admin_dsn), 5)
    except (OSError, TimeoutError, asyncpg.PostgresError) as e:
        return {"skipped": f"PostgreSQL unreachable: {type(e).__name__}: {e}"}
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
        try:
            url = base.set(database=name).render_as_string(hide_password=False)
            return await measure(url, n, batch)
        finally:
            await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    except asyncpg.PostgresError as e:
        return {"skipped": f"PostgreSQL refused: {e}"}
    finally:
        await conn.close()


async def run_all(n: int, batch: int, with_postgres: bool = True) -> dict[str, Any]:
    """``{"sqlite": ..., "postgresql": ...}``."""
    out = {"games_per_way": n, "sqlite": await sqlite(n, batch)}
    out["postgresql"] = (await postgres(n, batch) if with_postgres
                         else {"skipped": "not asked"})
    return out


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--batch", type=int, default=100)
    a = ap.parse_args()
    print(json.dumps(asyncio.run(run_all(a.games, a.batch))))
