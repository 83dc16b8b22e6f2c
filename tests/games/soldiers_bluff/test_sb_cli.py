"""``cardhall replay`` on hand-written Soldier's Bluff histories with chosen hands
(``design.md`` section 4), run as a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent / "histories"
SRC = Path(__file__).resolve().parents[3] / "src"


def _replay(name: str, seat: int | None) -> dict[str, Any]:
    args = [sys.executable, "-m", "cardhall", "replay", str(HERE / name)]
    if seat is not None:
        args += ["--seat", str(seat)]
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    proc = subprocess.run(args, capture_output=True, text=True, env=env, timeout=60, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out: dict[str, Any] = json.loads(proc.stdout)
    return out


def test_SB_rule9_replay_showdown_prints_winner_and_returns() -> None:
    out = _replay("bluff_showdown.json", 0)
    assert out["finished"] is True
    outcome = out["outcome"]
    assert outcome["reason"] == "showdown"
    assert outcome["returns"] == [-1, 12, -11]
    assert outcome["detail"]["winner"] == 1 and outcome["detail"]["soldiers_bluff"] is True
    assert outcome["detail"]["pot"] == 23
    assert outcome["detail"]["shown"][0] is None, "the folded hand is never shown"
    assert out["legal_actions"] == [] and out["timeout_action"] is None
    assert [s["chips"] for s in out["view"]["seats"]] == [29, 30, 34]


def test_SB_rule7_replay_mid_hand_gives_legal_actions_with_ranges() -> None:
    out = _replay("bluff_round2_facing_raise.json", 2)
    assert out["finished"] is False and out["outcome"] is None
    assert out["legal_actions"] == [
        {"type": "call"}, {"type": "raise", "min_to": 11, "max_to": 17}, {"type": "fold"}
    ]
    assert out["timeout_action"] == {"type": "fold"}
    view = out["view"]
    assert view["to_act"] == 2 and view["round"] == 2 and view["highest"] == 10
    assert view["pot"] == 18 and view["cap"] == 17
    assert "lord_of_blades" not in json.dumps(view), "other hands stay hidden"


def test_SB_section5_replay_for_a_seat_not_to_act_offers_nothing() -> None:
    out = _replay("bluff_round2_facing_raise.json", 1)
    assert out["legal_actions"] == [] and out["timeout_action"] is None
    assert out["view"]["hand"][-1] == "white_swordsman", "drawn from the stock top"
