"""The golden playthrough (``data/golden_hand.json``) still plays out identically."""

from __future__ import annotations

import json

from cardhall.engine import History, replay
from cardhall.engine.inspect import fingerprint

from .golden import PATH, playthrough


def test_golden_playthrough_is_unchanged() -> None:
    stored = json.loads(PATH.read_text(encoding="utf-8"))
    fresh = json.loads(json.dumps(playthrough(), sort_keys=True))
    assert fresh == stored


def test_golden_history_replays_to_its_outcome() -> None:
    stored = json.loads(PATH.read_text(encoding="utf-8"))
    state = replay(History.from_json(stored["history"]))
    assert state.is_over and state.outcome is not None
    assert sum(state.outcome.returns) == 0
    assert fingerprint(state)
