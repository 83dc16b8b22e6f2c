"""``cardhall verify`` over many games (``docs/fairness.md`` section 6): files, a directory of
saved games, NDJSON on standard input; one line per game and a summary, and the exit status of
the worst game (``0 < 3 < 2 < 1``: verified, a table copy, unreadable, a mismatch)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from cardhall.cli import main
from cardhall.engine import table_copy
from clikit import saved_game, tampered


def _write(path: Path, doc: Any) -> Path:
    path.write_text(json.dumps(doc))
    return path


def _stdin(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(text))


def test_a_directory_of_saved_games_gives_a_line_each_and_the_worst_status(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    games = tmp_path / "games"
    (games / "old").mkdir(parents=True)
    for seed in (1, 2):
        _write(games / f"g{seed}.json", saved_game("palace_poker", 4, seed))
    _write(games / "old" / "copy.json", table_copy(saved_game("soldiers_bluff", 3, 3)))
    (games / "notes.txt").write_text("not a game, not read")
    assert main(["verify", str(games)]) == 3  # a table copy is the worst so far
    lines = capsys.readouterr().out.splitlines()
    assert [ln.split()[0] for ln in lines[:3]] == ["verified", "verified", "table"]
    assert "palace_poker g1" in lines[0] and "g1.json" in lines[0]
    assert lines[3] == "3 games: 2 verified, 1 table copy, 0 unreadable, 0 mismatched; exit 3"
    (games / "broken.json").write_text("{not json")
    assert main(["verify", str(games)]) == 2
    assert "unreadable" in capsys.readouterr().out
    _write(games / "zz.json", tampered(saved_game("bazaar_blot", 4, 4)))
    assert main(["verify", str(games), "--json"]) == 1  # a mismatch outranks everything
    rows = [json.loads(ln) for ln in capsys.readouterr().out.splitlines()]
    assert [r["status"] for r in rows[:-1]] == [2, 0, 0, 3, 1]
    assert rows[-1] == {"summary": {"games": 5, "verified": 2, "table_copy": 1,
                                    "unreadable": 1, "mismatch": 1, "exit": 1}}
    assert rows[0]["error"]["code"] == "cli.bad_file"


def test_several_files_are_checked_in_the_order_given(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = _write(tmp_path / "a.json", saved_game("soldiers_bluff", 2, 5))
    b = _write(tmp_path / "b.json", tampered(saved_game("soldiers_bluff", 2, 6)))
    assert main(["verify", str(b), str(a)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("MISMATCH") and "history: " in out[0] and "commitment" in out[0]
    assert out[1].startswith("verified") and out[2].endswith("exit 1")


def test_ndjson_on_stdin_is_one_game_a_line(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    docs = [saved_game("bazaar_blot", 4, s) for s in (7, 8, 9)]
    _stdin(monkeypatch, "".join(json.dumps(d) + "\n" for d in docs) + "\n")
    assert main(["verify", "--json"]) == 0
    rows = [json.loads(ln) for ln in capsys.readouterr().out.splitlines()]
    assert [(r["source"], r["game_id"], r["verified"]) for r in rows[:-1]] == [
        ("-:1", "g7", True), ("-:2", "g8", True), ("-:3", "g9", True)]
    assert rows[-1]["summary"]["verified"] == 3
    _stdin(monkeypatch, "".join(json.dumps(d) for d in docs))  # `cat`: no newlines between
    assert main(["verify"]) == 0
    assert capsys.readouterr().out.count("verified ") == 3
    _stdin(monkeypatch, json.dumps(docs[0]) + "\n{oops\n")
    assert main(["verify", "-"]) == 2
    out = capsys.readouterr().out.splitlines()
    assert out[1].startswith("unreadable -:2: not JSON")


def test_an_export_line_without_url_says_what_is_missing(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    line = {"id": "abc", "game": "soldiers_bluff", "table_id": "t1", "outcome": {},
            "seats": [], "started_at": "2026-03-01T10:00:00Z", "ended_at": "2026-03-01T10:00:00Z"}
    _stdin(monkeypatch, json.dumps(line) + "\n" + json.dumps(line) + "\n")
    assert main(["verify", "--json"]) == 2
    rows = [json.loads(ln) for ln in capsys.readouterr().out.splitlines()]
    assert rows[0]["error"]["code"] == "cli.needs_url" and "--url" in rows[0]["error"]["message"]


def test_no_input_at_a_terminal_is_a_usage_error(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr("sys.stdin", Tty(""))
    assert main(["verify"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "[cli.no_input]" in captured.err
    assert main(["verify", "--json"]) == 2
    assert json.loads(capsys.readouterr().out)["error"]["code"] == "cli.no_input"


FAKE_VERIFIED = ("\r\x1b[2Kverified   bazaar_blot g1: 2 chance actions recomputed, commitment "
                 "and outcome hold\n1 games: 1 verified, 0 table copies, 0 unreadable, "
                 "0 mismatched; exit 0\x1b[8m\u202e")
"""An id that, printed as it is to a terminal, erases its own ``MISMATCH`` line (carriage
return, erase line), prints a verified one and a clean summary in its place, and hides the
real summary (SGR 8, concealed; a right-to-left override for good measure)."""


def test_a_game_s_own_text_cannot_rewrite_the_terminal(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A mismatched game whose id, game name or file name carries control characters is
    shown with them escaped: before, ``cardhall verify`` printed them raw, so a crafted
    NDJSON made a terminal show "verified" and "exit 0" for a mismatch."""
    doc = {**tampered(saved_game("bazaar_blot", 4, 1)), "id": FAKE_VERIFIED}
    _stdin(monkeypatch, json.dumps(doc) + "\n" + json.dumps({"game": "\x1b]0;x\x07"}) + "\n")
    assert main(["verify", "-"]) == 1
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert len(lines) == 3 and lines[0].startswith("MISMATCH   bazaar_blot ")
    assert lines[1].startswith("unreadable") and lines[2].endswith("exit 1")
    assert all(ch == "\n" or ch.isprintable() for ch in out), repr(out)
    assert "\\x1b[2K" in lines[0] and "\\r" in lines[0] and "\\u202e" in lines[0]
    assert "\\x1b]0;x\\x07" in lines[1]
    weird = tmp_path / "g\x1b[1A.json"
    _write(weird, tampered(saved_game("soldiers_bluff", 2, 2)))
    assert main(["verify", str(weird)]) == 1
    single = capsys.readouterr().out
    assert single.startswith("MISMATCH") and "g\\x1b[1A.json" in single and "\x1b" not in single


def test_line_numbers_of_a_long_ndjson_cost_no_quadratic_time(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Each document's line number was counted from the start of the text (quadratic: 80 000
    lines of ``{}`` took 5 s to split, a 3 MB file about 13 minutes); 200 000 now take well
    under a second, every one named by its own line."""
    import time

    from cardhall.cli.verify import _split

    text = "{}\n" * 200_000 + "\n\n[1]\n"
    began = time.perf_counter()
    items, single = _split(text, "big")
    assert time.perf_counter() - began < 2.0
    assert not single and len(items) == 200_001
    assert items[0].source == "big:1" and items[199_999].source == "big:200000"
    assert items[-1].source == "big:200003"
