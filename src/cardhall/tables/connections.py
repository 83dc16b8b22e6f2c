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
from typing import Any, Protocol

from pydantic import BaseModel

from ..protocol.messages import Error
from ..storage.interface import PlayerRecord

_ids = itertools.count(1)


class Connection(Protocol):
    """An outbound endpoint for one player (a socket or a built-in bot)."""

    id: str
    player: PlayerRecord

    def send(self, msg: BaseModel) -> None:
        """Enqueue ``msg`` (a :mod:`cardhall.protocol.messages` server message); never blocks."""

    @property
    def closed(self) -> bool:
        """True once the connection can no longer receive."""


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

    @property
    def closed(self) -> bool:
        return self._closed

    def send(self, msg: BaseModel) -> None:
        if self._closed:
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


class RecordingConnection:
    """Keeps every message it is sent (tests, and the admin's dry runs)."""

    def __init__(self, player: PlayerRecord) -> None:
        self.id = f"r{next(_ids)}"
        self.player = player
        self.messages: list[BaseModel] = []
        self.closed = False
        self.tables: set[str] = set()

    def send(self, msg: BaseModel) -> None:
        if not self.closed:
            self.messages.append(msg)

    def of_type(self, kind: str) -> list[Any]:
        """Messages of one ``type``, in order."""
        return [m for m in self.messages if getattr(m, "type", None) == kind]

    def last(self, kind: str) -> Any:
        """The latest message of ``type`` ``kind``. Raises ``IndexError`` if none."""
        return self.of_type(kind)[-1]
