"""Connections: where a table actor's outbound messages go (``design.md`` section 5).

A table actor never awaits a socket: it calls :meth:`Connection.send`, which only enqueues.
:class:`QueueConnection` is a WebSocket's side of that: a bounded outbound queue drained by the
socket's one writer task (``server/ws.py``); when the queue overflows (a client that does not
read) the connection is marked closed, told ``table.slow_consumer`` and dropped. Bots implement
the same interface (``tables/bots.py``), so they see exactly what a socket would.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable
from typing import Any, Protocol

import orjson
from pydantic import BaseModel

from ..protocol import messages as p
from ..protocol.frames import Frame, StateGapError, apply_state
from ..protocol.messages import Error
from ..storage.interface import PlayerRecord

_ids = itertools.count(1)


class Connection(Protocol):
    """An outbound endpoint for one player (a socket or a built-in bot)."""

    id: str
    player: PlayerRecord

    def send(self, msg: Outgoing) -> None:
        """Enqueue ``msg`` (a :class:`~cardhall.protocol.frames.Frame`, or a
        :mod:`cardhall.protocol.messages` server model); never blocks."""

    @property
    def closed(self) -> bool:
        """True once the connection can no longer receive."""


Outgoing = Frame | BaseModel
"""What a table sends: a :class:`Frame` (hot-path messages, encoded once however many
recipients share it) or a pydantic server model (rare messages: errors, joined, closed)."""


def encode(msg: Outgoing) -> str:
    """The JSON text of an outgoing message."""
    return msg.text() if isinstance(msg, Frame) else msg.model_dump_json()


CLOSE = object()
"""Sentinel the writer task reads as "close the socket"."""


class QueueConnection:
    """A socket's outbound side: a bounded queue of server messages.

    Args:
        player: the authenticated identity.
        max_queue: how many messages may wait before the client counts as a slow consumer.
    """

    def __init__(self, player: PlayerRecord, max_queue: int = 256) -> None:
        self.id = f"c{next(_ids)}"
        self.player = player
        self.queue: asyncio.Queue[Any] = asyncio.Queue(maxsize=max_queue)
        self.close_code: int | None = None
        self._closed = False
        self.tables: set[str] = set()
        """Tables this connection joined (the socket handler reports its disconnect to them)."""
        self.observer: Callable[[QueueConnection, Outgoing], bool] | None = None
        """Cluster mode: shown every message before it is queued; a true answer drops it (the
        cluster notes ``joined`` answers, so the socket can rejoin a table that moves to
        another node, and drops the answers to its own rejoins)."""

    @property
    def closed(self) -> bool:
        return self._closed

    def send(self, msg: Outgoing) -> None:
        if self._closed:
            return
        if self.observer is not None and self.observer(self, msg):
            return
        try:
            self.queue.put_nowait(msg)
        except asyncio.QueueFull:
            self._overflow()

    def close(self, code: int = 1000) -> None:
        """Ask the writer to close the socket after what is already queued."""
        if self._closed:
            return
        self._closed = True
        self.close_code = code
        try:
            self.queue.put_nowait(CLOSE)
        except asyncio.QueueFull:
            self._drain()
            self.queue.put_nowait(CLOSE)

    def _drain(self) -> None:
        while not self.queue.empty():
            self.queue.get_nowait()

    def _overflow(self) -> None:
        self._drain()
        self.queue.put_nowait(
            Error(code="table.slow_consumer", message="outbound queue overflowed; closing")
        )
        self._closed = True
        self.close_code = 4008
        self.queue.put_nowait(CLOSE)


class RecordedEvents(BaseModel):
    """The events of one ``state`` frame, as a :class:`RecordingConnection` lists them
    (``type`` ``"events"``; ``seat`` is the frame's ``actor``)."""

    type: str = "events"
    table_id: str
    version: int
    seat: int | None
    timeout: bool
    events: list[dict[str, Any]]


class RecordingConnection:
    """Keeps every message it is sent, decoded as a client would (tests, and the admin's dry
    runs).

    Every message is encoded and parsed back through :data:`~cardhall.protocol.messages.SERVER`
    (so a message that breaks the protocol schema fails here), and through
    :data:`~cardhall.protocol.messages.SERVER_TYPED` too, which checks a ``state``'s view,
    legal actions and events against its game's models (for the registered games; a test
    game's ``state`` gets the envelope check only). ``messages`` holds the parsed
    models, with each ``state`` frame (full or delta) replaced by the full
    :class:`~cardhall.protocol.messages.State` it leads to (:func:`apply_state`), preceded by a
    :class:`RecordedEvents` when it carried events. ``frames`` holds the raw JSON as sent.
    """

    def __init__(self, player: PlayerRecord) -> None:
        self.id = f"r{next(_ids)}"
        self.player = player
        self.messages: list[Any] = []
        self.frames: list[dict[str, Any]] = []
        self.states: dict[str, dict[str, Any]] = {}
        self.gaps = 0
        self.closed = False
        self.tables: set[str] = set()

    def send(self, msg: Outgoing) -> None:
        if self.closed:
            return
        data = orjson.loads(encode(msg))
        self.frames.append(data)
        model = p.SERVER.validate_python(data)
        if data.get("type") != "state" or data.get("game") in p.GAMES:
            p.SERVER_TYPED.validate_python(data)  # the full contract, per-game payloads too
        if data.get("type") != "state":
            self.messages.append(model)
            return
        if data.get("events"):
            self.messages.append(RecordedEvents(
                table_id=data["table_id"], version=data["version"], seat=data.get("actor"),
                timeout=data.get("timeout", False), events=data["events"]))
        try:
            full = apply_state(self.states.get(data["table_id"]), data)
        except StateGapError:
            self.gaps += 1
            return
        self.states[data["table_id"]] = full
        self.messages.append(p.State.model_validate(full))

    def of_type(self, kind: str) -> list[Any]:
        """Messages of one ``type``, in order."""
        return [m for m in self.messages if getattr(m, "type", None) == kind]

    def last(self, kind: str) -> Any:
        """The latest message of ``type`` ``kind``. Raises ``IndexError`` if none."""
        return self.of_type(kind)[-1]
