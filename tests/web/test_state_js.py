"""The browser's protocol 2 state rule (``static/js/state.js``) run under Node: a delta applies
only on the state of its ``base_version``; it copies its fields but the step's and patches the
view top level; a full state (or a protocol 1 state without ``full``) replaces what is held.
Skipped when no ``node`` is on the PATH (the browser tests cover the same code in Chromium)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

STATE_JS = Path(__file__).resolve().parents[2] / "static" / "js" / "state.js"
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(NODE is None, reason="no node on the PATH to run static/js/state.js")

_SCRIPT = """
import { applyState, stepOf } from %s;
let input = "";
for await (const chunk of process.stdin) input += chunk;
const { current, frame } = JSON.parse(input);
const frozen = JSON.stringify(current);
const out = applyState(current, frame);
if (JSON.stringify(current) !== frozen) throw new Error("applyState modified current");
process.stdout.write(JSON.stringify({ out, step: stepOf(frame) }));
"""


def _run(current: dict[str, Any] | None, frame: dict[str, Any]) -> dict[str, Any]:
    """``{"out": applyState(current, frame), "step": stepOf(frame)}`` as computed by Node."""
    assert NODE is not None
    script = _SCRIPT % json.dumps(STATE_JS.as_uri())
    done = subprocess.run([NODE, "--input-type=module", "-e", script],
                          input=json.dumps({"current": current, "frame": frame}),
                          capture_output=True, text=True, timeout=30, check=False)
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def _full(**over: Any) -> dict[str, Any]:
    state: dict[str, Any] = {
        "type": "state", "full": True, "table_id": "t1", "version": 7, "game": "bazaar_blot",
        "status": "playing", "hand": 1, "seat": 0, "game_seat": 0, "seat_map": [0, 1, 2, 3],
        "seats": [{"seat": i, "name": f"p{i}"} for i in range(4)],
        "view": {"hand": ["7S", "8S"], "trick": [], "deal_number": 1},
        "legal_actions": [{"type": "play", "card": "7S"}], "to_act": [0], "timer_seat": 0,
        "deadline_ms": 30000, "turn_timeout_ms": 30000, "seed_commitment": "abc",
        "game_id": "g1", "events": [], "actor": None, "timeout": False,
    }
    state.update(over)
    return state


def _delta(**over: Any) -> dict[str, Any]:
    frame: dict[str, Any] = {
        "type": "state", "full": False, "table_id": "t1", "version": 8, "base_version": 7,
        "status": "playing", "hand": 1, "seat": 0, "game_seat": 0, "legal_actions": [],
        "to_act": [1], "timer_seat": 1, "deadline_ms": 29000,
        "events": [{"kind": "played", "seat": 0, "card": "7S"}], "actor": 0, "timeout": True,
        "view_patch": {"hand": ["8S"], "trick": ["7S"]},
    }
    frame.update(over)
    return frame


def _held() -> dict[str, Any]:
    """What the client holds after the full state of ``_full()`` (no step fields)."""
    return {k: v for k, v in _full().items() if k not in ("events", "actor", "timeout")}


def test_a_delta_on_its_base_merges_fields_and_patches_the_view() -> None:
    got = _run(_held(), _delta())
    out = got["out"]
    assert out["version"] == 8
    assert out["view"] == {"hand": ["8S"], "trick": ["7S"], "deal_number": 1}
    assert (out["to_act"], out["timer_seat"], out["deadline_ms"]) == ([1], 1, 29000)
    assert out["legal_actions"] == []
    assert out["full"] is True
    for key in ("base_version", "view_patch", "view_removed", "events", "actor", "timeout"):
        assert key not in out
    # the step, in the shape of a protocol 1 `events` message (actor -> seat)
    assert got["step"]["events"] == [{"kind": "played", "seat": 0, "card": "7S"}]
    assert (got["step"]["seat"], got["step"]["timeout"]) == (0, True)


def test_absent_optional_fields_keep_their_value_present_ones_replace_it() -> None:
    out = _run(_held(), _delta())["out"]
    assert out["seats"] == _full()["seats"]
    assert (out["seat_map"], out["game_id"], out["seed_commitment"]) == ([0, 1, 2, 3], "g1", "abc")
    assert (out["game"], out["turn_timeout_ms"]) == ("bazaar_blot", 30000)
    seats = [{"seat": i, "name": f"q{i}"} for i in range(4)]
    out = _run(_held(), _delta(seats=seats, seat_map=[1, 0, 2, 3], game_id="g2",
                               seed_commitment="def"))["out"]
    assert (out["seats"], out["seat_map"]) == (seats, [1, 0, 2, 3])
    assert (out["game_id"], out["seed_commitment"]) == ("g2", "def")


def test_view_removed_deletes_top_level_keys() -> None:
    out = _run(_held(), _delta(view_patch={"trick": ["7S"]}, view_removed=["hand"]))["out"]
    assert out["view"] == {"trick": ["7S"], "deal_number": 1}


def test_a_patch_on_a_null_view_is_the_whole_view_and_no_patch_keeps_it() -> None:
    held = {**_held(), "view": None, "status": "waiting"}
    assert _run(held, _delta(view_patch={}))["out"]["view"] is None
    out = _run(held, _delta(view_patch={"hand": ["9S"], "trick": []}))["out"]
    assert out["view"] == {"hand": ["9S"], "trick": []}


def test_a_delta_off_its_base_or_with_nothing_held_does_not_apply() -> None:
    assert _run(_held(), _delta(base_version=6))["out"] is None
    assert _run(_held(), _delta(base_version=8, version=9))["out"] is None
    assert _run(None, _delta())["out"] is None


def test_a_full_state_replaces_what_is_held_protocol_1_included() -> None:
    full = _full(version=20, view={"hand": []}, events=[{"kind": "game_started"}], actor=None)
    got = _run(_held(), full)
    assert got["out"] == {k: v for k, v in full.items() if k not in ("events", "actor", "timeout")}
    assert got["step"]["events"] == [{"kind": "game_started"}]
    v1 = {k: v for k, v in _full(version=3).items()
          if k not in ("full", "events", "actor", "timeout")}
    got = _run(None, v1)
    assert got["out"] == v1
    assert got["step"] is None
