"""The engine playthrough renderer: one seeded game of any registered game, step by step
(OpenSpiel-style), for the golden files ``tests/games/golden/<game>.json``.

Everything per game comes from the registry: three seats (or the nearest count the game takes),
dealer 0, the default config, 40 chips a seat when it plays with stacks, and the first seed from
1 whose game takes at least ``MIN_STEPS`` steps (so a one-hand game that folds early is not the
golden one). Each step records, before the
action, the spectator's and every seat's view, every seat's legal actions, the timer seat and
its timeout action; then who acted, the action and the events each audience saw. The document
ends with the final views, the outcome and the full history (which replays to the outcome).

``test_golden.py`` renders every game in memory and compares; ``pytest tests/games/test_golden.py
--update-golden`` rewrites the files on purpose (review the diff).
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

from cardhall.engine import GameRules, Recorder, SeatInfo, SeededShuffler, filter_events, sample

GOLDEN = Path(__file__).parent / "golden"
MIN_STEPS = 12
"""The fewest steps a golden game takes (:func:`golden_doc` skips shorter seeds)."""
STACK = 40
"""Chips per seat in a golden game of a game with stacks."""


def path_of(game: str) -> Path:
    """The golden file of ``game``."""
    return GOLDEN / f"{game}.json"


def golden_doc(rules: GameRules[Any]) -> dict[str, Any]:
    """The golden document of ``rules``: :func:`playthrough` of the first seed from 1 whose
    game takes at least ``MIN_STEPS`` steps (of the first 100 seeds, the longest game)."""
    docs = []
    for seed in range(1, 101):
        doc = playthrough(rules, seed)
        if len(doc["steps"]) >= MIN_STEPS:
            return doc
        docs.append(doc)
    return max(docs, key=lambda d: len(d["steps"]))


def playthrough(rules: GameRules[Any], seed: int) -> dict[str, Any]:
    """The golden document of ``rules``: one game with seeded chance and seeded random choices."""
    rng = random.Random(seed)
    shuffler = SeededShuffler(hashlib.sha256(f"golden:{seed}".encode()).digest())
    n = min(max(rules.min_seats, 3), rules.max_seats)
    stacks = [STACK] * n if rules.uses_stacks else None
    rec = Recorder(rules, rules.config({}), [SeatInfo(f"p{i}") for i in range(n)], 0, stacks)
    state = rec.state
    audience: list[int | None] = [None, *range(n)]
    steps: list[dict[str, Any]] = []
    for _ in range(20_000):
        if state.is_over:
            break
        timer = state.timer_seat()
        step: dict[str, Any] = {
            "views": {str(s): state.view(s) for s in audience},
            "legal_actions": {str(s): state.legal_actions(s) for s in range(n)},
            "timer_seat": timer,
            "timeout_action": None if timer is None else state.timeout_action(timer),
        }
        if state.chance_due():
            seat, action = None, state.chance_action(shuffler)
        else:
            seat = rng.choice(state.to_act())
            action = sample(rng.choice(state.legal_actions(seat)), rng)
        events = rec.act(seat, action)
        step.update(seat=seat, action=action,
                    events={str(s): filter_events(events, s) for s in audience})
        steps.append(step)
    assert state.outcome is not None, f"{rules.name}: the golden game did not end"
    return {"game": rules.name, "seed": seed, "steps": steps,
            "final_views": {str(s): state.view(s) for s in audience},
            "outcome": state.outcome.to_json(), "history": rec.history.to_json()}


def dumps(doc: dict[str, Any]) -> str:
    """Stable text with one line per step (reviewable diffs)."""
    head = {k: v for k, v in doc.items() if k != "steps"}
    lines = [json.dumps(s, sort_keys=True, ensure_ascii=False) for s in doc["steps"]]
    return (json.dumps(head, sort_keys=True, ensure_ascii=False) + "\n[\n" + ",\n".join(lines)
            + "\n]\n")


def loads(text: str) -> dict[str, Any]:
    """Inverse of :func:`dumps`."""
    head, rest = text.split("\n", 1)
    doc: dict[str, Any] = json.loads(head)
    doc["steps"] = json.loads(rest)
    return doc
