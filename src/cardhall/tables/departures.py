"""Departures from a table actor: leave, release, kick, disconnect, close, fenced
(``design.md`` section 5).

Mixed into :class:`~.actor.Table`; runs only inside the table's task. A holder who leaves (or
is kicked) during a game it is dealt into hands the seat to a stand-in bot until the game ends
(:mod:`.standin`); otherwise the seat is freed at once and its stack goes back to the
player's balance (:mod:`.chips`). Closing tells every connection ``table_closed``; a table
another node took over stops silently (:class:`~.messages.Fenced`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..protocol import messages as p

if TYPE_CHECKING:
    from ..protocol.errors import ErrorCode
    from .connections import Connection
    from .fanout import Fanout
    from .seats import Seat

log = logging.getLogger("cardhall.tables.actor")


@dataclass(frozen=True)
class KickResult:
    """What :meth:`Departures.kick_now` did: ``kicked`` (the holder was removed), ``reason``
    (why not, else ``None``) and ``stand_in`` (a stand-in bot plays the seat until the game
    ends)."""

    kicked: bool
    reason: str | None
    stand_in: bool = False


class Departures:
    """The departures half of a table (see the module docstring)."""

    if TYPE_CHECKING:  # provided by Table and its other halves
        id: str
        seats: list[Seat]
        spectators: dict[str, Connection]
        kicked: set[str]
        version: int
        status: str
        keep_log: bool
        lease_epoch: int | None
        fanout: Fanout

        def seat_of(self, conn: Connection) -> Seat | None: ...
        def _own_seat(self, conn: Connection) -> Seat | None: ...
        def _error(self, conn: Connection, code: ErrorCode, message: str, req: Any = None, *,
                   behind: bool = False) -> None: ...
        def send(self, conn: Connection, msg: Any) -> None: ...
        def in_hand(self, index: int) -> bool: ...
        def stand_in(self, index: int, reason: str, keep_watching: bool = False) -> bool: ...
        def take_back(self, seat: Seat) -> None: ...
        def cash_out(self, seat: Seat) -> None: ...
        def broadcast_state(self) -> None: ...
        def arm_reap(self, *, resumed: bool = False) -> None: ...
        def presence(self, seat: Seat, connected: bool) -> None: ...
        def _cancel_timers(self) -> None: ...
        def fence_out(self) -> None: ...
        def close_log(self) -> None: ...
        def connections(self) -> list[Connection]: ...

    async def _leave(self, conn: Connection, m: p.Leave) -> None:
        """Stop watching or give the seat up; ``table.not_joined`` for a connection that
        neither watches nor holds a seat here (nothing changes)."""
        seat = self.seat_of(conn)
        if seat is None and conn.id in self.spectators:  # watching while a stand-in plays
            seat = self._own_seat(conn)
        if seat is None and conn.id not in self.spectators:
            self._error(conn, "table.not_joined", "this connection has not joined the table "
                        "(or has left it already)", m)
            return
        self.spectators.pop(conn.id, None)
        self.fanout.forget(conn)
        self.send(conn, p.Left(table_id=self.id, version=self.version, rid=m.rid))
        if seat is not None and seat.stand_in is not None:
            if self.status == "playing" and self.in_hand(seat.index):
                seat.stand_in, seat.leaving = "left", True  # it plays on until the game ends
                return
            self.take_back(seat)
        if seat is not None:
            await self.release(seat)

    async def release(self, seat: Seat) -> None:
        """The holder gives the seat up: freed now, or when the running game ends; meanwhile
        a stand-in bot plays it at bot pace (:meth:`~.standin.StandIns.stand_in`, reason
        ``left``) until the game ends or the holder resumes the seat."""
        seat.conn = None
        if self.status == "playing" and self.in_hand(seat.index):
            if seat.bot_kind is not None or not self.stand_in(seat.index, "left"):
                seat.leaving = True
            return
        self.cash_out(seat)
        seat.free()
        self.version += 1
        self.broadcast_state()
        self.arm_reap()

    async def kick_now(self, index: int, reason: str = "kicked") -> KickResult:
        """Remove seat ``index``'s holder (told ``table_closed``/``kicked``). During a game in
        which the seat is dealt, a stand-in bot plays it until that game ends
        (:meth:`~.standin.StandIns.stand_in` with ``reason``), then it is freed; otherwise it is
        freed now. Idempotent: an empty seat, or one a stand-in already plays, is answered
        ``kicked=False`` with why. The holder is never offered nor granted this table's
        rematch (``kicked``)."""
        seat = self.seats[index]
        if not seat.taken:
            return KickResult(False, "seat empty")
        if seat.stand_in is not None:
            return KickResult(False, f"already {seat.stand_in}: a stand-in plays the seat "
                                     f"until the game ends")
        if seat.player_id is not None:
            self.kicked.add(seat.player_id)
        old = seat.conn
        if old is not None:
            self.send(old, p.TableClosed(table_id=self.id, version=self.version, reason="kicked"))
        if self.stand_in(index, reason):
            return KickResult(True, None, stand_in=True)
        if seat.leaving:  # left during a game it is not dealt into any more: freed at its end
            return KickResult(False, "seat already left; it is freed when the game ends")
        await self.release(seat)
        return KickResult(True, None)

    def _disconnected(self, conn: Connection) -> None:
        self.spectators.pop(conn.id, None)
        self.fanout.forget(conn)
        for s in self.seats:
            if s.conn is conn:
                s.conn = None
                self.presence(s, False)  # the others learn it now, not at the next step
                self.arm_reap()  # a waiting table nobody is connected to closes when idle

    def _fenced(self) -> None:
        """Another node owns the table now: stop silently (see :class:`~.messages.Fenced`)."""
        self._cancel_timers()
        self.fence_out()
        log.warning("table %s: another node took it over (lease epoch %s superseded); "
                    "stopped here", self.id, self.lease_epoch)
        self.status = "closed"
        for s in self.seats:
            s.conn = None
        self.spectators.clear()
        self.fanout.clear()

    def _close(self, reason: p.TableClosedReason) -> None:
        """Tell everyone ``table_closed``/``reason`` and detach them. A ``shutdown`` keeps the
        table's log (it is restored at the next start); any other reason deletes it."""
        self._cancel_timers()
        self.keep_log = self.keep_log or reason == "shutdown"
        self.close_log()
        if not self.keep_log:  # closed for good: every stack goes back to its balance
            for s in self.seats:
                self.cash_out(s)
        log.info("table %s closed (%s)", self.id, reason)
        self.status = "closed"
        self.version += 1
        msg = p.TableClosed(table_id=self.id, version=self.version, reason=reason)
        for conn in self.connections():
            self.send(conn, msg)
        for s in self.seats:
            s.conn = None
        self.spectators.clear()
        self.fanout.clear()
