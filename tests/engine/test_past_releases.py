"""Every game saved by a past release verifies and replays with the current one (issue 27, case 4:
23 of 37 games saved by ``2abeaef`` failed ``cardhall verify`` once outcomes gained fields)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cardhall.engine.history import History, replay
from cardhall.engine.tablecheck import check_table_copy
from cardhall.engine.tablecopy import table_copy
from cardhall.engine.verify import outcome_matches, verify_history

FOLDER = Path(__file__).parent / "past_releases"
FILES = sorted(FOLDER.glob("*.ndjson"))


def _games(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def test_there_are_games_of_every_game_from_several_releases() -> None:
    assert len(FILES) >= 4
    for path in FILES:
        assert {g["game"] for g in _games(path)} == {
            "soldiers_bluff", "palace_poker", "bazaar_blot"}, path.name


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_every_game_of_a_past_release_verifies(path: Path) -> None:
    for doc in _games(path):
        result = verify_history(doc)
        assert result.verified, (path.name, doc["game"], result.to_json()["mismatches"])


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_every_game_of_a_past_release_replays_to_its_outcome(path: Path) -> None:
    for doc in _games(path):
        state = replay(History.from_json(doc))
        assert state.outcome is not None
        assert outcome_matches(doc["outcome"], state.outcome.to_json()), doc["game"]


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_every_table_copy_of_a_past_release_checks(path: Path) -> None:
    for doc in _games(path):
        copy = table_copy(doc)
        assert "seed" not in copy
        result = check_table_copy(copy)
        assert not result.mismatches, (path.name, doc["game"], result.to_json())


def test_an_outcome_that_changed_a_recorded_field_still_fails() -> None:
    doc = _games(FOLDER / "2abeaef.ndjson")[0]
    returns = doc["outcome"]["returns"]
    forged = {**doc, "outcome": {**doc["outcome"], "returns": [returns[0] + 1, *returns[1:]]}}
    assert not verify_history(forged).verified
