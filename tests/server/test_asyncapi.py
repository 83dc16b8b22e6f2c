"""The AsyncAPI 3.0 document: deterministic, committed, served, and valid against the official
AsyncAPI 3.0.0 JSON Schema (vendored in ``tests/server/data``; see its README)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from cardhall.protocol import messages as p
from cardhall.server import asyncapi

jsonschema = pytest.importorskip("jsonschema")

ROOT = Path(__file__).resolve().parents[2]
SPEC_SCHEMA = Path(__file__).with_name("data") / "asyncapi-3.0.0.schema.json"


def _errors(doc: dict[str, Any]) -> list[str]:
    schema = json.loads(SPEC_SCHEMA.read_text(encoding="utf-8"))
    validator = jsonschema.Draft7Validator(schema)
    return [f"{list(e.path)}: {e.message[:200]}" for e in validator.iter_errors(doc)]


def test_committed_asyncapi_equals_the_generated_one() -> None:
    committed = (ROOT / "docs" / "asyncapi.json").read_text(encoding="utf-8")
    hint = "regenerate with `make schemas` (docs/protocol.schema.json and docs/asyncapi.json)"
    assert committed == asyncapi.document_text(), hint
    assert asyncapi.document_text() == asyncapi.document_text()


def test_document_validates_against_the_asyncapi_3_schema() -> None:
    assert _errors(asyncapi.document()) == []


def test_the_schema_check_bites() -> None:
    doc = copy.deepcopy(asyncapi.document())
    doc["operations"]["receive_act"]["action"] = "publish"  # an AsyncAPI 2 verb
    del doc["info"]["version"]
    assert len(_errors(doc)) >= 2


def test_every_message_type_has_a_message_and_an_operation() -> None:
    doc = asyncapi.document()
    client = {m["properties"]["type"]["const"] for m in
              p.CLIENT.json_schema()["$defs"].values() if "type" in m.get("properties", {})}
    messages = set(doc["channels"]["ws"]["messages"])
    assert client <= messages and {"welcome", "state", "error", "game_over"} <= messages
    actions = {(o["action"], o["messages"][0]["$ref"].rsplit("/", 1)[1])
               for o in doc["operations"].values()}
    assert ("receive", "act") in actions and ("send", "state") in actions
    assert doc["x-error-codes"] == p.all_error_codes()  # the engine.* codes included
    assert set(p.ERROR_CODES) < set(doc["x-error-codes"])


async def test_app_serves_asyncapi_next_to_openapi(client: httpx.AsyncClient) -> None:
    r = await client.get("/asyncapi.json")
    assert r.status_code == 200 and r.json() == asyncapi.document()
    assert (await client.get("/openapi.json")).status_code == 200
