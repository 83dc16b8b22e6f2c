"""Generate the golden playthrough of one seeded Soldier's Bluff hand.

Run only on purpose, after a deliberate change of views, events or legal actions::

    PYTHONPATH=src python tests/games/soldiers_bluff/make_sb_golden.py

``test_sb_golden.py`` regenerates the document in memory and compares it with the file.
Each step records, before the action: every seat's view (and the spectator's), every seat's
legal actions and the timer's action; then the action and the events each seat may see.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

from cardhall.engine import SeededShuffler, filter_events, sample
from cardhall.games.soldiers_bluff import RULES

GOLDEN = Path(__file__).parent / "golden" / "seeded_hand.json"
SEED = 18
STACKS = [25, 40, 60]
DEALER = 2


def playthrough() -> dict[str, Any]:
    """The golden document: the hand played with seeded chance and seeded random choices."""
    rng = random.Random(SEED)
    shuffler = SeededShuffler(hashlib.sha256(f"golden:{SEED}".encode()).digest())
    st = RULES.new_state(RULES.config({}), len(STACKS), DEALER, STACKS)
    audience: list[int | None] = [None, *range(st.num_seats)]
    steps: list[dict[str, Any]] = []
    while not st.is_over:
        record: dict[str, Any] = {
            "views": {str(s): st.view(s) for s in audience},
            "legal_actions": {str(s): st.legal_actions(s) for s in range(st.num_seats)},
        }
        timer = st.timer_seat()
        record["timeout_action"] = None if timer is None else st.timeout_action(timer)
        if st.chance_due():
            seat, action = None, st.chance_action(shuffler)
        else:
            seat = st.to_act()[0]
            action = sample(rng.choice(st.legal_actions(seat)), rng)
        events = st.apply(seat, action)
        record["actor"] = seat
        record["action"] = action
        record["events"] = {str(s): filter_events(events, s) for s in audience}
        steps.append(record)
    final = {str(s): st.view(s) for s in audience}
    assert st.outcome is not None
    return {"seed": SEED, "stacks": STACKS, "dealer": DEALER, "steps": steps,
            "final_views": final, "outcome": st.outcome.to_json()}


def main() -> None:
    GOLDEN.write_text(
        json.dumps(playthrough(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    print(f"wrote {GOLDEN}")


if __name__ == "__main__":
    main()
