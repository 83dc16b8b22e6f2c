"""Table chat and presence (``docs/protocol.md``, "Chat" and "Presence").

Mixed into :class:`~.actor.Table`; runs only inside the table's task.

- **Presence**: when a seat's holder connects (takes or resumes the seat) or its socket drops,
  every other connection at the table gets a ``presence`` message at once, in every table
  status (waiting, playing, between hands, finished), so an "offline" badge is never a turn
  late. Presence does not change the table's ``version``.
- **Chat**: a joined connection's ``chat`` text (1-200 characters, plain text) goes to every
  connection at the table, seats and spectators, as ``chat`` with a rising ``id``, the
  speaker's seat, name and player id, and the time (Unix ms). At most :data:`CHAT_BURST`
  lines per :data:`CHAT_WINDOW_SECONDS` per player (all its sockets together: a new socket
  does not start a new window): the next one is refused ``chat.flood``. The last :data:`CHAT_KEPT` lines are kept in memory (not in the durable log:
  a restart forgets the chat) and sent to a connection when it joins; an admin may remove a
  line (``chat_removed`` to everyone).
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Any

from ..protocol import messages as p

if TYPE_CHECKING:
    from ..protocol.errors import ErrorCode
    from .connections import Connection
    from .seats import Seat

CHAT_BURST = 5
"""Chat lines a player (all its sockets together) may send within :data:`CHAT_WINDOW_SECONDS`."""
CHAT_WINDOW_SECONDS = 10.0
CHAT_KEPT = 50
"""Chat lines a table keeps for connections that join later."""


class TableChat:
    """The chat and presence half of a table (see the module docstring)."""

    if TYPE_CHECKING:  # provided by Table
        id: str
        version: int
        clock: Any
        seats: list[Seat]
        spectators: dict[str, Connection]

        def seat_of(self, conn: Connection) -> Seat | None: ...
        def connections(self) -> list[Connection]: ...
        def send(self, conn: Connection, msg: Any) -> None: ...
        def _error(self, conn: Connection, code: ErrorCode, message: str,
                   req: Any = None) -> None: ...

    def init_chat(self) -> None:
        self.chat_log: deque[p.ChatOut] = deque(maxlen=CHAT_KEPT)
        self.chat_next_id = 1
        self._chat_times: dict[str, deque[float]] = {}
        """player id -> the times of its latest chat lines here."""

    def presence(self, seat: Seat, connected: bool) -> None:
        """Tell every connection at the table but the seat's own that ``seat``'s holder is
        now (dis)connected."""
        msg = p.Presence(table_id=self.id, version=self.version, seat=seat.index,
                         connected=connected)
        for conn in self.connections():
            if conn is not seat.conn:
                self.send(conn, msg)

    def send_chat_history(self, conn: Connection) -> None:
        """Send a connection that just joined the chat lines kept (oldest first)."""
        for line in self.chat_log:
            self.send(conn, line)

    def chat(self, conn: Connection, m: p.Chat) -> None:
        """A ``chat`` request: refused ``table.not_joined`` for a connection that neither holds
        a seat nor watches here, ``chat.flood`` over the rate; else sent to everyone."""
        seat = self.seat_of(conn)
        if seat is None and conn.id not in self.spectators:
            self._error(conn, "table.not_joined", "join the table before chatting", m)
            return
        now = self.clock.now()
        times = self._chat_times.setdefault(conn.player.id, deque())
        while times and now - times[0] >= CHAT_WINDOW_SECONDS:
            times.popleft()
        if len(times) >= CHAT_BURST:
            self._error(conn, "chat.flood", f"at most {CHAT_BURST} chat lines per "
                        f"{CHAT_WINDOW_SECONDS:g} s; wait a moment", m)
            return
        times.append(now)
        line = p.ChatOut(table_id=self.id, id=self.chat_next_id,
                         seat=None if seat is None else seat.index,
                         name=conn.player.name, player_id=conn.player.id, text=m.text,
                         ts=int(self.clock.wall().timestamp() * 1000))
        self.chat_next_id += 1
        self.chat_log.append(line)
        for c in self.connections():
            self.send(c, line)

    def remove_chat(self, chat_id: int) -> bool:
        """Remove chat line ``chat_id`` (admin): everyone gets ``chat_removed``. Returns
        whether the line was still kept."""
        kept = [line for line in self.chat_log if line.id != chat_id]
        found = len(kept) != len(self.chat_log)
        self.chat_log.clear()
        self.chat_log.extend(kept)
        msg = p.ChatRemoved(table_id=self.id, id=chat_id)
        for c in self.connections():
            self.send(c, msg)
        return found
