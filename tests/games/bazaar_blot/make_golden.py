"""Generate the golden playthrough ``golden/match_seed1.json`` (run only on purpose).

One seeded random match of Bazaar Blot with the default config: at every step the per-seat
views (seats 0-3 and the spectator), every seat's legal actions, the timer seat and its timeout
action, and the action taken. ``test_golden.py`` regenerates it and compares.

Usage (from the worktree root)::

    PYTHONPATH=src python -m tests.games.bazaar_blot.make_golden
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

from cardhall.engine import SeededShuffler, get_game, sample

PATH = Path(__file__).parent / "golden" / "match_seed1.json"
SEED = 1


def _key(seat: int | None) -> str:
    return "spectator" if seat is None else str(seat)


def generate(seed: int = SEED) -> dict[str, Any]:
    """The golden document for ``seed``: config, dealer, steps and the outcome."""
    rules = get_game("bazaar_blot")
    rng = random.Random(seed)
    shuffler = SeededShuffler(hashlib.sha256(f"golden:{seed}".encode()).digest())
    dealer = rng.randrange(4)
    state = rules.new_state(rules.config({}), 4, dealer)
    steps = []
    while not state.is_over:
        step: dict[str, Any] = {
            "views": {_key(s): state.view(s) for s in (None, 0, 1, 2, 3)},
            "legal_actions": [state.legal_actions(s) for s in range(4)],
            "timer_seat": state.timer_seat(),
        }
        timer = state.timer_seat()
        step["timeout_action"] = None if timer is None else state.timeout_action(timer)
        if state.chance_due():
            seat, action = None, state.chance_action(shuffler)
        else:
            seat = rng.choice(state.to_act())
            action = sample(rng.choice(state.legal_actions(seat)), rng)
        step["seat"], step["action"] = seat, action
        state.apply(seat, action)
        steps.append(step)
    outcome = state.outcome.to_json() if state.outcome else None
    return {"game": "bazaar_blot", "seed": seed, "dealer": dealer, "steps": steps,
            "final_views": {_key(s): state.view(s) for s in (None, 0, 1, 2, 3)},
            "outcome": outcome}


def dumps(doc: dict[str, Any]) -> str:
    """Stable text: one line per step."""
    head = {k: v for k, v in doc.items() if k != "steps"}
    lines = [json.dumps(s, sort_keys=True) for s in doc["steps"]]
    return (json.dumps(head, sort_keys=True) + "\n[\n" + ",\n".join(lines) + "\n]\n")


def loads(text: str) -> dict[str, Any]:
    """Inverse of :func:`dumps`."""
    head, rest = text.split("\n", 1)
    doc: dict[str, Any] = json.loads(head)
    doc["steps"] = json.loads(rest)
    return doc


def main() -> None:
    PATH.parent.mkdir(exist_ok=True)
    PATH.write_text(dumps(generate()), encoding="utf-8")
    print(f"wrote {PATH}")


if __name__ == "__main__":
    main()
