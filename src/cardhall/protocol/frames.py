"""Outgoing frames and the state-delta rules of protocol 2 (``docs/protocol.md``, "State").

The server sends each recipient one ``state`` frame per applied step: a *delta* against the
state that recipient holds, or a *full* state (on join, resume, resync, or when the recipient's
base is unknown). This module holds both sides of that contract so they cannot drift:

* :class:`Frame`: one outgoing message as plain JSON data, serialised with orjson once (when
  made) however many recipients share it (pydantic models stay for what clients send and for the
  schemas; building every outgoing message through them cost more than the games).
* :func:`diff_view`: the server's top-level diff of two views (``view_patch``/``view_removed``).
* :func:`apply_state`: the client rule (SDK, built-in bots, tests; the browser has the same
  rule in ``static/js/state.js``): a delta applies only on top of the state whose ``version``
  is its ``base_version``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import orjson

DELTA_ONLY = frozenset({"base_version", "view_patch", "view_removed", "events", "actor",
                        "timeout"})
"""Fields of a delta that describe the step, not the state (never copied into the state)."""

STEP_FIELDS = ("events", "actor", "timeout")
"""The step a frame reports (any ``state`` frame may carry them)."""


class Frame:
    """One outgoing server message, encoded once when it is made.

    Args:
        data: the message, a JSON object whose values are JSON values or
            :class:`orjson.Fragment` (already-encoded JSON shared between frames).

    What a frame says is fixed when it is made (``data`` may reference live game data that
    changes before a socket's writer sends it), and recipients that get the same frame share
    its bytes. A frame keeps only its ``type`` and its bytes: frames wait in outbound queues,
    and bytes are invisible to the cyclic garbage collector where a dict of lists is not
    (``docs/performance.md``).
    """

    __slots__ = ("_raw", "type")

    def __init__(self, data: dict[str, Any]) -> None:
        self.type: str = data["type"]
        """The message ``type`` (``state``, ``accepted``, ...)."""
        self._raw = orjson.dumps(data)

    @property
    def data(self) -> dict[str, Any]:
        """The message as plain JSON data, decoded afresh (what a client would parse)."""
        return orjson.loads(self._raw)

    def text(self) -> str:
        """The JSON text of the message (what a WebSocket text frame carries)."""
        return self._raw.decode()


class RawFrame(Frame):
    """A frame that arrives already encoded (cluster mode: made and redacted by the table's
    owner on another node, ``docs/scaling.md``); ``text`` is sent as it is."""

    __slots__ = ()

    def __init__(self, text: str, kind: str = "") -> None:
        self.type = kind
        self._raw = text.encode()

    def __repr__(self) -> str:
        return f"Frame({self.type})"


_MISSING = object()


def diff_view(old: Mapping[str, Any] | None,
              new: Mapping[str, Any] | None) -> tuple[dict[str, Any], list[str]]:
    """The top-level difference ``old -> new`` of two views: ``(patch, removed)`` where
    ``patch`` maps each key whose value changed (or appeared) to its new value and ``removed``
    lists the keys ``new`` no longer has. With ``old`` ``None`` the patch is all of ``new``.
    Values are compared with ``==`` (identical objects compare equal at once)."""
    if new is None:
        return {}, []
    if old is None:
        return dict(new), []
    patch = {k: v for k, v in new.items() if old.get(k, _MISSING) != v}
    removed = [k for k in old if k not in new]
    return patch, removed


class StateGapError(ValueError):
    """A delta's ``base_version`` is not the version of the state held (a frame was missed, or
    no state is held yet): send ``resync`` to get a full state."""


def apply_state(current: Mapping[str, Any] | None, frame: Mapping[str, Any]) -> dict[str, Any]:
    """The full state after ``frame`` (a ``state`` message as JSON) on top of ``current``.

    A full frame (``"full": true``) replaces ``current``. A delta copies every top-level field
    it carries except :data:`DELTA_ONLY`, then patches the view: ``view = {**view,
    **view_patch}`` without the keys of ``view_removed``. The result has ``full: true`` and no
    step fields; ``current`` is not modified.

    Raises:
        StateGapError: ``frame`` is a delta and ``current`` is ``None`` or at another version
            than the delta's ``base_version``.
    """
    if frame.get("full", True):
        return {k: v for k, v in frame.items() if k not in STEP_FIELDS}
    if current is None or current.get("version") != frame.get("base_version"):
        have = None if current is None else current.get("version")
        raise StateGapError(f"delta on version {frame.get('base_version')} but the state held "
                            f"is at version {have}")
    out = dict(current)
    for key, value in frame.items():
        if key not in DELTA_ONLY:
            out[key] = value
    out["full"] = True
    patch = frame.get("view_patch") or {}
    removed = frame.get("view_removed") or ()
    if patch or removed:
        view = dict(current.get("view") or {})
        view.update(patch)
        for key in removed:
            view.pop(key, None)
        out["view"] = view
    return out
