"""The golden playthrough: a fresh regeneration must equal ``golden/match_seed1.json``.

If a deliberate rules or view change breaks this, regenerate with ``make_golden.py`` and
review the diff.
"""

from __future__ import annotations

import json

from .make_golden import PATH, dumps, generate, loads


def test_golden_match_seed1_is_reproduced() -> None:
    expected = loads(PATH.read_text(encoding="utf-8"))
    fresh = json.loads(json.dumps(loads(dumps(generate()))))
    assert fresh["outcome"] == expected["outcome"]
    assert len(fresh["steps"]) == len(expected["steps"])
    for i, (a, b) in enumerate(zip(fresh["steps"], expected["steps"], strict=True)):
        assert a == b, f"step {i} differs"
    assert fresh == expected


def test_golden_match_is_a_complete_match() -> None:
    doc = loads(PATH.read_text(encoding="utf-8"))
    assert doc["outcome"]["reason"] == "target_reached"
    assert max(doc["outcome"]["returns"]) >= 101
    assert any(s["seat"] is None for s in doc["steps"])
    hands = [s["views"][str(s["seat"])]["hand"] for s in doc["steps"] if s["seat"] is not None]
    assert all(hands)
