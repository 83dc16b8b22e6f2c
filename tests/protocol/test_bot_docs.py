"""The bot author's documents are true to the code (issue 25, "The bot author's documents"):
the JSON Schema is standard (a ``discriminator`` mapping's values are ``$ref`` strings) and
validates real messages with ``jsonschema``; every AsyncAPI message has a summary of its own;
``state`` is one message (full or delta) as on the wire; and ``docs/bots.md``,
``docs/protocol.md`` and ``docs/games/*.md`` say what the models and the server do."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from cardhall.engine import get_game
from cardhall.protocol import messages as p
from cardhall.protocol.games import GAME_PAYLOADS
from cardhall.server import asyncapi
from cardhall.tables.chat import CHAT_BURST, CHAT_WINDOW_SECONDS

jsonschema = pytest.importorskip("jsonschema")

DOCS = Path(__file__).resolve().parents[2] / "docs"
BOILERPLATE = " ".join((BaseModel.__doc__ or "").split("\n\n")[0].split())


def _walk(node: Any) -> Any:
    if isinstance(node, dict):
        yield node
        for v in node.values():
            yield from _walk(v)
    elif isinstance(node, list):
        for v in node:
            yield from _walk(v)


@pytest.mark.parametrize("side", ["client", "server"])
def test_the_schema_is_standard_json_schema(side: str) -> None:
    doc = p.schema()[side]
    jsonschema.Draft202012Validator.check_schema(doc)
    discriminators = [n["discriminator"] for n in _walk(doc) if "discriminator" in n]
    assert discriminators
    for d in discriminators:
        for value in d["mapping"].values():
            assert isinstance(value, str), f"a mapping value is not a $ref string: {value}"
            assert value.removeprefix("#/$defs/") in doc["$defs"], value


def test_the_schema_validates_what_the_models_accept_and_refuses_the_rest() -> None:
    server = jsonschema.Draft202012Validator(p.schema()["server"])
    base = {"type": "state", "full": False, "table_id": "t", "version": 3, "base_version": 2,
            "status": "playing", "hand": 1, "seat": 0, "game_seat": 0, "to_act": [0],
            "timer_seat": 0, "deadline_ms": 1, "actor": 1, "timeout": False,
            "legal_actions": [{"type": "bet", "min_to": 1, "max_to": 3}],
            "events": [{"kind": "pass", "seat": 1, "stake": 0, "pot": 2, "folded": False}],
            "view_patch": {"to_act": 0}, "game": "soldiers_bluff"}
    welcome = p.Welcome(player_id="a", name="ana", max_frame_bytes=1, rate_per_second=1.0)
    for good in (base, welcome.model_dump(mode="json"), p.Pong(nonce=1).model_dump()):
        p.SERVER_TYPED.validate_python(good)
        assert list(server.iter_errors(good)) == []
    for bad in ({**base, "game": "bazaar_blot"}, {**base, "full": True}, {"type": "nope"}):
        with pytest.raises(ValidationError):
            p.SERVER_TYPED.validate_python(bad)
        assert list(server.iter_errors(bad)) != []


def test_every_asyncapi_message_has_a_summary_of_its_own() -> None:
    doc = asyncapi.document()
    summaries = {k: m.get("summary", "") for k, m in doc["components"]["messages"].items()}
    summaries |= {k: o.get("summary", "") for k, o in doc["operations"].items()}
    assert "Usage Documentation" in BOILERPLATE  # what pydantic's BaseModel says
    for name, text in summaries.items():
        assert text.strip(), f"{name}: empty summary"
        assert BOILERPLATE not in text and "A base class for creating Pydantic models" \
            not in text and "Usage Documentation" not in text, f"{name}: pydantic's boilerplate"
        assert "``" not in text and ":func:" not in text, f"{name}: reStructuredText"


def test_state_is_one_asyncapi_message_full_or_delta_as_on_the_wire() -> None:
    doc = asyncapi.document()
    channel = doc["channels"]["ws"]["messages"]
    assert "state_delta" not in channel and "state_delta" not in str(doc["operations"])
    state = doc["components"]["messages"]["State"]
    assert state["name"] == "state"
    schemas = doc["components"]["schemas"]
    forms = [schemas[r["$ref"].rsplit("/", 1)[1]] for r in state["payload"]["oneOf"]]
    models = {r["$ref"].rsplit("/", 1)[1] for f in forms for r in f["oneOf"]}
    assert models == {m.__name__ for m in (*p.TYPED_STATES.values(), *p.TYPED_DELTAS.values())}
    for name in models:  # every form says type: state on the wire
        assert schemas[name]["properties"]["type"]["const"] == "state"
    # the client's `chat` and the server's `chat` line both have a message
    assert {"chat", "chat_out"} <= set(channel)
    replies = doc["operations"]["receive_chat"]["reply"]["messages"]
    assert {"$ref": "#/channels/ws/messages/chat_out"} in replies


def test_bots_md_says_outcome_is_a_dict_and_points_at_the_game_docs() -> None:
    text = (DOCS / "bots.md").read_text()
    assert p.GameOver.model_fields["outcome"].annotation == dict[str, Any]
    sdk = text.split("## 12. ", 1)[1].split("\n## ", 1)[0]
    assert ".outcome)" not in sdk and '.outcome["returns"]' in sdk
    table = text.split("## 2. ", 1)[1].split("\n## ", 1)[0]
    assert "config.py" not in table
    for game in GAME_PAYLOADS:
        assert f"(games/{game}.md" in table


def test_the_chat_limit_is_documented_per_player() -> None:
    for name in ("protocol.md", "bots.md"):
        text = (DOCS / name).read_text()
        lines = [ln for ln in text.splitlines() if "chat.flood" in ln]
        assert lines or name == "bots.md", name
        assert not [ln for ln in lines if "per connection" in ln or "this connection" in ln], name
    assert "per player" in " ".join(ln for ln in (DOCS / "protocol.md").read_text().splitlines()
                                    if "chat.flood" in ln)
    said = f"{CHAT_BURST} lines per {CHAT_WINDOW_SECONDS:g} s per player"
    assert said in " ".join((DOCS / "protocol.md").read_text().split())
    assert f"than {CHAT_BURST} lines in {CHAT_WINDOW_SECONDS:g} s from the player" in \
        " ".join((p.Chat.__doc__ or "").split())


def _join_error(frame: dict[str, Any]) -> str:
    with pytest.raises(ValidationError) as exc:
        p.CLIENT.validate_python(frame)
    return p.error_code_for(exc.value)


def test_a_seat_outside_every_table_is_bad_seat_and_its_limit_documented() -> None:
    join = {"type": "join", "table_id": "t"}
    for seat in (64, 99, -1, 10**9):
        assert _join_error({**join, "seat": seat}) == "table.bad_seat", seat
    for bad in ("1", 1.5, True, [1]):
        assert _join_error({**join, "seat": bad}) == "protocol.invalid_field", bad
    assert _join_error({**join, "seat": 99, "zzz": 1}) == "protocol.extra_field"
    assert p.CLIENT.json_schema()["$defs"]["Join"]["properties"]["seat"]["anyOf"][0][
        "maximum"] == 63
    row = next(ln for ln in (DOCS / "protocol.md").read_text().splitlines()
               if ln.startswith("| `join` |"))
    assert "0-63" in row and "table.bad_seat" in row


def test_built_in_bot_ids_are_documented_as_they_are_sent() -> None:
    text = (DOCS / "protocol.md").read_text()
    assert "shared identity (`rule-bot`, `random-bot`" not in text
    assert re.search(r"the id of the player named `rule-bot`", text)


@pytest.mark.parametrize("game", sorted(GAME_PAYLOADS))
def test_every_view_key_is_in_the_game_doc(game: str) -> None:
    view = GAME_PAYLOADS[game][0]
    section = (DOCS / "games" / f"{game}.md").read_text().split("## View", 1)[1]
    section = section.split("\n## ", 1)[0]
    missing = [k for k in view.model_fields if f'"{k}"' not in section
               and f"`{k}`" not in section]
    assert missing == [], f"docs/games/{game}.md, View, omits {missing}"
    assert get_game(game) is not None


def test_the_asyncapi_state_payload_takes_both_forms_of_a_real_state() -> None:
    doc = asyncapi.document()
    payload = doc["components"]["messages"]["State"]["payload"]
    root = {**payload, "components": {"schemas": {
        k: {kk: vv for kk, vv in v.items() if kk != "discriminator"}  # AsyncAPI's string form
        for k, v in doc["components"]["schemas"].items()}}}
    check = jsonschema.Draft202012Validator(root)
    delta = {"type": "state", "full": False, "table_id": "t", "version": 3, "base_version": 2,
             "status": "playing", "hand": 1, "seat": 0, "game_seat": 0, "to_act": [0],
             "timer_seat": 0, "deadline_ms": 1, "actor": 1, "timeout": False,
             "legal_actions": [{"type": "bet", "min_to": 1, "max_to": 3}],
             "events": [{"kind": "pass", "seat": 1, "stake": 0, "pot": 2, "folded": False}],
             "view_patch": {"to_act": 0}, "game": "soldiers_bluff"}
    full = {k: v for k, v in delta.items() if k not in ("base_version", "view_patch")} | {
        "full": True, "seat_map": [0, 1], "seats": [], "view": None, "turn_timeout_ms": 1000,
        "seed_commitment": None, "game_id": None}
    for good in (delta, full):
        p.SERVER_TYPED.validate_python(good)
        assert [e.message for e in check.iter_errors(good)] == []
    for bad in ({**delta, "game": "palace_poker"}, {**full, "base_version": 2}):
        assert list(check.iter_errors(bad)) != []
