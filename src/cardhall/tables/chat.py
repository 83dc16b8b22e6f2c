"""Table chat and presence (``docs/protocol.md``, "Chat" and "Presence").

A part of the table core (``table.chat``); runs only inside the table's task.

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

from ..protocol import messages as p
from .connections import Connection
from .seats import Seat
from .state import TableState

CHAT_BURST = 5
"""Chat lines a player (all its sockets together) may send within :data:`CHAT_WINDOW_SECONDS`."""
CHAT_WINDOW_SECONDS = 10.0
CHAT_KEPT = 50
"""Chat lines a table keeps for connections that join later."""


class TableChat:
    """The chat and presence of one table (see the module docstring; ``table.chat``).

    Args:
        t: the table's state (who is here, the clock, the outgoing messages).
    """

    def __init__(self, t: TableState) -> None:
        self.t = t
        self.log: deque[p.ChatOut] = deque(maxlen=CHAT_KEPT)
        """The chat lines kept for connections that join later."""
        self.next_id = 1
        self._times: dict[str, deque[float]] = {}
        """player id -> the times of its latest chat lines here."""

    def presence(self, seat: Seat, connected: bool) -> None:
        """Tell every connection at the table but the seat's own that ``seat``'s holder is
        now (dis)connected."""
        msg = p.Presence(table_id=self.t.id, version=self.t.version, seat=seat.index,
                         connected=connected)
        for conn in self.t.connections():
            if conn is not seat.conn:
                self.t.send(conn, msg)

    def send_history(self, conn: Connection) -> None:
        """Send a connection that just joined the chat lines kept (oldest first)."""
        for line in self.log:
            self.t.send(conn, line)

    def handle(self, conn: Connection, m: p.Chat) -> None:
        """A ``chat`` request: refused ``table.not_joined`` for a connection that neither holds
        a seat nor watches here, ``chat.flood`` over the rate; else sent to everyone."""
        seat = self.t.seat_of(conn)
        if seat is None and conn.id not in self.t.spectators:
            self.t.error(conn, "table.not_joined", "join the table before chatting", m)
            return
        now = self.t.clock.now()
        times = self._times.setdefault(conn.player.id, deque())
        while times and now - times[0] >= CHAT_WINDOW_SECONDS:
            times.popleft()
        if len(times) >= CHAT_BURST:
            self.t.error(conn, "chat.flood", f"at most {CHAT_BURST} chat lines per "
                        f"{CHAT_WINDOW_SECONDS:g} s; wait a moment", m)
            return
        times.append(now)
        line = p.ChatOut(table_id=self.t.id, id=self.next_id,
                         seat=None if seat is None else seat.index,
                         name=conn.player.name, player_id=conn.player.id, text=m.text,
                         ts=int(self.t.clock.wall().timestamp() * 1000))
        self.next_id += 1
        self.log.append(line)
        for c in self.t.connections():
            self.t.send(c, line)

    def remove(self, chat_id: int) -> bool:
        """Remove chat line ``chat_id`` (admin): everyone gets ``chat_removed``. Returns
        whether the line was still kept."""
        kept = [line for line in self.log if line.id != chat_id]
        found = len(kept) != len(self.log)
        self.log.clear()
        self.log.extend(kept)
        msg = p.ChatRemoved(table_id=self.t.id, id=chat_id)
        for c in self.t.connections():
            self.t.send(c, msg)
        return found
