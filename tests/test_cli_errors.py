"""The ``cardhall`` command answers user mistakes with one-line errors, never a traceback."""

from __future__ import annotations

import json

import pytest

from cardhall.cli import main


@pytest.mark.parametrize(
    ("argv", "code"),
    [
        (["selfplay", "--game", "bazaar_blot", "--seats", "3", "--json"], "engine.invalid_config"),
        (["selfplay", "--game", "palace_poker", "--seats", "12", "--json"], "engine.invalid_config"),
        (["db", "upgrade", "--url", "nonsense://x", "--json"], "cli.db_error"),
        (["selfplay", "--game", "blot", "--json"], "engine.unknown_game"),
        (["arena", "--game", "blot", "--bots", "rule,rule", "--json"], "engine.unknown_game"),
    ],
)
def test_errors_are_one_json_object(argv: list[str], code: str, capsys: pytest.CaptureFixture[str]) -> None:
    status = main(argv)
    out = json.loads(capsys.readouterr().out)
    assert status != 0
    assert out["error"]["code"] == code
    assert "Traceback" not in out["error"]["message"]


@pytest.mark.parametrize(
    "argv",
    [
        ["selfplay", "--game", "bazaar_blot", "--games", "-1"],
        ["selfplay", "--game", "bazaar_blot", "--probe", "2"],
    ],
)
def test_bad_arguments_are_usage_errors(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    assert "error: argument" in capsys.readouterr().err


def test_seat_count_message_reads_naturally(capsys: pytest.CaptureFixture[str]) -> None:
    main(["selfplay", "--game", "bazaar_blot", "--seats", "3", "--json"])
    assert "needs exactly 4 seats, got 3" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "code"),
    [
        (["selfplay", "--game", "blot"], "engine.unknown_game"),
        (["db", "upgrade", "--url", "nonsense://x"], "cli.db_error"),
        (["replay", "/no/such/file.json"], "cli.bad_file"),
        (["verify", "/no/such/file.json"], "cli.bad_file"),
    ],
)
def test_without_json_an_error_is_one_readable_line_on_stderr(
        argv: list[str], code: str, capsys: pytest.CaptureFixture[str]) -> None:
    status = main(argv)
    out, err = capsys.readouterr()
    assert status != 0
    if argv[0] == "verify":  # an unreadable game is one of verify's result lines (stdout)
        assert out.startswith("unreadable ") and out.rstrip().endswith(f"[{code}]")
    else:
        assert out == ""
        assert err.count("\n") == 1 and err.startswith(f"cardhall {argv[0]}: error: ")
        assert err.rstrip().endswith(f"[{code}]") and not err.split("error: ")[1].startswith("{")
