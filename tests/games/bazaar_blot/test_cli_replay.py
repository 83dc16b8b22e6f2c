"""``cardhall replay FILE --seat N`` on hand-written Bazaar Blot histories (design.md section 4).

``histories/one_deal.json`` (target 1): chosen hands; S1 8♥, S2 pass, S3 9♥ (same suit over the
partner), then passes: 9♥ by S3. Trick 1 with four declarations (S1 tierce ♣ 20, S2 run of five
♣ 100, S3 and S0 fours 50 each: S2's run wins, team {0,2} scores 150), then tricks 2 and 3.
``histories/one_deal_complete.json`` plays the deal out: team {1,3} takes 6 tricks and 110 card
points (11 small >= 9: made), team {0,2} 52 points (5) + 150 combinations (15) = 20; both reach
the target, 20 > 11 wins.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent / "histories"
ROOT = Path(__file__).resolve().parents[3]


def replay(path: Path, seat: int | None = None) -> tuple[int, dict[str, Any]]:
    args = [sys.executable, "-m", "cardhall", "replay", str(path), "--json"]
    if seat is not None:
        args += ["--seat", str(seat)]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    proc = subprocess.run(args, capture_output=True, text=True, env=env, cwd=ROOT, check=False)
    return proc.returncode, json.loads(proc.stdout)


def test_replay_partial_deal_legal_actions_and_timeout() -> None:
    code, out = replay(HERE / "one_deal.json", seat=1)
    assert code == 0 and out["finished"] is False and out["outcome"] is None
    assert [e["card"] for e in out["legal_actions"]] == ["Qc", "Kc", "Ac", "7s", "8s"]
    assert out["timeout_action"] == {"type": "play", "card": "7s"}
    view = out["view"]
    assert view["hand"] == ["Qc", "Kc", "Ac", "7s", "8s"]
    assert view["tricks_won"] == [0, 3] and view["card_points"] == [0, 62]
    assert view["declarations_winner_team"] == 0
    assert view["contract"]["declarer"] == 3 and view["contract"]["level"] == 9
    shown = [d["cards"] for d in view["declarations"]]
    assert shown[1] == ["7c", "8c", "9c", "Tc", "Jc"]


def test_replay_partial_deal_other_seat_has_no_timer() -> None:
    code, out = replay(HERE / "one_deal.json", seat=2)
    assert code == 0 and out["legal_actions"] == [] and out["timeout_action"] is None
    assert "Qc" not in json.dumps(out["view"]["hand"])


def test_replay_complete_deal_ends_match_with_team_totals() -> None:
    code, out = replay(HERE / "one_deal_complete.json", seat=0)
    assert code == 0 and out["finished"] is True
    assert out["outcome"]["reason"] == "target_reached"
    assert out["outcome"]["returns"] == [20, 11, 20, 11]
    deal = out["outcome"]["detail"]["deals"][0]
    assert deal["card_points"] == [52, 110] and deal["combinations"] == [150, 0]
    assert deal["made"] and deal["scores"] == [20, 11]
    assert out["legal_actions"] == [] and out["timeout_action"] is None


def test_replay_illegal_action_names_index_and_code(tmp_path: Path) -> None:
    doc = json.loads((HERE / "one_deal.json").read_text(encoding="utf-8"))
    doc["actions"].append({"seat": 1, "action": {"type": "play", "card": "Jh"}})
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc), encoding="utf-8")
    code, out = replay(bad)
    assert code == 1
    assert out["error"]["index"] == len(doc["actions"]) - 1
    assert out["error"]["code"] == "engine.illegal_action" and "'Jh'" in out["error"]["message"]
