"""The timer anchor of ``make bench``: how late do bare asyncio timers fire on this machine?

    python bench/timer_anchor.py --timers 100000 --spread 5

Schedules ``--timers`` ``loop.call_at`` callbacks with due times spread uniformly over
``--spread`` seconds (starting 1 s after scheduling began) on one uvloop event loop that does nothing else, and prints one JSON object
with the lateness (actual - due, ms) p50/p99/max. It is the floor under cardhall's timer
lateness (``bench/loadgen.py --mode silent``): what the event loop alone costs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from loadstats import summarize_ms


async def measure(timers: int, spread: float) -> dict[str, object]:
    """Schedule the timers, wait for all of them (bounded: spread + 30 s), summarise."""
    loop = asyncio.get_running_loop()
    late: list[float] = []
    done = asyncio.Event()
    rng = random.Random(1)

    def fire(due: float) -> None:
        late.append(loop.time() - due)
        if len(late) == timers:
            done.set()

    start = loop.time() + 1.0  # every due time after the scheduling loop itself
    for _ in range(timers):
        due = start + rng.random() * spread
        loop.call_at(due, fire, due)
    await asyncio.wait_for(done.wait(), spread + 31)
    return {"timers": timers, "spread_s": spread, "lateness": summarize_ms(late)}


def main() -> None:
    """Parse the options, run on uvloop when installed, print the JSON object."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--timers", type=int, default=100_000)
    ap.add_argument("--spread", type=float, default=5.0)
    a = ap.parse_args()
    try:
        import uvloop
        out = uvloop.run(measure(a.timers, a.spread))
        out["loop"] = "uvloop"
    except ImportError:
        out = asyncio.run(measure(a.timers, a.spread))
        out["loop"] = "asyncio"
    print(json.dumps(out))


if __name__ == "__main__":
    main()
