"""Soldier's Bluff's golden playthrough (``tests/games/golden/soldiers_bluff.json``, rendered
and compared by ``tests/games/test_golden.py``): the spectator sees no card before a showdown."""

from __future__ import annotations

import json
from pathlib import Path

from cardhall.engine.inspect import strings_in
from cardhall.games.soldiers_bluff import CARD_IDS

GOLDEN = Path(__file__).parents[1] / "golden" / "soldiers_bluff.json"


def test_SB_golden_spectator_sees_no_card_before_the_showdown() -> None:
    steps = json.loads(GOLDEN.read_text(encoding="utf-8").split("\n", 1)[1])
    assert steps
    for step in steps:
        seen = set(strings_in(step["views"]["None"])) | set(strings_in(step["events"]["None"]))
        if not any(e["kind"] == "showdown" for e in step["events"]["None"]):
            assert not seen & set(CARD_IDS)
