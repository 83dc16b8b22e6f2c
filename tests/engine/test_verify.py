"""``verify_history`` and ``cardhall verify`` on self-play histories (``docs/fairness.md``):
a legacy history (no ``shuffle``: the server seed shuffles directly) verifies; a wrong
commitment, a wrong outcome and an unknown derivation are reported; unreadable files exit 2."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from cardhall.cli import main as cli_main
from cardhall.engine import InvalidHistoryError, commitment, verify_history
from cardhall.selfplay import play_one


def legacy_history(game: str, seats: int, seed: int) -> dict[str, Any]:
    """A self-play history with the fields of a stored game written before client seeds."""
    rec, violations, _ = play_one(game, seats, seed=seed, check=False)
    assert not violations
    server = hashlib.sha256(f"selfplay:{seed}".encode()).digest()
    doc = rec.history.to_json()
    doc.update({"outcome": rec.state.outcome.to_json(), "seed": server.hex(),  # type: ignore[union-attr]
                "seed_commitment": commitment(server)})
    return doc


@pytest.mark.parametrize("game,seats", [("bazaar_blot", 4), ("soldiers_bluff", 3),
                                        ("palace_poker", 4)])
def test_a_legacy_history_verifies_with_the_server_seed(game: str, seats: int) -> None:
    verdict = verify_history(legacy_history(game, seats, 11))
    assert verdict.verified and verdict.shuffle == "cardhall-shuffle/0"
    assert verdict.chance_actions >= 1


def test_a_wrong_commitment_or_outcome_is_a_whole_history_mismatch() -> None:
    doc = legacy_history("soldiers_bluff", 3, 2)
    doc["seed_commitment"] = "0" * 64
    doc["outcome"] = {**doc["outcome"], "returns": [9, 9, 9]}
    found = verify_history(doc).to_json()
    assert not found["verified"]
    assert [m["index"] for m in found["mismatches"]] == [None, None]
    assert "commitment" in found["mismatches"][0]["reason"]
    assert "outcome" in found["mismatches"][1]["reason"]


def test_client_seeds_under_shuffle_1_change_what_verifies() -> None:
    doc = legacy_history("soldiers_bluff", 3, 2)
    doc.update({"shuffle": "cardhall-shuffle/1", "client_seeds": [None, None, None]})
    found = verify_history(doc)  # dealt from S itself, not from game_seed(S, ...)
    assert not found.verified and found.mismatches[0].index == 0


@pytest.mark.parametrize("change,words", [
    ({"shuffle": "cardhall-shuffle/9"}, "unknown 'shuffle'"),
    ({"client_seeds": ["a"]}, "client_seeds"),
    ({"seed": "zz"}, "not hex"),
    ({"seed": None}, "'seed'"),
])
def test_unreadable_seeds_are_invalid_histories(change: dict[str, Any], words: str,
                                                tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    doc = {**legacy_history("soldiers_bluff", 2, 4), **change}
    with pytest.raises(InvalidHistoryError, match=words):
        verify_history(doc)
    path = tmp_path / "h.json"
    path.write_text(json.dumps(doc))
    assert cli_main(["verify", str(path), "--json"]) == 2
    assert json.loads(capsys.readouterr().out)["error"]["code"] == "engine.invalid_history"


def test_a_file_that_is_not_json_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "h.json"
    path.write_text("{not json")
    assert cli_main(["verify", str(path), "--json"]) == 2
    assert json.loads(capsys.readouterr().out)["error"]["code"] == "cli.bad_file"
    assert cli_main(["verify", str(tmp_path / "missing.json"), "--json"]) == 2
