"""Departures from a table actor: leave, release, kick, disconnect, close, fenced
(``design.md`` section 5).

A part of :class:`~.actor.Table` (held as ``table.departures``); runs only inside the
table's task. A holder who leaves (or
is kicked) during a game it is dealt into hands the seat to a stand-in bot until the game ends
(:mod:`.standin`); otherwise the seat is freed at once and its stack goes back to the
player's balance (:mod:`.chips`). Closing tells every connection ``table_closed``; a table
another node took over stops silently (:class:`~.messages.Fenced`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from ..protocol import messages as p
from .chat import TableChat
from .chips import Chips
from .connections import Connection
from .durable import Durability
from .fanout import Fanout
from .seats import Seat
from .standin import StandIns
from .state import STAND_IN_RETURNABLE, TableState
from .timers import Timers

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
    """Who leaves one table, and how it closes (see the module docstring).

    Args:
        t: the table's state.
        fanout: a detached connection is forgotten; each step's frames.
        stand_ins: a holder leaving mid-game hands its seat to a stand-in.
        chips: a freed seat cashes out.
        timers: the idle timer; every timer stops when the table closes.
        durable: closing deletes the log (kept on shutdown); fencing stops it.
        chat: presence goes to everyone else.
    """

    def __init__(self, t: TableState, fanout: Fanout, stand_ins: StandIns, chips: Chips,
                 timers: Timers, durable: Durability, chat: TableChat) -> None:
        self.t = t
        self.fanout = fanout
        self.stand_ins = stand_ins
        self.chips = chips
        self.timers = timers
        self.durable = durable
        self.chat = chat

    def leave(self, conn: Connection, m: p.Leave) -> None:
        """Stop watching or give the seat up; ``table.not_joined`` for a connection that
        neither watches nor holds a seat here (nothing changes)."""
        seat = self.t.seat_of(conn)
        if seat is None and conn.id in self.t.spectators:  # watching while a stand-in plays
            seat = self.t.own_seat(conn)
        if seat is None and conn.id not in self.t.spectators:
            self.t.error(conn, "table.not_joined", "this connection has not joined the table "
                        "(or has left it already)", m)
            return
        self.t.spectators.pop(conn.id, None)
        self.fanout.forget(conn)
        self.t.send(conn, p.Left(table_id=self.t.id, version=self.t.version, rid=m.rid))
        if seat is not None and seat.stand_in is not None:
            if self.t.status == "playing" and self.t.in_hand(seat.index):
                seat.stand_in, seat.leaving = "left", True  # it plays on until the game ends
                return
            self.stand_ins.take_back(seat)
        if seat is not None:
            self.release(seat)

    def release(self, seat: Seat) -> None:
        """The holder gives the seat up: freed now, or when the running game ends; meanwhile
        a stand-in bot plays it at bot pace (:meth:`~.standin.StandIns.stand_in`, reason
        ``left``) until the game ends or the holder resumes the seat."""
        seat.conn = None
        if self.t.status == "playing" and self.t.in_hand(seat.index):
            if seat.bot_kind is not None or not self.stand_ins.stand_in(seat.index, "left"):
                seat.leaving = True
            return
        self.chips.cash_out(seat)
        seat.free()
        self.t.version += 1
        self.fanout.broadcast()
        self.timers.arm_reap()

    def kick_now(self, index: int, reason: str = "kicked") -> KickResult:
        """Remove seat ``index``'s holder (told ``table_closed``/``kicked``). During a game in
        which the seat is dealt, a stand-in bot plays it until that game ends
        (:meth:`~.standin.StandIns.stand_in` with ``reason``), then it is freed; otherwise it is
        freed now. Idempotent: an empty seat, or one a stand-in already plays, is answered
        ``kicked=False`` with why. The holder is never offered nor granted this table's
        rematch (``kicked``)."""
        seat = self.t.seats[index]
        if not seat.taken:
            return KickResult(False, "seat empty")
        if seat.stand_in in STAND_IN_RETURNABLE:  # the holder left or timed out: may return
            return self._kick_returnable(seat, reason)
        if seat.stand_in is not None:
            return KickResult(False, f"already {seat.stand_in}: a stand-in plays the seat "
                                     f"until the game ends")
        if seat.player_id is not None:
            self.t.kicked.add(seat.player_id)
        old = seat.conn
        if old is not None:
            self.t.send(old, p.TableClosed(table_id=self.t.id, version=self.t.version, reason="kicked"))
        if self.stand_ins.stand_in(index, reason):
            return KickResult(True, None, stand_in=True)
        if seat.leaving:  # left during a game it is not dealt into any more: freed at its end
            return KickResult(False, "seat already left; it is freed when the game ends")
        self.release(seat)
        return KickResult(True, None)

    def _kick_returnable(self, seat: Seat, reason: str) -> KickResult:
        """Kick the holder of a seat a stand-in plays because the holder left or timed out:
        the stand-in plays on until the game ends (then the seat is freed), the holder may not
        take it back, and its connections watching the table (with the seat's own cards) are
        told ``table_closed``/``kicked`` and dropped."""
        seat.stand_in, seat.leaving = reason, True
        if seat.player_id is not None:
            self.t.kicked.add(seat.player_id)
            for conn in [c for c in self.t.spectators.values()
                         if c.player.id == seat.player_id]:
                self.t.send(conn, p.TableClosed(table_id=self.t.id, version=self.t.version,
                                                reason="kicked"))
                self.t.spectators.pop(conn.id, None)
                self.fanout.forget(conn)
        self.t.version += 1
        self.fanout.broadcast()
        return KickResult(True, None, stand_in=True)

    def disconnected(self, conn: Connection) -> None:
        self.t.spectators.pop(conn.id, None)
        self.fanout.forget(conn)
        for s in self.t.seats:
            if s.conn is conn:
                s.conn = None
                self.chat.presence(s, False)  # the others learn it now, not at the next step
                self.timers.arm_reap()  # a waiting table nobody is connected to closes when idle

    def fenced(self) -> None:
        """Another node owns the table now: stop silently (see :class:`~.messages.Fenced`)."""
        self.timers.cancel()
        self.durable.fence_out()
        log.warning("table %s: another node took it over (lease epoch %s superseded); "
                    "stopped here", self.t.id, self.durable.lease_epoch)
        self.t.status = "closed"
        for s in self.t.seats:
            s.conn = None
        self.t.spectators.clear()
        self.fanout.clear()

    def close(self, reason: p.TableClosedReason) -> None:
        """Tell everyone ``table_closed``/``reason`` and detach them. A ``shutdown`` keeps the
        table's log (it is restored at the next start); any other reason deletes it."""
        self.timers.cancel()
        self.durable.keep_log = self.durable.keep_log or reason == "shutdown"
        self.durable.close_log()
        if not self.durable.keep_log:  # closed for good: every stack goes back to its balance
            for s in self.t.seats:
                self.chips.cash_out(s)
        log.info("table %s closed (%s)", self.t.id, reason)
        self.t.status = "closed"
        self.t.version += 1
        msg = p.TableClosed(table_id=self.t.id, version=self.t.version, reason=reason)
        for conn in self.t.connections():
            self.t.send(conn, msg)
        for s in self.t.seats:
            s.conn = None
        self.t.spectators.clear()
        self.fanout.clear()
