"""The bot author's contract, documents side: the schema's enums, ``docs/protocol.md`` and
``docs/bots.md`` agree with the code (error codes with the engine's, ``table_closed``
reasons, close codes), and ``docs/bots.md`` links only files a clone has."""

from __future__ import annotations

import re
from pathlib import Path

from cardhall.engine.errors import ERROR_CODES as ENGINE_CODES
from cardhall.protocol import messages as p
from cardhall.protocol.errors import ERROR_CODES

DOCS = Path(__file__).resolve().parents[2] / "docs"


def _section(text: str, title: str) -> str:
    return text.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]


def test_error_codes_are_an_enum_with_the_engine_codes() -> None:
    server = p.schema()["server"]["$defs"]
    enum = set(server["Error"]["properties"]["code"]["enum"])
    assert enum == set(ERROR_CODES) | set(ENGINE_CODES)
    assert set(p.schema()["error_codes"]) == enum


def test_table_closed_reasons_are_an_enum() -> None:
    server = p.schema()["server"]["$defs"]
    assert server["TableClosed"]["properties"]["reason"]["enum"] == list(p.TABLE_CLOSED_REASONS)
    assert "abandoned" in p.TABLE_CLOSED_REASONS
    row = next(line for line in (DOCS / "protocol.md").read_text().splitlines()
               if line.startswith("| `table_closed` |"))
    assert set(re.findall(r"`(\w+)`", row)) - {"table_closed", "table_id", "version", "reason",
                                              "abandon_after_seconds"} \
        == set(p.TABLE_CLOSED_REASONS)


def test_protocol_md_tables_match_the_code() -> None:
    text = (DOCS / "protocol.md").read_text()
    close = _section(text, "Close codes")
    assert {int(c) for c in re.findall(r"^\| (\d{4}) \|", close, re.M)} == set(p.CLOSE_CODES)
    assert 1012 in p.CLOSE_CODES and 1001 not in p.CLOSE_CODES
    errors = _section(text, "Error codes")
    documented = set(re.findall(r"`((?:protocol|auth|table|server|engine|quota|chat|chips|rematch|tournament)\.\w+)`", errors))
    assert documented == set(p.all_error_codes())


def test_bots_md_links_what_a_clone_has() -> None:
    text = (DOCS / "bots.md").read_text()
    assert "../shared/" not in text
    for game in ("soldiers_bluff", "palace_poker", "bazaar_blot"):
        assert f"(games/{game}.md)" in text
    for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", text):
        assert (DOCS / target).exists(), target
    close = _section(text, "10. Rate limits and close codes")
    assert {int(c) for c in re.findall(r"^\| (\d{4})", close, re.M)} == set(p.CLOSE_CODES)
