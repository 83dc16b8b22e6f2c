"""Run a server under a garbage-collector stopwatch (bench only).

    python bench/gcwatch.py --out /tmp/gc.json -- cardhall serve --port 8000
    python bench/gcwatch.py --out /tmp/gc.json -- bench/bare_server.py --port 8765

Installs a ``gc.callbacks`` hook that times every collection (``perf_counter`` between the
``start`` and ``stop`` callbacks), then runs the target in this same process: ``cardhall ...``
runs the ``cardhall`` package's CLI, a path ending in ``.py`` runs that script. On ``SIGUSR1``
it writes to ``--out`` (atomically: a temp file renamed) the pauses since the previous signal,
per generation: ``{"<gen>": {"count", "total_ms", "p50_ms", "p99_ms", "max_ms"}}``, and forgets
them. ``bench/run.py`` signals at the start and the end of each measurement window, so the
file holds the window's pauses. The server's own metric ``cardhall_gc_pause_seconds`` (when the
server has it) is read separately from ``/metrics``.

With ``--log-out`` (cardhall only) it also wraps the table log's commit
(``cardhall.storage.log.TableLog``: ``_commit``, ``_committed``, ``_degrade``; the behaviour is
unchanged) and writes to that file, before ``--out`` on the same signal, the log's figures since
the previous signal: steps (appends), rows and commits, commits/s, steps and rows per commit,
``append`` (p50/p99/max ms from a step's append to its commit landing: what a step's frames wait
for) and ``commit`` (p50/p99/max ms of the ``write_log`` transactions), and ``degraded`` (times
the log went degraded because a commit was late). The server does not export these itself.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import runpy
import signal
import sys
import time
from pathlib import Path
from types import FrameType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from loadstats import summarize_ms


class GcWatch:
    """Collects GC pause durations (seconds) per generation."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.started = 0.0
        self.pauses: dict[int, list[float]] = {0: [], 1: [], 2: []}

    def callback(self, phase: str, info: dict[str, Any]) -> None:
        """The ``gc.callbacks`` hook: time from ``start`` to ``stop``."""
        if phase == "start":
            self.started = time.perf_counter()
        else:
            self.pauses.setdefault(int(info["generation"]), []).append(
                time.perf_counter() - self.started)

    def dump(self, _signum: int = 0, _frame: FrameType | None = None) -> None:
        """Write the pauses since the previous dump to ``out`` and forget them."""
        pauses, self.pauses = self.pauses, {0: [], 1: [], 2: []}
        doc = {}
        for gen, values in sorted(pauses.items()):
            s = summarize_ms(values)
            doc[str(gen)] = {"count": s["n"], "total_ms": round(1000 * sum(values), 2),
                             "p50_ms": s["p50_ms"], "p99_ms": s["p99_ms"], "max_ms": s["max_ms"]}
        tmp = self.out.with_suffix(".tmp")
        tmp.write_text(json.dumps(doc))
        os.replace(tmp, self.out)


class LogWatch:
    """The table log's window figures, from wrappers around three of its methods."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.reset()

    def reset(self) -> None:
        self.t0 = time.perf_counter()
        self.append: list[float] = []
        self.commit: list[float] = []
        self.commits = self.steps = self.rows = self.degraded = 0

    def install(self) -> None:
        """Wrap ``TableLog._commit`` (its duration), ``_committed`` (each step's append ->
        commit) and ``_degrade`` (healthy -> degraded transitions)."""
        from cardhall.storage.log import TableLog

        watch = self
        committed, commit, degrade = TableLog._committed, TableLog._commit, TableLog._degrade

        def _committed(log: Any, appends: list[Any]) -> None:
            now = time.perf_counter()
            watch.append.extend(now - a.t for a in appends)
            watch.commits += 1
            watch.steps += len(appends)
            watch.rows += sum(len(a.rows) for a in appends)
            committed(log, appends)

        async def _commit(log: Any, appends: list[Any]) -> Exception | None:
            t = time.perf_counter()
            try:
                return await commit(log, appends)
            finally:
                watch.commit.append(time.perf_counter() - t)

        def _degrade(log: Any) -> None:
            watch.degraded += bool(log.healthy)
            degrade(log)

        TableLog._committed = _committed  # type: ignore[method-assign]
        TableLog._commit = _commit  # type: ignore[method-assign]
        TableLog._degrade = _degrade  # type: ignore[method-assign]

    def dump(self) -> None:
        """Write the figures since the previous dump to ``out`` and forget them."""
        secs = time.perf_counter() - self.t0
        c = self.commits
        doc = {"window_s": round(secs, 2), "steps": self.steps, "rows": self.rows, "commits": c,
               "commits_per_s": round(c / secs, 1) if secs > 0 else None,
               "steps_per_commit": round(self.steps / c, 2) if c else None,
               "rows_per_commit": round(self.rows / c, 2) if c else None,
               "append": summarize_ms(self.append), "commit": summarize_ms(self.commit),
               "degraded": self.degraded}
        self.reset()
        tmp = self.out.with_suffix(".tmp")
        tmp.write_text(json.dumps(doc))
        os.replace(tmp, self.out)


def main() -> None:
    """Parse ``--out`` (and ``--log-out``), install the hooks and the signal, run the target."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--log-out", type=Path, help="also time the table log (cardhall only)")
    ap.add_argument("target", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    target = a.target[1:] if a.target[:1] == ["--"] else a.target
    watch = GcWatch(a.out)
    gc.callbacks.append(watch.callback)
    logwatch = None
    if a.log_out is not None:
        logwatch = LogWatch(a.log_out)
        logwatch.install()

    def dump(signum: int, frame: FrameType | None) -> None:
        if logwatch is not None:
            logwatch.dump()  # first: the GC file's arrival says both are written
        watch.dump(signum, frame)

    signal.signal(signal.SIGUSR1, dump)
    if target[0].endswith(".py"):
        sys.argv = target
        runpy.run_path(target[0], run_name="__main__")
    else:
        from cardhall.cli import main as cli_main

        sys.exit(cli_main(target[1:]))


if __name__ == "__main__":
    main()
