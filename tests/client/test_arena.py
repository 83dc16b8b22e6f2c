"""``cardhall arena``: bots through a real server, seats rotated, mean return with a 95% CI."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from clientkit import live_server

from cardhall.arena import ArenaSpec, format_table, run, summarize
from cardhall.cli import main


def arena_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main(["arena", *args, "--json"]) == 0
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    return out


def test_arena_poker_rotates_seats_and_reports_every_game(
        capsys: pytest.CaptureFixture[str]) -> None:
    res = arena_json(capsys, "--game", "soldiers_bluff", "--bots", "rule,random",
                     "--games", "12", "--concurrency", "4")
    assert res["lineup"] == ["rule", "random"] and res["url"] == "in-process"
    assert len(set(res["game_ids"])) == 12
    assert [g["seats"] for g in res["games_played"][:2]] == [[0, 1], [1, 0]]
    for g in res["games_played"]:
        assert sum(g["returns"]) == 0  # chips only change hands
    rule, rnd = res["bots"]["rule"], res["bots"]["random"]
    assert rule["mean_return"]["mean"] == pytest.approx(-rnd["mean_return"]["mean"])
    ci = rule["mean_return"]
    assert ci["low"] <= ci["mean"] <= ci["high"]


def test_arena_blot_with_an_sdk_bot_class(capsys: pytest.CaptureFixture[str]) -> None:
    res = arena_json(capsys, "--game", "bazaar_blot", "--bots",
                     "arena_bots:FirstLegal,random,arena_bots:FirstLegal,random",
                     "--games", "4", "--config", '{"target_score": 30}', "--store", "sqlite")
    assert set(res["bots"]) == {"arena_bots:FirstLegal", "random"}
    assert res["bots"]["random"]["seats"] == 2
    assert all(g["reason"] == "target_reached" for g in res["games_played"])


async def test_arena_against_a_running_server_saves_games_with_bot_seats() -> None:
    async with live_server() as live:
        base = f"http://127.0.0.1:{live.port}"
        res = await run(ArenaSpec(game="palace_poker", bots=["rule", "random"], games=6,
                                  url=base, turn_timeout_seconds=2.0))
        await live.writer.flush()  # the game writer saves off the table's task
        async with live.http as http:
            saved = (await http.get("/api/games?game=palace_poker")).json()["items"]
            # a hand dealt before the arena's bots left is played out by stand-ins (its seats
            # were left mid-game) and saved too, recording them
            extra = {g["id"] for g in saved} - set(res["game_ids"])
            for game_id in extra:
                doc = (await http.get(f"/api/games/{game_id}")).json()
                assert doc.get("stand_ins"), doc.get("stand_ins")
        # each arena game has a table of its own (6 run at once): at most one extra hand each
        assert set(res["game_ids"]) <= {g["id"] for g in saved}
        assert len(extra) <= len(res["game_ids"])
        assert all(s["bot"] for g in saved for s in g["seats"])
        assert all(s["name"] in ("rule-0", "random-1") for g in saved for s in g["seats"])
        text = format_table(res)
        assert "mean return [95% CI]" in text and res["game_ids"][0] in text
        async with asyncio.timeout(10):  # abandoned tables close 1 s after the arena leaves
            while live.tables.list():
                await asyncio.sleep(0.05)  # polling the lobby, bounded


def test_summarize_pools_same_name_seats() -> None:
    games = [{"seats": [0, 1, 2, 3], "returns": [100, 0, 100, 0]},
             {"seats": [1, 2, 3, 0], "returns": [10, 90, 10, 90]}]
    stats = summarize(["rule", "random", "rule", "random"], games)
    assert stats["rule"]["mean_return"]["mean"] == 95.0
    assert stats["random"]["edge"]["mean"] == -90.0
    assert stats["rule"]["win_rate"]["mean"] == 1.0


@pytest.mark.slow
@pytest.mark.timeout(600)
@pytest.mark.parametrize(("game", "bots"), [
    ("bazaar_blot", "rule,random,rule,random"),
    ("soldiers_bluff", "rule,random"),
    ("palace_poker", "rule,random"),
])
def test_rule_bots_beat_random_over_200_games(capsys: pytest.CaptureFixture[str], game: str,
                                              bots: str) -> None:
    res = arena_json(capsys, "--game", game, "--bots", bots, "--games", "200")
    edge = res["bots"]["rule"]["edge"]
    assert edge["low"] > 0, res["bots"]
    assert res["bots"]["rule"]["mean_return"]["low"] > res["bots"]["random"]["mean_return"]["high"]


def test_arena_loads_module_class_from_the_current_directory_and_reports_load_errors(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Any) -> None:
    """``module:Class`` is found in the current directory (as ``python -m`` would); a bot that
    cannot be loaded is one JSON error line with exit status 2, not a traceback."""
    (tmp_path / "cwd_arena_bots.py").write_text(
        "from arena_bots import FirstLegal\n\n"
        "class Plain(FirstLegal):\n    pass\n\n"
        "class NeedsArgs(FirstLegal):\n    def __init__(self, level):\n        self.level = level\n")
    monkeypatch.chdir(tmp_path)
    res = arena_json(capsys, "--game", "soldiers_bluff", "--bots", "cwd_arena_bots:Plain,rule",
                     "--games", "2")
    assert set(res["bots"]) == {"cwd_arena_bots:Plain", "rule"}
    for bots, words in [("no_such_module_xyz:Plain,rule", "No module named"),
                        ("cwd_arena_bots:Missing,rule", "has no 'Missing'"),
                        ("cwd_arena_bots:NeedsArgs,rule", "no arguments")]:
        assert main(["arena", "--game", "soldiers_bluff", "--bots", bots, "--games", "1",
                     "--json"]) == 2
        out = capsys.readouterr().out
        err = json.loads(out)["error"]
        assert err["code"] == "cli.bad_bot" and words in err["message"], err
        assert "Traceback" not in out and out.count("\n") == 1


def test_the_win_rate_interval_is_a_wilson_interval_inside_0_1() -> None:
    from cardhall.bots.evaluate import wilson

    for samples in ([1.0] * 200, [0.0] * 3, [1.0], [0.5] * 10, [1.0, 0.0, 0.5, 1.0]):
        w = wilson(samples)
        assert 0.0 <= w["low"] <= w["mean"] <= w["high"] <= 1.0, (samples, w)
    assert wilson([1.0] * 200)["low"] < 1.0  # all wins is not certainty
    assert wilson([0.0] * 3)["high"] > 0.0
    assert wilson([1.0] * 20 + [0.0] * 80) == {"mean": 0.2, "low": 0.1334, "high": 0.2888}
    games = [{"seats": [0, 1], "returns": [5, -5]} for _ in range(30)]
    stats = summarize(["rule", "random"], games)
    for s in stats.values():
        assert 0.0 <= s["win_rate"]["low"] <= s["win_rate"]["high"] <= 1.0


def test_arena_at_a_stopped_server_prints_one_json_error(capsys: pytest.CaptureFixture[str]) -> None:
    import socket

    with socket.socket() as s:  # a port nobody listens on once closed
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    status = main(["arena", "--game", "soldiers_bluff", "--bots", "rule,random", "--games", "1",
                   "--url", f"http://127.0.0.1:{port}", "--json"])
    out = capsys.readouterr()
    assert status == 1
    lines = out.out.strip().splitlines()
    assert len(lines) == 1, out
    err = json.loads(lines[0])["error"]
    assert err["code"] == "cli.server_unreachable" and str(port) in err["message"]
    assert "Traceback" not in out.err
