"""``cardhall arena --duplicate`` figures: the plain and duplicate 95% interval widths of the
rule bot's edge against the random bot, their ratio and the within-set correlation, one board
per game (``cardhall.bots.duplicate``, seed 1). Deterministic (fixed seeds), so a change of a
figure is a change of the code, not machine noise; the seconds are the only timing. Run by
``make bench`` (``bench/run.py``, full runs only: about 5 s) or alone."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from cardhall.bots.duplicate import run as duplicate
from cardhall.engine import game_names, get_game

TEAM_BOARDS = 200
"""Games per arm of a partnership game (a Blot board of four seats is the slowest)."""
BOARDS = 400
"""Games per arm of the other games (poker hands)."""


def run() -> dict[str, object]:
    """Per game with a board (``duplicate_board_config``): ``{"lineup", "boards",
    "plain_width", "duplicate_width", "ratio", "correlation", "seconds"}``."""
    out: dict[str, object] = {}
    for game in game_names():
        rules = get_game(game)
        if rules.duplicate_board_config is None:
            continue
        lineup = ["rule", "random"] * (rules.min_seats // 2) if rules.teams else ["rule", "random"]
        t0 = time.perf_counter()
        r = duplicate(game, lineup, TEAM_BOARDS if rules.teams else BOARDS, seed=1)
        out[game] = {"lineup": ",".join(lineup), "boards": r["games"],
                     "plain_width": r["plain"]["rule"]["width"],
                     "duplicate_width": r["duplicate"]["rule"]["width"],
                     "ratio": r["ratio"], "correlation": r["correlation"],
                     "seconds": round(time.perf_counter() - t0, 2)}
    return out


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))
