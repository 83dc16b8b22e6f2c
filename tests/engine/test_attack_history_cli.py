"""Adversarial history documents for ``History.from_json`` and ``cardhall replay``
(design.md section 4): every bad document is an ``InvalidHistoryError`` naming the field, and the
CLI answers with one JSON error object and a non-zero exit, never a Python traceback."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cardhall.cli import main
from cardhall.engine import History, InvalidHistoryError

GOOD: dict[str, Any] = {
    "format": "cardhall-history/1",
    "game": "bazaar_blot",
    "config": {},
    "seats": [{"name": f"p{i}"} for i in range(4)],
    "dealer": 0,
    "stacks": None,
    "actions": [],
}


@pytest.mark.parametrize(
    ("patch", "needle"),
    [
        ({"actions": 5}, "'actions'"),
        ({"actions": True}, "'actions'"),
        ({"actions": {"seat": None}}, "'actions'"),
        ({"config": 0}, "'config'"),
        ({"config": []}, "'config'"),
        ({"config": ""}, "'config'"),
        ({"seats": [{"name": "a", "bot": "yes"}]}, "'bot'"),
        ({"seats": [{"name": "a", "player_id": 7}]}, "'player_id'"),
        ({"actions": [{"seat": 0, "action": {"type": "pass"}, "t_ms": "soon"}]}, "'t_ms'"),
        ({"actions": [{"seat": 0, "action": {"type": "pass"}, "t_ms": -5}]}, "'t_ms'"),
        ({"actions": [{"seat": 0, "action": {"type": "pass"}, "timeout": "no"}]}, "'timeout'"),
        ({"actions": [{"seat": True, "action": {"type": "pass"}}]}, "seat True"),
    ],
)
def test_design_4_bad_fields_are_invalid_history_naming_them(patch: dict, needle: str) -> None:
    with pytest.raises(InvalidHistoryError) as info:
        History.from_json({**GOOD, **patch})
    assert needle in info.value.message


def test_design_4_null_config_and_actions_take_their_defaults() -> None:
    h = History.from_json({**GOOD, "config": None, "actions": None})
    assert h.config == {} and h.actions == []


def _replay(tmp_path: Path, content: bytes, capsys: pytest.CaptureFixture[str]) -> tuple[int, Any]:
    path = tmp_path / "h.json"
    path.write_bytes(content)
    code = main(["replay", str(path), "--seat", "0", "--json"])
    out = capsys.readouterr().out
    return code, json.loads(out)


@pytest.mark.parametrize(
    ("content", "code", "error_code"),
    [
        (b"\xff\xfe not utf-8", 2, "cli.bad_file"),
        (b"[" * 100_000 + b"]" * 100_000, 2, "cli.bad_file"),
        (b"{", 2, "cli.bad_file"),
        (json.dumps({**GOOD, "actions": 5}).encode(), 1, "engine.invalid_history"),
        (json.dumps({**GOOD, "game": "chess"}).encode(), 1, "engine.unknown_game"),
        (json.dumps({**GOOD, "config": {"target_score": 0}}).encode(), 1, "engine.invalid_config"),
        (json.dumps({**GOOD, "config": {"target_score": True}}).encode(), 1,
         "engine.invalid_config"),
        (json.dumps({**GOOD, "seats": GOOD["seats"][:3]}).encode(), 1, "engine.invalid_config"),
        (json.dumps({**GOOD, "dealer": 9}).encode(), 1, "engine.invalid_config"),
        (json.dumps({**GOOD, "stacks": [1, 2, 3, 4]}).encode(), 1, "engine.invalid_config"),
        (b"[]", 1, "engine.invalid_history"),
        (b"null", 1, "engine.invalid_history"),
    ],
)
def test_design_4_cli_replay_bad_documents_exit_non_zero_with_a_json_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes, code: int,
    error_code: str,
) -> None:
    got, out = _replay(tmp_path, content, capsys)
    assert got == code and out["error"]["code"] == error_code and out["error"]["message"]


@pytest.mark.parametrize(
    ("action", "index", "error_code"),
    [
        ({"seat": None, "action": {"type": "deal", "hands": [["Jh"]]}}, 0,
         "engine.malformed_action"),
        ({"seat": 1, "action": {"type": "pass"}}, 0, "engine.not_your_turn"),
        ({"seat": None, "action": {"type": "pass"}}, 0, "engine.illegal_action"),
        ({"seat": 9, "action": {"type": "pass"}}, 0, "engine.not_your_turn"),
    ],
)
def test_design_4_cli_replay_rejected_action_names_index_and_code(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], action: dict, index: int,
    error_code: str,
) -> None:
    got, out = _replay(tmp_path, json.dumps({**GOOD, "actions": [action]}).encode(), capsys)
    assert got == 1
    assert out["error"]["code"] == error_code and out["error"]["index"] == index


def test_design_4_recorder_logs_a_copy_of_the_action() -> None:
    # the log kept the caller's dict: reusing it for a later (rejected) try rewrote history
    from cardhall.engine import Recorder, SeatInfo, get_game, replay
    from cardhall.engine.inspect import fingerprint

    rules = get_game("soldiers_bluff")
    rec = Recorder(rules, rules.config({}), [SeatInfo("a"), SeatInfo("b")], 0, [10, 10])
    rec.act(None, rec.state.chance_action(lambda cards: list(cards)))
    action: dict[str, Any] = {"type": "exchange", "cards": []}
    rec.act(1, action)
    action["cards"].append("king_of_wolves")
    assert rec.history.actions[-1].action == {"type": "exchange", "cards": []}
    assert fingerprint(replay(rec.history)) == fingerprint(rec.state)


# (an unknown --game is an argparse usage error: see tests/test_cli_errors.py)
@pytest.mark.parametrize(("argv", "code"), [
    (["--game", "bazaar_blot", "--seats", "3"], "engine.invalid_config"),
    (["--game", "soldiers_bluff", "--seats", "6"], "engine.invalid_config"),
])
def test_cli_selfplay_bad_game_or_seats_is_a_json_error(
    capsys: pytest.CaptureFixture[str], argv: list[str], code: str
) -> None:
    assert main(["selfplay", "--games", "1", *argv, "--json"]) == 2
    assert json.loads(capsys.readouterr().out)["error"]["code"] == code
