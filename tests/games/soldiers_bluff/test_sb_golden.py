"""Golden playthrough: one seeded hand, per-seat views and legal actions at every step.

The file is written only on purpose by ``make_sb_golden.py``; this test regenerates the
document in memory and requires it to equal the file.
"""

from __future__ import annotations

import json

from make_sb_golden import GOLDEN, playthrough

from cardhall.engine.inspect import strings_in
from cardhall.games.soldiers_bluff import CARD_IDS


def test_SB_golden_playthrough_matches_the_file() -> None:
    expected = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert json.loads(json.dumps(playthrough())) == expected


def test_SB_golden_spectator_sees_no_card_before_the_showdown() -> None:
    doc = json.loads(GOLDEN.read_text(encoding="utf-8"))
    for step in doc["steps"]:
        seen = set(strings_in(step["views"]["None"])) | set(strings_in(step["events"]["None"]))
        if not any(e["kind"] == "showdown" for e in step["events"]["None"]):
            assert not seen & set(CARD_IDS)
