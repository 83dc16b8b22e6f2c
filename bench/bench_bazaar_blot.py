"""Bazaar Blot speed figures for ``make bench``: random self-play deals per second (one core).

Wall time on a shared machine swings with other load, so this also reports CPU time
(``time.process_time``) and takes the best of three runs of 200 matches (seed 1, no checks).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from cardhall.selfplay import run as selfplay


def run() -> dict[str, object]:
    """Deals, steps, best CPU seconds, deals per CPU second and per wall second."""
    best_cpu, best_wall, rep = float("inf"), float("inf"), None
    for _ in range(3):
        cpu = time.process_time()
        rep = selfplay("bazaar_blot", 200, seed=1, check=False)
        best_cpu = min(best_cpu, time.process_time() - cpu)
        best_wall = min(best_wall, rep.seconds)
    assert rep is not None
    return {
        "deals": rep.units,
        "steps": rep.steps,
        "best_cpu_seconds": round(best_cpu, 3),
        "deals_per_cpu_second": round(rep.units / best_cpu, 1),
        "deals_per_wall_second": round(rep.units / best_wall, 1),
    }


if __name__ == "__main__":
    print(run())
