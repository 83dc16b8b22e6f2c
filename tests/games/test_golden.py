"""Golden playthroughs: for every registered game, a fresh render (:mod:`render_golden`) equals its
file ``tests/games/golden/<game>.json``, and the file's history replays to its outcome.

After a deliberate change of views, events or legal actions, rewrite the files with
``pytest tests/games/test_golden.py --update-golden`` and review the diff. A new game fails
here until its file is written so.
"""

from __future__ import annotations

import json

import pytest
from render_golden import dumps, golden_doc, loads, path_of

from cardhall.engine import History, game_names, get_game, replay

HINT = "rewrite on purpose: pytest tests/games/test_golden.py --update-golden"


@pytest.mark.parametrize("game", game_names())
def test_the_golden_playthrough_is_reproduced(game: str, request: pytest.FixtureRequest) -> None:
    text = dumps(golden_doc(get_game(game)))
    path = path_of(game)
    if request.config.getoption("--update-golden"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.is_file(), f"{path.name} is missing; {HINT}"
    expected = loads(path.read_text(encoding="utf-8"))
    fresh = json.loads(json.dumps(loads(text)))
    assert len(fresh["steps"]) == len(expected["steps"]), HINT
    for i, (a, b) in enumerate(zip(fresh["steps"], expected["steps"], strict=True)):
        assert a == b, f"{game}: step {i} differs; {HINT}"
    assert fresh == expected, HINT


@pytest.mark.parametrize("game", game_names())
def test_the_golden_history_replays_to_its_outcome(game: str) -> None:
    doc = loads(path_of(game).read_text(encoding="utf-8"))
    state = replay(History.from_json(doc["history"]))
    assert state.outcome is not None and state.outcome.to_json() == doc["outcome"]
    assert any(s["seat"] is None for s in doc["steps"]) and any(
        s["seat"] is not None for s in doc["steps"])
