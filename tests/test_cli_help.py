"""``cardhall --version`` names the package and protocol versions; the help texts are plain
text (no reStructuredText quotes) and every sub-command's ``--help`` ends with an example."""

from __future__ import annotations

import pytest

from cardhall import __version__
from cardhall.cli import main
from cardhall.protocol.messages import PROTOCOL_VERSION

COMMANDS = [["replay"], ["verify"], ["selfplay"], ["serve"], ["arena"], ["db"],
            ["db", "upgrade"]]


def _exit(argv: list[str]) -> int:
    with pytest.raises(SystemExit) as done:
        main(argv)
    return int(done.value.code or 0)


def test_version_prints_the_package_and_protocol_versions(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert _exit(["--version"]) == 0
    assert capsys.readouterr().out == f"cardhall {__version__} (protocol {PROTOCOL_VERSION})\n"


def test_the_top_help_is_plain_text_with_examples(capsys: pytest.CaptureFixture[str]) -> None:
    assert _exit(["--help"]) == 0
    text = capsys.readouterr().out
    assert "``" not in text and ":mod:" not in text and ":func:" not in text
    assert "cardhall selfplay --game" in text and "--version" in text


@pytest.mark.parametrize("argv", COMMANDS, ids=" ".join)
def test_every_subcommand_help_gives_an_example(
        argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert _exit([*argv, "--help"]) == 0
    text = capsys.readouterr().out
    assert "``" not in text
    assert "example:" in text or "examples:" in text
    example = text.split("example", 1)[1]
    assert f"cardhall {' '.join(argv)}" in example
