"""Standard ``discriminator`` objects in a generated JSON Schema.

pydantic writes the OpenAPI-style ``{"propertyName": ..., "mapping": {value: ...}}`` beside each
discriminated union's ``oneOf``; for a union nested in another (a server message's ``type``
``state`` is itself a union on ``full``, each of those a union on ``game``) it inlines the inner
union as the mapping's value. OpenAPI 3.1 (and the AsyncAPI Schema Object built on it) require a
mapping's values to be ``$ref`` strings, so :func:`standard_discriminators` moves each inlined
union into ``$defs`` and points both the mapping and the ``oneOf`` at it. Validation keywords
are unchanged: a document validates the same instances before and after.
"""

from __future__ import annotations

import json
from typing import Any

UNION_NAMES: dict[tuple[str, ...], str] = {
    ("state",): "TypedState",
    ("state", "true"): "TypedStateFull",
    ("state", "false"): "TypedStateDelta",
}
"""The ``$defs`` name of a hoisted union by its path of mapping keys (``type`` ``state``, then
``full`` ``true``/``false``); any other path gets its keys joined in title case + ``Union``."""


def _name(path: tuple[str, ...]) -> str:
    return UNION_NAMES.get(path) or "".join(k.title().replace("_", "") for k in path) + "Union"


def _canon(node: Any) -> str:
    return json.dumps(node, sort_keys=True)


def _hoist(node: Any, path: tuple[str, ...], defs: dict[str, Any]) -> Any:
    """``node`` with every non-string mapping value under it moved into ``defs``."""
    if isinstance(node, list):
        return [_hoist(v, path, defs) for v in node]
    if not isinstance(node, dict):
        return node
    disc = node.get("discriminator")
    if isinstance(disc, dict) and isinstance(disc.get("mapping"), dict):
        mapping, moved = {}, {}
        for key, value in disc["mapping"].items():
            if isinstance(value, str):
                mapping[key] = value
                continue
            name = _name((*path, key))
            if name in defs:
                raise ValueError(f"cannot hoist the union at {(*path, key)}: $defs has {name}")
            defs[name] = _hoist(value, (*path, key), defs)
            mapping[key] = moved[_canon(value)] = f"#/$defs/{name}"
        one_of = [{"$ref": moved[_canon(v)]} if _canon(v) in moved else v
                  for v in node.get("oneOf", [])]
        node = {**node, "discriminator": {**disc, "mapping": mapping}, "oneOf": one_of}
    return {k: _hoist(v, path, defs) for k, v in node.items()}


def standard_discriminators(schema: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``schema`` (a JSON Schema document with ``$defs``, e.g. a ``TypeAdapter``'s
    ``json_schema()``) whose ``discriminator.mapping`` values are all ``#/$defs/...`` strings.

    Raises:
        ValueError: a hoisted union's name is already a ``$defs`` entry.
    """
    defs: dict[str, Any] = {}
    body = _hoist({k: v for k, v in schema.items() if k != "$defs"}, (), defs)
    for name, sub in schema.get("$defs", {}).items():
        if name in defs:
            raise ValueError(f"$defs has {name}, the name of a hoisted union")
        defs[name] = _hoist(sub, (), defs)
    return {**body, "$defs": dict(sorted(defs.items()))} if defs else body
