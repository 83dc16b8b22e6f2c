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
        (["db", "upgrade", "--url", "nonsense://x"], "cli.db_error"),
        (["selfplay", "--game", "blot"], "engine.unknown_game"),
        (["arena", "--game", "blot", "--bots", "rule,rule"], "engine.unknown_game"),
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
