"""Bazaar Blot's golden playthrough (``tests/games/golden/bazaar_blot.json``, rendered and
compared by ``tests/games/test_golden.py``) is a complete match whose seats always hold cards."""

from __future__ import annotations

import json
from pathlib import Path

GOLDEN = Path(__file__).parents[1] / "golden" / "bazaar_blot.json"


def test_golden_match_is_a_complete_match() -> None:
    head, rest = GOLDEN.read_text(encoding="utf-8").split("\n", 1)
    outcome, steps = json.loads(head)["outcome"], json.loads(rest)
    assert outcome["reason"] == "target_reached"
    assert max(outcome["returns"]) >= 101
    assert any(s["seat"] is None for s in steps)
    hands = [s["views"][str(s["seat"])]["hand"] for s in steps if s["seat"] is not None]
    assert all(hands)
