"""Soldier's Bluff benchmark: hands per second of random self-play (no invariant checks) at
2 and 5 seats, one core. Run by ``make bench`` (``bench/run.py``) or alone."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from cardhall.selfplay import run as selfplay

HANDS = 2000


def run() -> dict[str, object]:
    """``{"seats_<n>": {"hands", "seconds", "hands_per_second", "steps_per_second"}}``."""
    out: dict[str, object] = {}
    for seats in (2, 5):
        rep = selfplay("soldiers_bluff", HANDS, seed=1, seats=seats, check=False)
        secs = rep.seconds or 1e-9
        out[f"seats_{seats}"] = {
            "hands": rep.units,
            "seconds": round(secs, 3),
            "hands_per_second": round(rep.units / secs, 1),
            "steps_per_second": round(rep.steps / secs, 1),
        }
    return out


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))
