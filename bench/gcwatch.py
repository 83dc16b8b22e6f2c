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


def main() -> None:
    """Parse ``--out``, install the hook and the signal, run the target."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("target", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    target = a.target[1:] if a.target[:1] == ["--"] else a.target
    watch = GcWatch(a.out)
    gc.callbacks.append(watch.callback)
    signal.signal(signal.SIGUSR1, watch.dump)
    if target[0].endswith(".py"):
        sys.argv = target
        runpy.run_path(target[0], run_name="__main__")
    else:
        from cardhall.cli import main as cli_main

        sys.exit(cli_main(target[1:]))


if __name__ == "__main__":
    main()
