"""``cardhall arena --duplicate`` (cardhall.bots.duplicate): shared deals, rotated seats, the
interval per set, typed CLI errors."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cardhall.bots import duplicate
from cardhall.bots.bazaar_blot import RulePolicy
from cardhall.cli import main


def test_blot_set_puts_bot_a_on_0_2_then_1_3() -> None:
    rots = duplicate.rotations("bazaar_blot", 4)
    lineup = ["rule", "random", "rule", "random"]
    assert [[lineup[i] for i in o] for o in rots] == [lineup, ["random", "rule", "random", "rule"]]


def test_poker_set_gives_each_entry_each_seat_once() -> None:
    rots = duplicate.rotations("palace_poker", 3)
    for seat in range(3):
        assert sorted(o[seat] for o in rots) == [0, 1, 2]


def test_games_of_a_set_share_one_deal_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[int, Any]] = []
    real = duplicate.play_match

    def spy(game: str, policies: Any, seed: int, **kw: Any) -> Any:
        seen.append((seed, kw["policy_seed"]))
        return real(game, policies, seed, **kw)

    monkeypatch.setattr(duplicate, "play_match", spy)
    result = duplicate.run("soldiers_bluff", ["rule", "random"], 6, seed=3)
    dup = [(s, p) for s, p in seen if p[0] == "dup"]
    assert len(dup) == 6 and result["sets"] == 3
    for b in range(3):
        assert len({s for s, p in dup if p[2] == b}) == 1
    assert len({s for s, _ in dup}) == 3
    plain = [s for s, p in seen if p[0] == "plain"]
    assert len(set(plain)) == 6 and not set(plain) & {s for s, _ in dup}
    assert [h[1] for h in result["histories"][:2]] == [[0, 1], [1, 0]]


def test_t_interval_known_sample() -> None:
    ci = duplicate.t_interval([1.0, 2.0, 3.0, 4.0])
    # mean 2.5, s = 1.29099, t(0.975, 3) = 3.182: half = 3.182 * 1.29099 / 2 = 2.0540
    assert ci["mean"] == 2.5 and ci["n"] == 4
    assert ci["low"] == pytest.approx(0.446, abs=1e-3)
    assert ci["high"] == pytest.approx(4.554, abs=1e-3)


def test_duplicate_interval_unit_is_the_set(monkeypatch: pytest.MonkeyPatch) -> None:
    result = duplicate.run("soldiers_bluff", ["rule", "random"], 8, seed=1)
    assert result["duplicate"]["rule"]["n"] == 4 and result["plain"]["rule"]["n"] == 8


@pytest.mark.parametrize(("argv", "code"), [
    (["--games", "2"], "cli.bad_argument"),
    (["--url", "http://127.0.0.1:1"], "cli.bad_argument"),
    (["--bots", "rule,nosuchbot"], "cli.bad_bot"),
])
def test_bad_flags_are_typed_errors(argv: list[str], code: str,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    base = {"--game": "soldiers_bluff", "--bots": "rule,random", "--games": "8"}
    for flag, value in zip(argv[::2], argv[1::2], strict=True):
        base[flag] = value
    args = ["arena", "--duplicate", "--json", *[x for kv in base.items() for x in kv]]
    assert main(args) == 2
    assert json.loads(capsys.readouterr().out)["error"]["code"] == code


def test_unit_without_duplicate_is_a_typed_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--json", "--game", "soldiers_bluff", "--bots", "rule,random",
                 "--games", "2", "--unit", "match"]) == 2
    assert json.loads(capsys.readouterr().out)["error"]["code"] == "cli.bad_argument"


def test_cli_json_has_both_arms(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--duplicate", "--json", "--game", "soldiers_bluff",
                 "--bots", "rule,random", "--games", "8"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out["plain"]) == {"rule", "random"} and out["games"] == 8 and "ratio" in out


def test_blot_board_sets_share_one_deal_and_each_game_is_one_board() -> None:
    result = duplicate.run("bazaar_blot", ["rule", "random", "rule", "random"], 8, seed=2)
    games = result["histories"]
    assert result["unit"] == "board" and result["config"] == {"target_score": 1}
    assert len(games) == 8 and result["sets"] == 4
    firsts = {b: {json.dumps(h[3], sort_keys=True) for h in games if h[0] == b} for b in range(4)}
    assert all(len(deals) == 1 for deals in firsts.values())  # one deal per set ...
    assert len(set().union(*firsts.values())) == 4  # ... and another deal for each set
    assert all(len(h[2].detail["deals"]) == 1 for h in games)  # a board: one scored deal


class _Twin(RulePolicy):
    """The Blot rule bot under another name: it plays the same cards the same way."""

    name = "twin"


def test_blot_board_ratio_above_one_when_both_bots_play_alike() -> None:
    # Deterministic (fixed seeds, deterministic bots): on shared boards every set's seat
    # luck cancels exactly (correlation -1, duplicate width 0), while the plain arm's
    # boards from their own seeds still differ.
    result = duplicate.run("bazaar_blot", [RulePolicy(None), _Twin(None)] * 2, 16, seed=1)
    assert result["bot"] == "rule" and result["correlation"] == -1.0
    assert result["duplicate"]["rule"]["width"] == 0.0 < result["plain"]["rule"]["width"]
    assert result["ratio"] > 1


def test_match_unit_plays_whole_matches_and_a_bad_unit_is_refused() -> None:
    result = duplicate.run("bazaar_blot", ["rule", "random", "rule", "random"], 4, unit="match")
    deals = [len(h[2].detail["deals"]) for h in result["histories"]]
    assert result["config"] == {} and sum(deals) > len(deals)  # matches of several deals
    with pytest.raises(ValueError, match="unknown unit"):
        duplicate.run("bazaar_blot", ["rule", "random", "rule", "random"], 4, unit="deal")
