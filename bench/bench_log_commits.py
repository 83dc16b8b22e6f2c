"""Table log commit cost (``make bench``): one-row group commits through ``SqlStore.write_log``.

``run()`` writes ``COMMITS`` commits of one ``act`` entry each (a lone table step, the worst
case of the group commit) on a temporary SQLite file, three interleaved rounds of two arms:
``write_log`` as shipped (the log's own connection) and the same batch through a pooled
``engine.begin()`` per commit (the first version: a pool checkout and a reset-on-return
rollback per commit). It reports commits per second and CPU microseconds per commit (this
process and aiosqlite's thread) for each arm, and the ratios shipped/pooled.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from cardhall.storage.interface import LogBatch, LogRow
from cardhall.storage.sql import SqlStore

COMMITS = 1_000
ROUNDS = 3
ENTRY = {"seat": 1, "action": {"type": "play", "card": "Js"}, "timeout": False, "t_ms": 1234,
         "v": 17}


async def _pooled(store: SqlStore, batch: LogBatch) -> None:
    async with store._writing(), store.engine.begin() as conn:
        await store._write_batch(conn, batch)


async def _arm(pooled: bool) -> tuple[float, float]:
    """``(commits/s, CPU us per commit)`` of one arm on a fresh SQLite file."""
    store = SqlStore(f"sqlite+aiosqlite:///{tempfile.mkdtemp()}/log.db")
    await store.start()
    write: Callable[[LogBatch], Awaitable[None]] = (
        (lambda b: _pooled(store, b)) if pooled else store.write_log)
    try:
        for i in range(50):  # warm-up: connections, statement cache
            await write(LogBatch(rows=[LogRow("warm", i + 1, "act", ENTRY)]))
        t0, c0 = time.perf_counter(), time.process_time()
        for i in range(COMMITS):
            await write(LogBatch(rows=[LogRow(f"t{i % 50}", i // 50 + 1, "act", ENTRY)]))
        t1, c1 = time.perf_counter(), time.process_time()
    finally:
        await store.close()
    return COMMITS / (t1 - t0), (c1 - c0) / COMMITS * 1e6


async def _run() -> dict[str, Any]:
    arms: dict[str, list[tuple[float, float]]] = {"shipped": [], "pooled": []}
    for _ in range(ROUNDS):
        arms["pooled"].append(await _arm(True))
        arms["shipped"].append(await _arm(False))
    out: dict[str, Any] = {"commits": COMMITS, "rounds": ROUNDS}
    for name, runs in arms.items():
        out[f"{name}_commits_per_s"] = round(statistics.median(r[0] for r in runs))
        out[f"{name}_cpu_us_per_commit"] = round(statistics.median(r[1] for r in runs))
    out["ratio_commits_per_s"] = round(out["shipped_commits_per_s"]
                                       / out["pooled_commits_per_s"], 2)
    out["ratio_cpu_per_commit"] = round(out["shipped_cpu_us_per_commit"]
                                        / out["pooled_cpu_us_per_commit"], 2)
    return out


def run() -> dict[str, Any]:
    """The figures above (about 5-10 s on these machines)."""
    return asyncio.run(_run())


if __name__ == "__main__":
    print(run())
