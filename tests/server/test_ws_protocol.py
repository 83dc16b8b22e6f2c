"""The wire protocol models: strict parsing, stable error mapping, the committed JSON Schema."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from cardhall.protocol import messages as p

ROOT = Path(__file__).resolve().parents[2]


def test_committed_schema_equals_the_generated_one() -> None:
    committed = (ROOT / "docs" / "protocol.schema.json").read_text(encoding="utf-8")
    hint = "regenerate with `make schemas` (docs/protocol.schema.json and docs/asyncapi.json)"
    assert committed == p.schema_text(), hint


def test_schema_names_every_message_type() -> None:
    schema = p.schema()
    client = set(schema["client"]["discriminator"]["mapping"])
    server = set(schema["server"]["discriminator"]["mapping"])
    assert client == {"hello", "join", "act", "leave", "ping", "resync", "chat", "sit_out", "rematch",
                      "watch_tournament"}
    assert {"welcome", "state", "error", "table_closed", "pong", "game_over",
            "joined", "accepted", "left", "presence", "chat", "chat_removed",
            "rematch_ready", "rematch_offer", "hand_log", "tournament"} == server


@pytest.mark.parametrize(("raw", "code"), [
    ({"type": "nope"}, "protocol.unknown_type"),
    ({}, "protocol.unknown_type"),
    ({"type": "leave", "table_id": "t", "extra": 1}, "protocol.extra_field"),
    ({"type": "act", "table_id": "t", "version": "3", "action_id": "a", "action": {}},
     "protocol.invalid_field"),
    ({"type": "act", "table_id": "t", "version": -1, "action_id": "a", "action": {}},
     "protocol.invalid_field"),
    ({"type": "join", "table_id": "", "seat": 0}, "protocol.invalid_field"),
    ({"type": "hello"}, "protocol.invalid_field"),
])
def test_bad_client_messages_map_to_stable_codes(raw: dict[str, object], code: str) -> None:
    with pytest.raises(ValidationError) as info:
        p.CLIENT.validate_python(raw)
    assert p.error_code_for(info.value) == code
    assert code in p.ERROR_CODES


def test_client_messages_round_trip() -> None:
    msgs = [
        {"type": "hello", "token": "t"},
        {"type": "join", "table_id": "t", "seat": 2},
        {"type": "join", "table_id": "t", "spectate": True},
        {"type": "act", "table_id": "t", "version": 4, "action_id": "a1",
         "action": {"type": "bid", "level": 9, "trump": "h"}},
        {"type": "leave", "table_id": "t"},
        {"type": "ping", "nonce": 7},
        {"type": "resync", "table_id": "t"},
    ]
    for raw in msgs:
        parsed = p.CLIENT.validate_python(raw)
        assert parsed.model_dump(exclude_defaults=True) == {k: v for k, v in raw.items()
                                                           if k != "type"} | {"type": raw["type"]}


def test_error_code_literals_match_their_tables() -> None:
    # The Literal types make a mistyped code a mypy error; the tables document each code.
    from typing import get_args

    from cardhall.engine.errors import ERROR_CODES as ENGINE_CODES
    from cardhall.engine.errors import EngineErrorCode
    from cardhall.protocol.errors import ErrorCode, ProtocolErrorCode
    from cardhall.server.errors import ERROR_STATUS, RestErrorCode
    from cardhall.tables.errors import TableErrorCode

    assert set(get_args(ProtocolErrorCode)) == set(p.ERROR_CODES)
    assert set(get_args(EngineErrorCode)) == set(ENGINE_CODES)
    assert set(get_args(RestErrorCode)) == set(ERROR_STATUS)
    assert set(get_args(TableErrorCode)) <= set(ERROR_STATUS)
    flat = set(get_args(ErrorCode))  # nested Literals flatten
    assert flat == set(p.ERROR_CODES) | set(ENGINE_CODES)
    assert "table.closed" not in flat  # no message ever carried it
    with pytest.raises(ValidationError):
        p.Error(code="table.clsoed", message="typo")  # type: ignore[arg-type]
