"""Reading one client frame of the WebSocket (``docs/protocol.md``, "Rules of the road"): size,
JSON, a JSON object, the message model, in that order; each refusal a typed error
(:class:`Refusal`) and nothing else done. Pure: no socket, no state."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

import orjson
from pydantic import ValidationError

from ..protocol import messages as p
from ..protocol.errors import ErrorCode

LONG_NUMBER = re.compile(r"[0-9]{19}")
"""19 digits in a row: possibly an integer outside orjson's 64-bit range, which it would read
as a float (``2**70`` -> ``1.1805916207174113e+21``)."""

CLIENT_TYPES = frozenset(p.CLIENT.json_schema()["discriminator"]["mapping"])
"""Every client message ``type`` (from the protocol's union, so a new message is known here)."""


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a frame is not a client message: the ``error`` to answer with (``request``: the
    refused message's ``type``/``rid``/``action_id`` when its type is known)."""

    code: ErrorCode
    message: str
    request: p.RequestRef | None = None
    table_id: str | None = None


def loads(text: str) -> Any:
    """The JSON value of ``text``: orjson, or the standard library's parser when the text may
    hold an integer beyond 64 bits, so that such an integer stays an exact ``int`` and the
    error answering it names it as sent (never a float). Raises ``orjson.JSONDecodeError``
    (or ``ValueError`` from the fallback) for invalid JSON."""
    raw = orjson.loads(text)  # refuses NaN, Infinity and invalid text before any fallback
    if LONG_NUMBER.search(text) is None:
        return raw
    return json.loads(text)


def read_message(text: str, limit: int) -> Any:
    """The client message model of ``text`` (at most ``limit`` bytes of UTF-8), or a
    :class:`Refusal`: ``protocol.frame_too_large``, ``protocol.invalid_json``,
    ``protocol.invalid_message`` (not an object), or the model's code
    (:func:`~cardhall.protocol.messages.error_code_for`)."""
    if len(text) > limit or len(text.encode()) > limit:
        return Refusal("protocol.frame_too_large", f"frame of {len(text.encode())} bytes is "
                       f"larger than max_frame_bytes={limit}")
    try:
        raw = loads(text)
    except (orjson.JSONDecodeError, ValueError) as exc:
        return Refusal("protocol.invalid_json", f"invalid JSON: {exc}")
    if not isinstance(raw, dict):
        return Refusal("protocol.invalid_message",
                       f"expected a JSON object, got {type(raw).__name__}")
    try:
        return p.CLIENT.validate_python(raw)
    except ValidationError as exc:
        return Refusal(p.error_code_for(exc), p.describe(exc), _ref_of(raw),
                       _str(raw.get("table_id")))


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) and len(value) <= 64 else None


def _ref_of(raw: dict[str, Any]) -> p.RequestRef | None:
    """The ``request`` of an error answering an invalid message whose ``type`` is known (its
    ``rid``/``action_id`` when they are short strings); ``None`` for an unknown type."""
    kind = raw.get("type")
    if kind not in CLIENT_TYPES:
        return None
    return p.RequestRef(type=kind, rid=_str(raw.get("rid")), action_id=_str(raw.get("action_id")))
