"""Every long ``cardhall`` command draws a progress bar (count, rate, time left) on stderr when
stderr is a terminal, and nothing when it is not or with ``--quiet``; stdout stays what scripts
read either way (the JSON object, the plain-text table)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from clikit import CARDHALL, ROOT, run, saved_game


def test_selfplay_draws_a_bar_on_a_terminal_and_nothing_on_a_pipe() -> None:
    argv = [*CARDHALL, "selfplay", "--game", "palace_poker", "--seats", "6", "--games", "40",
            "--json"]
    shown = run(argv)
    assert shown.status == 0, shown.err
    assert json.loads(shown.out)["games"] == 40  # stdout: the one JSON object, clean
    assert "selfplay palace_poker" in shown.err and "40/40" in shown.err
    assert "games/s" in shown.err and "left" in shown.err
    piped = run(argv, tty=False)
    assert piped.status == 0 and json.loads(piped.out)["games"] == 40
    assert piped.err == ""
    quiet = run([*argv, "--quiet"])
    assert quiet.status == 0 and "games/s" not in quiet.err and "40/40" not in quiet.err


def test_arena_shows_its_standings_live_and_the_table_at_the_end() -> None:
    argv = [*CARDHALL, "arena", "--game", "soldiers_bluff", "--bots", "rule,random",
            "--games", "4", "--concurrency", "2"]
    shown = run(argv)
    assert shown.status == 0, shown.err
    assert "arena soldiers_bluff" in shown.err and "4/4" in shown.err
    assert "mean return [95% CI]" in shown.err and "win rate [95% CI]" in shown.err
    assert shown.out.startswith("soldiers_bluff: 4 games")  # the final table, plain text
    assert "\x1b[" not in shown.out
    piped = run([*argv, "--json"], tty=False)
    assert piped.status == 0 and json.loads(piped.out)["games"] == 4
    assert "4/4" not in piped.err and "mean return" not in piped.err


def test_verify_of_a_directory_draws_a_bar(tmp_path: Path) -> None:
    for seed in range(3):
        (tmp_path / f"game{seed}.json").write_text(json.dumps(saved_game("soldiers_bluff", 3,
                                                                         seed)))
    shown = run([*CARDHALL, "verify", str(tmp_path)])
    assert shown.status == 0, shown.out + shown.err
    assert "verify" in shown.err and "3/3" in shown.err and "games/s" in shown.err
    assert shown.out.count("verified ") == 3
    piped = run([*CARDHALL, "verify", str(tmp_path)], tty=False)
    assert piped.status == 0 and piped.err == "" and piped.out == shown.out


def test_db_upgrade_draws_a_bar_over_the_migrations(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'a.db'}"
    shown = run([*CARDHALL, "db", "upgrade", "--url", url, "--json"])
    assert shown.status == 0, shown.out + shown.err
    applied = json.loads(shown.out)["applied"]
    assert applied[0] == "0001" and len(applied) >= 6
    assert "db upgrade" in shown.err and f"{len(applied)}/{len(applied)}" in shown.err
    assert "migrations/s" in shown.err
    url2 = f"sqlite+aiosqlite:///{tmp_path / 'b.db'}"
    piped = run([*CARDHALL, "db", "upgrade", "--url", url2, "--json"], tty=False)
    assert piped.status == 0 and json.loads(piped.out)["applied"] == applied
    assert "db upgrade" not in piped.err


def test_make_bench_draws_a_bar_over_its_parts_and_stdout_stays_json() -> None:
    argv = [sys.executable, str(ROOT / "bench" / "run.py"), "--quick", "--only", "engine"]
    shown = run(argv)
    assert shown.status == 0, shown.err
    assert set(json.loads(shown.out)) >= {"meta", "selfplay", "summary"}
    assert "bench" in shown.err and "1/1" in shown.err and "left" in shown.err
    assert "engine: self-play" in shown.err  # the notes print above the bar
    piped = run(argv, tty=False)
    assert piped.status == 0 and "selfplay" in json.loads(piped.out)
    assert "1/1" not in piped.err and "engine: self-play" in piped.err  # its notes stay
