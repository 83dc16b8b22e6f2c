"""The golden playthrough of one seeded Palace Poker hand (OpenSpiel-style).

``python -m tests.games.palace_poker.golden`` (from the worktree root, ``PYTHONPATH=src``)
rewrites ``data/golden_hand.json`` on purpose; ``test_golden.py`` regenerates the playthrough
in memory and compares. Each step records who acted, the action, the events each seat and a
spectator saw, and every seat's view afterwards.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

from cardhall.engine import Recorder, SeatInfo, SeededShuffler, filter_events, sample
from cardhall.games.palace_poker import RULES

PATH = Path(__file__).parent / "data" / "golden_hand.json"
SEED = 10
SEATS = 4


def playthrough(seed: int = SEED, seats: int = SEATS) -> dict[str, Any]:
    """Play one hand with random legal moves and the documented seeded shuffle."""
    rng = random.Random(seed)
    shuffler = SeededShuffler(hashlib.sha256(f"golden:{seed}".encode()).digest())
    rec = Recorder(RULES, RULES.config({}), [SeatInfo(f"p{i}") for i in range(seats)],
                   dealer=0, stacks=[40] * seats)
    state = rec.state
    steps: list[dict[str, Any]] = []
    while not state.is_over:
        if state.chance_due():
            seat, action = None, state.chance_action(shuffler)
        else:
            seat = state.to_act()[0]
            action = sample(rng.choice(state.legal_actions(seat)), rng)
        events = rec.act(seat, action)
        who: list[int | None] = [None, *range(seats)]
        steps.append({
            "seat": seat, "action": action,
            "events": {str(s): filter_events(events, s) for s in who},
            "views": {str(s): state.view(s) for s in who},
        })
    return {"history": rec.history.to_json(), "steps": steps}


def main() -> None:
    PATH.write_text(json.dumps(playthrough(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {PATH}")


if __name__ == "__main__":
    main()
