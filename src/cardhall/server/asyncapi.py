"""The AsyncAPI 3.0 document of the WebSocket protocol, generated from the pydantic models.

:func:`document` builds it from :mod:`cardhall.protocol.messages`: one channel (``/ws``), one
message per wire ``type`` (a ``state``'s payload is a full state or a delta, one per game),
one ``receive`` operation per client message (what the server receives,
with the messages that answer it as its ``reply``) and one ``send`` operation per server
message. Payload schemas are the models' JSON Schemas under ``components/schemas``; error and
close codes ride along as the ``x-error-codes`` and ``x-close-codes`` extensions. The output is
deterministic: ``docs/asyncapi.json`` equals :func:`document_text` (a test checks it) and the
app serves the same document at ``GET /asyncapi.json``. ``python -m cardhall.server.asyncapi``
prints it.
"""

from __future__ import annotations

import inspect
import json
import re
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from ..protocol import messages as p

ASYNCAPI_VERSION = "3.0.0"
CHANNEL = "ws"

CLIENT_MODELS: tuple[type[BaseModel], ...] = (p.Hello, p.Join, p.Act, p.Leave, p.Ping, p.Resync,
                                               p.Chat, p.SitOut, p.Rematch,
                                               p.WatchTournament)
SERVER_MODELS: tuple[type[BaseModel], ...] = (
    p.Welcome, p.Joined, p.State, p.Accepted, p.Error, p.GameOver, p.Left,
    p.TableClosed, p.Pong, p.Presence, p.ChatOut, p.ChatRemoved, p.RematchReady, p.RematchOffer,
    p.HandLog, p.TournamentUpdate,
)
REPLIES: dict[str, tuple[str, ...]] = {
    "hello": ("welcome", "error"),
    "join": ("joined", "state", "hand_log", "error"),
    "act": ("accepted", "state", "game_over", "error"),
    "leave": ("left", "error"),
    "ping": ("pong",),
    "resync": ("state", "error"),
    "chat": ("chat", "error"),
    "sit_out": ("state", "error"),
    "rematch": ("rematch_ready", "joined", "state", "error"),
    "watch_tournament": ("tournament", "error"),
}
"""Client message type -> the server messages that may answer it (``docs/protocol.md``)."""

DESCRIPTION = (
    "JSON text frames, one message per frame, each an object with a `type`. Authenticate with "
    "`hello` (a player or bot token from `POST /api/players`), `join` a table (seat or "
    "spectate), answer each `state` whose `legal_actions` is non-empty with `act` carrying "
    "the state's `version` and a fresh `action_id`. A `state` is full (`full: true`: on join, "
    "resume, resync) or a delta (`full: false`) on top of the state of version "
    "`base_version`; on a gap, send `resync`. Every server message about a table carries "
    "`table_id` and `version`. Errors are `error` messages with the stable codes listed in "
    "`x-error-codes`; close codes are in `x-close-codes`. Guides: docs/protocol.md and "
    "docs/bots.md."
)


def _message_type(model: type[BaseModel]) -> str:
    """The AsyncAPI message name: the ``Literal`` value of the model's ``type`` field, e.g.
    ``"hello"`` (the wire ``type``)."""
    args: tuple[Any, ...] = getattr(model.model_fields["type"].annotation, "__args__", ())
    return str(args[0])


def _key(model: type[BaseModel]) -> str:
    """The model's key under the channel's ``messages``: its wire ``type``, or for a server
    message whose ``type`` a client message has too (``chat``) the class name in snake case
    (``chat_out``), so that neither hides the other."""
    kind = _message_type(model)
    if model in SERVER_MODELS and kind in {_message_type(c) for c in CLIENT_MODELS}:
        return re.sub(r"(?<!^)(?=[A-Z])", "_", model.__name__).lower()
    return kind


def _markdown(text: str) -> str:
    """A docstring's reStructuredText made Markdown: ````x```` and ``:func:`~.x``` become
    ```x```."""
    text = re.sub(r":\w+:`~?\.?([^`]+)`", r"`\1`", text.replace("``", "`"))
    return " ".join(text.split())


def _summary(model: type[BaseModel]) -> str:
    """The first paragraph of the model's own docstring (a test refuses pydantic's
    ``BaseModel`` boilerplate and empty summaries)."""
    if model is p.State:
        return STATE_SUMMARY
    return _markdown((inspect.getdoc(model) or "").split("\n\n")[0])


STATE_SUMMARY = (
    "The table's state for one recipient, `type` `state`: a full snapshot (`full: true`; on "
    "join, resume, resync) or a delta (`full: false`) applied on top of the state of version "
    "`base_version`. The payload is one of the per-game models (`game` tells).")
"""The summary of the one ``state`` message, whose payload is a full state or a delta."""
STATE_FORMS: dict[str, dict[str, type[BaseModel]]] = {
    "TypedStateFull": p.TYPED_STATES, "TypedStateDelta": p.TYPED_DELTAS,
}
"""The two forms of a ``state`` (``full`` tells), each a schema with one model per game
(``game`` tells); the names are the JSON Schema's (``docs/protocol.schema.json``)."""


