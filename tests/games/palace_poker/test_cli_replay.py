"""``cardhall replay`` on a hand-written history with chosen banners and palaces (design.md 4).

Seat 0 (banner 7h, palace 7c 7d 7s, soldier Qh) attacks seat 1 (banner Ks, palace Kd Kc 2h).
With the opponent's banner suit excluded seat 0 holds trips of sevens (7s is a spade), seat 1
trips of kings (2h is a heart): seat 1 wins and captures Qh and the banner 7h.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

HISTORY = Path(__file__).parent / "data" / "battle_history.json"
SRC = Path(__file__).resolve().parents[3] / "src"


def replay(path: Path, *args: str) -> tuple[int, dict[str, Any]]:
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    proc = subprocess.run([sys.executable, "-m", "cardhall", "replay", str(path), *args,
                           "--json"],
                          capture_output=True, text=True, env=env, timeout=60, check=False)
    return proc.returncode, json.loads(proc.stdout)


def test_replay_prints_battle_winner_capture_and_returns() -> None:
    code, out = replay(HISTORY, "--seat", "1")
    assert code == 0 and out["finished"] is True
    assert out["outcome"]["reason"] == "last_player"
    assert out["outcome"]["returns"] == [-7, 8, -1]
    view = out["view"]
    assert view["last_battle"]["winner"] == 1 and view["last_battle"]["losers"] == [0]
    assert view["seats"][1]["soldiers"] == ["Qh", "7h"]
    assert view["revealed_palaces"] == {"0": ["7c", "7d", "7s"]}
    assert out["legal_actions"] == [] and out["timeout_action"] is None


def test_replay_other_seat_sees_result_not_palaces(tmp_path: Path) -> None:
    doc = json.loads(HISTORY.read_text(encoding="utf-8"))
    doc["actions"] = doc["actions"][:8]  # just after the call
    path = tmp_path / "mid.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    code, out = replay(path, "--seat", "2")
    assert code == 0 and out["finished"] is False
    assert out["view"]["revealed_palaces"] == {}
    assert "Kd" not in json.dumps(out) and "7c" not in json.dumps(out)
    assert out["view"]["last_battle"]["winner"] == 1
    code, out = replay(path, "--seat", "1")
    assert out["legal_actions"] == [{"type": "discard", "cards_from": ["Qh", "7h"],
                                     "min_cards": 0, "max_cards": 2}]
    assert out["timeout_action"] == {"type": "discard", "cards": []}


def test_replay_names_the_index_of_an_illegal_action(tmp_path: Path) -> None:
    doc = json.loads(HISTORY.read_text(encoding="utf-8"))
    doc["actions"][6] = {"seat": 0, "action": {"type": "battle", "target": 0}}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    code, out = replay(path)
    assert code == 1
    assert out["error"]["index"] == 6 and out["error"]["code"] == "engine.illegal_action"