def _schemas() -> dict[str, Any]:
    models = [m for m in (*CLIENT_MODELS, *SERVER_MODELS) if m is not p.State]
    models += [m for per_game in STATE_FORMS.values() for m in per_game.values()]
    pairs = [(m, "validation") for m in models]
    _, top = models_json_schema(pairs, ref_template="#/components/schemas/{model}")  # type: ignore[arg-type]
    defs = top.get("$defs", {})
    for name, per_game in STATE_FORMS.items():
        defs[name] = {"oneOf": [{"$ref": f"#/components/schemas/{m.__name__}"}
                                for m in per_game.values()], "discriminator": "game"}
    return _asyncapi_discriminators(dict(sorted(defs.items())))


def _asyncapi_discriminators(node: Any) -> Any:
    """``node`` with each OpenAPI-style ``discriminator`` object pydantic writes
    (``{"propertyName": ..., "mapping": ...}``) replaced by the property name, the form an
    AsyncAPI Schema Object takes (the ``const`` of each branch still tells them apart)."""
    if isinstance(node, list):
        return [_asyncapi_discriminators(v) for v in node]
    if not isinstance(node, dict):
        return node
    out = {k: _asyncapi_discriminators(v) for k, v in node.items()}
    if isinstance(out.get("discriminator"), dict):
        out["discriminator"] = out["discriminator"]["propertyName"]
    return out


def _message(model: type[BaseModel]) -> dict[str, Any]:
    kind = _message_type(model)
    out = {
        "name": kind,
        "title": kind,
        "summary": _summary(model),
        "contentType": "application/json",
        "payload": _payload(model),
    }
    if model is p.State:
        out["description"] = "\n\n".join(
            _markdown((inspect.getdoc(m) or "").split("\n\n")[0]) for m in (p.State, p.StateDelta))
    return out


def _payload(model: type[BaseModel]) -> dict[str, Any]:
    """A ``$ref`` to the model's schema; for ``state`` either form (``full`` tells)."""
    if model is not p.State:
        return {"$ref": f"#/components/schemas/{model.__name__}"}
    return {"oneOf": [{"$ref": f"#/components/schemas/{name}"} for name in STATE_FORMS]}


SERVER_KEYS: dict[str, str] = {_message_type(m): _key(m) for m in SERVER_MODELS}
"""A server message's wire ``type`` -> its key under the channel's ``messages``."""


def _ref(kind: str) -> dict[str, str]:
    return {"$ref": f"#/channels/{CHANNEL}/messages/{kind}"}


def _operations() -> dict[str, Any]:
    ops: dict[str, Any] = {}
    channel = {"$ref": f"#/channels/{CHANNEL}"}
    for m in CLIENT_MODELS:
        kind = _message_type(m)
        ops[f"receive_{kind}"] = {
            "action": "receive", "channel": channel, "summary": _summary(m),
            "messages": [_ref(kind)],
            "reply": {"channel": channel, "messages": [_ref(SERVER_KEYS[r]) for r in REPLIES[kind]]},
        }
    for m in SERVER_MODELS:
        kind = _key(m)
        ops[f"send_{kind}"] = {"action": "send", "channel": channel, "summary": _summary(m),
                               "messages": [_ref(kind)]}
    return ops


def document() -> dict[str, Any]:
    """The AsyncAPI 3.0.0 document (a JSON object; deterministic for a given protocol)."""
    models = (*CLIENT_MODELS, *SERVER_MODELS)
    return {
        "asyncapi": ASYNCAPI_VERSION,
        "info": {"title": "cardhall WebSocket protocol",
                 "version": f"{p.PROTOCOL_VERSION}.0.0",
                 "description": DESCRIPTION},
        "defaultContentType": "application/json",
        "servers": {"local": {"host": "127.0.0.1:8000", "protocol": "ws",
                              "pathname": "/ws",
                              "description": "`cardhall serve` with its default settings"}},
        "channels": {CHANNEL: {
            "address": "/ws",
            "title": "The one WebSocket endpoint",
            "servers": [{"$ref": "#/servers/local"}],
            "messages": {_key(m): {"$ref": f"#/components/messages/{m.__name__}"}
                         for m in models},
        }},
        "operations": _operations(),
        "components": {
            "schemas": _schemas(),
            "messages": {m.__name__: _message(m) for m in models},
        },
        "x-error-codes": p.all_error_codes(),
        "x-table-closed-reasons": p.TABLE_CLOSED_REASONS,
        "x-close-codes": {str(k): v for k, v in sorted(p.CLOSE_CODES.items())},
    }


def document_text() -> str:
    """:func:`document` as canonical JSON (sorted keys, two-space indent, final newline)."""
    return json.dumps(document(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


if __name__ == "__main__":  # pragma: no cover
    print(document_text(), end="")
