"""The table core: the rules of play of one table as synchronous code (``design.md`` section 5).

:class:`TableCore` is the table's state (:class:`~.state.TableState`) with its parts held as
fields, each in its own module and given the state and the few other parts it calls (no part
is a base class): ``flow`` (start, chance, end, saving; :mod:`.flow`), ``fanout`` (the frames
of each step; :mod:`.fanout`), ``timers`` (the deadline, pause and idle timers;
:mod:`.timers`), ``abandon_watch`` (ending a game nobody plays; :mod:`.abandon`),
``stand_ins`` (stand-in bots for seats whose holder is gone mid-game; :mod:`.standin`),
``seating`` (join, resume, sit out; :mod:`.seating`), ``departures`` (leaving, kicks,
disconnects, closing; :mod:`.departures`), ``chips`` (buy-ins and cash-outs; :mod:`.chips`),
``chat`` (:mod:`.chat`) and ``durable`` (the log entries of each step; :mod:`.durable`).

:meth:`TableCore.handle` takes one inbox message (the time is the injected clock's) and
returns the :class:`Step` it made: the messages per connection, in order, what the table
log must commit before they may go out (entries, compaction, finished games for the outbox,
chip moves), the timers to arm or cancel (:mod:`.timers`) and whether the table stopped.
Nothing here awaits, imports the event loop or arms a timer; it reads the injected clock's
time. The actor (:class:`~.actor.Table`) is the async shell that feeds the inbox, arms the
step's timers on the clock (a fired timer posts its message back to the inbox) and carries
each step out, and a test drives the core with a fake clock and no event loop
(``tests/tables/test_core.py``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ..engine import EngineError, GameRules
from ..engine.actions import copy_json
from ..protocol import messages as p
from ..protocol.frames import Frame
from ..storage.interface import Store
from ..storage.log import TableLog
from ..storage.writer import GameWriter
from .abandon import AbandonWatch
from .chat import TableChat
from .chips import Chips
from .clock import Clock
from .connections import Connection
from .departures import Departures
from .durable import Durability, LogStep
from .fanout import Fanout
from .flow import GameFlow
from .messages import (
    AbandonExpired,
    ClientRequest,
    Close,
    DeadlineExpired,
    Disconnected,
    Fenced,
    InboxMessage,
    NextHand,
    Reap,
)
from .output import Delivery
from .seating import Seating
from .standin import StandIns
from .state import TableSpec, TableState
from .timers import TimerEffect, Timers

log = logging.getLogger("cardhall.tables.actor")


def iso(when: datetime) -> str:
    """A UTC time as ISO 8601 with ``Z`` (``2026-03-01T09:57:00.123Z``)."""
    return when.isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass
class Step:
    """What handling one message made (the effects the shell carries out: ``timers`` first,
    then ``log`` and ``frames``).

    Attributes:
        frames: ``(connection, message)`` in send order; they go out once ``log`` is
            committed (at once when it is ``None``, behind the steps still waiting).
            Empty when the table has no log: then its messages went out as they were made.
        log: what the table log must commit for this step (``None``: nothing durable).
        stop: the table stopped (closed, abandoned, reaped, fenced).
        timers: the table timers to arm or cancel (:class:`~.timers.TimerArm`,
            :class:`~.timers.TimerCancel`), in order; the shell applies them before it
            carries ``frames`` out.
    """

    frames: list[Delivery] = field(default_factory=list)
    log: LogStep | None = None
    stop: bool = False
    timers: list[TimerEffect] = field(default_factory=list)


class TableCore(TableState):
    """The synchronous table (see the module docstring)."""

    def __init__(self, table_id: str, rules: GameRules[Any], config: Any,
                 spec: TableSpec, *, store: Store, writer: GameWriter, clock: Clock,
                 log: TableLog | None = None,
                 seed_source: Callable[[int], bytes] | None = None) -> None:
        super().__init__(table_id, rules, config, spec, clock, holding=log is not None,
                         seed_source=seed_source)
        self.store = store
        self.writer = writer
        """Takes each finished game without a log (:meth:`.durable.Durability.log_finished`);
        the table never awaits saves."""
        self.mailbox: list[InboxMessage] = []
        """What stand-in bots (and a test driver's timers) posted while the core runs on its
        own (a test's driver takes them from here); the actor (:class:`~.actor.Table`) posts
        to its inbox instead."""
        self.timers = Timers(self)
        self.abandon_watch = AbandonWatch(clock, self.timers)
        self.fanout = Fanout(self)
        self.chat = TableChat(self)
        self.chips = Chips(self, store)
        self.durable = Durability(self, self.chips, log, writer)
        self.stand_ins = StandIns(self, self.fanout)
        self.flow = GameFlow(self, self.fanout, self.timers, self.stand_ins, self.chips,
                             self.durable)
        self.seating = Seating(self, self.flow, self.fanout, self.chips, self.stand_ins,
                               self.chat, self.timers)
        self.departures = Departures(self, self.fanout, self.stand_ins, self.chips,
                                     self.timers, self.durable, self.chat)

    # ----- outside interface ----------------------------------------------------------------
    @property
    def games_saved(self) -> int:
        """Games this table handed to the game writer (or its log's outbox)."""
        return self.flow.games_saved

    @property
    def lease_epoch(self) -> int | None:
        """Cluster mode: the lease epoch its log steps are fenced with (:mod:`.durable`)."""
        return self.durable.lease_epoch

    @property
    def fenced_out(self) -> bool:
        """Whether the table stopped because another node took it over."""
        return self.durable.fenced_out

    def summary(self, *, admin: bool = False) -> dict[str, Any]:
        """Public lobby facts (reads only; no awaits, so it is consistent). A table nobody may
        watch (a duplicate board with people: ``spec.watchable`` false) tells no chip count
        (unless ``admin``): each seat's ``stack`` is ``None``, ``in_hand`` and
        ``out_of_chips`` false and ``seats_out_of_chips`` 0, since the stacks after a hand are
        its result, which another table playing the same cards must not learn
        (``docs/tournaments.md``)."""
        shown = admin or self.spec.watchable
        seats = [s.public(shown and self.in_hand(s.index),
                          shown and self.out_of_chips(s.index)).model_dump() for s in self.seats]
        if not shown:
            for seat in seats:
                seat["stack"] = None
        return {
            "id": self.id,
            "game": self.rules.name,
            "status": self.status,
            "version": self.version,
            "num_seats": len(self.seats),
            "seats_taken": sum(1 for s in self.seats if s.taken),
            "seats_out_of_chips": sum(1 for seat in seats if seat["out_of_chips"]),
            **self.buy_in_limits(),
            "seats": seats,
            "hand": self.hand,
            "turn_timeout_seconds": self.spec.turn_timeout_seconds,
            "config": dict(self.spec.config),
            "next_seed_commitment": self.next_seed_commitment,
            "private": self.spec.private,
            "tournament": self.spec.label,
            "watchable": self.spec.watchable,
            "rated": self.spec.rated,
            "created_by": self.created_by,
            "created_at": iso(self.created_at),
            "last_active_at": iso(self.last_active_at),
        }


    # ----- the inbox ------------------------------------------------------------------------
    def post(self, msg: InboxMessage) -> None:
        """Keep ``msg`` (a stand-in's, or a timer's) for the driver (:attr:`mailbox`)."""
        if not self.stopped:
            self.mailbox.append(msg)

    def handle(self, msg: InboxMessage) -> Step:
        """Apply one inbox message (:class:`~.messages.Control` is the actor's) and return the
        step it made. A bug (an exception) closes the table (``error``): its state is suspect."""
        version = self.version
        try:
            stop = self._dispatch(msg)
            return self.settle(msg, version, stop)
        except Exception:
            log.exception("table %s failed handling %s; closing it", self.id,
                          type(msg).__name__)
            self.departures.close("error")
            return self.end_step(True)

    def settle(self, msg: InboxMessage, version: int, stop: bool) -> Step:
        """After ``msg`` was applied (the version was ``version`` before): the abandon timer,
        the last activity, and the step."""
        if not stop:
            self.watch_abandon()
            if version != self.version or isinstance(msg, ClientRequest):
                self.last_active_at = self.clock.wall()
        return self.end_step(stop)

    def end_step(self, stop: bool = False) -> Step:
        """The running step ends: its held messages, its log entries and its timers."""
        return Step(self.out.take(), self.durable.step(), stop, self.timers.take())

    def watch_abandon(self) -> None:
        """Arm or cancel the abandon timer after the actor handled a message."""
        self.abandon_watch.update(self.unattended(), self.spec.abandon_after_seconds)

    def _abandon_expired(self, arming: int) -> bool:
        """Handle :class:`~.messages.AbandonExpired`: if it is the running timer and the table
        is still unattended, end the running game as ``abandoned`` (saved, ``game_over``
        sent) and close the table (``table_closed``/``abandoned``). Returns whether the table
        closed (the actor then stops)."""
        if not self.abandon_watch.fired(arming) or not self.unattended():
            return False
        self.flow.abandon()
        log.info("table %s abandoned: no client connected for %.1f s", self.id,
                 self.spec.abandon_after_seconds)
        self.departures.close("abandoned")
        return True

    def _break_cycles(self) -> None:
        """Drop the back-references that make a table a reference cycle (its fan-out and its
        parts point back at it), so that a closed table is freed by reference counting
        alone. The GC tuning (``server/gctune.py``) freezes the heap every 10 s and collects
        frozen cycles only about once an hour: a closed table left to the cyclic collector
        (some 400 KiB for a finished Bazaar Blot match) stayed in memory until then."""
        self.fanout.table = None
        for part in (self.timers, self.chat, self.chips, self.durable, self.stand_ins,
                     self.flow, self.seating, self.departures):
            del part.t  # each part points back at the table (its state)

    def _dispatch(self, msg: InboxMessage) -> bool:
        """Apply one message; True means the table stops."""
        match msg:
            case ClientRequest(conn, p.Join() as m, balance, hold):
                self.chips.begin_join(hold)
                try:
                    self.seating.join(conn, m, balance)
                finally:
                    self.chips.end_join()
                if self.seat_of(conn) is not None or conn.id in self.spectators:
                    self.chat.send_history(conn)
            case ClientRequest(conn, p.Chat() as m):
                self.chat.handle(conn, m)
            case ClientRequest(conn, p.Act() as m):
                self._act(conn, m)
            case ClientRequest(conn, p.SitOut() as m):
                self.seating.sit_out(conn, m)
            case ClientRequest(conn, p.Leave() as m):
                self.departures.leave(conn, m)
            case ClientRequest(conn, p.Resync() as m):
                self._resync(conn, m)
            case Disconnected(conn):
                self.departures.disconnected(conn)
            case DeadlineExpired(version):
                self.flow.timeout(version)
            case NextHand(hand):
                if hand == self.hand and self.status == "between_hands":
                    self.flow.start_game_if_ready()
            case AbandonExpired(arming):
                if self._abandon_expired(arming):
                    return True
            case Reap(version):
                if version == self.version and self.idle():
                    self.departures.close("abandoned" if self.abandoned() else "idle")
                    return True
            case Close(reason):
                self.departures.close(reason)
                return True
            case Fenced():
                self.departures.fenced()
                return True
        return False

    # ----- requests -------------------------------------------------------------------------
    def _act(self, conn: Connection, m: p.Act) -> None:
        seat = self.seat_of(conn)
        if seat is None:
            self.error(conn, "table.not_seated", "this connection holds no seat here", m)
            return
        if m.seat is not None and m.seat != seat.index:
            self.error(conn, "table.not_your_seat",
                        f"seat {m.seat} is not yours (you hold seat {seat.index})", m)
            return
        done = seat.answers.get(m.action_id)
        if done is not None:
            request, answer = done
            if request != (m.version, m.action):  # a reused id, not a retry: never "accepted"
                self.error(conn, "table.action_id_reused",
                            f"action_id {m.action_id!r} was already accepted for another action "
                            f"(version {request[0]}); use a fresh id", m)
                return
            self.send(conn, Frame({**answer.data, "duplicate": True, "rid": m.rid}))
            self.send(conn, self.fanout.full(conn, seat.index))
            return
        if self.recorder is None or self.status != "playing":
            self.error(conn, "table.no_game", f"no game is running (status {self.status})", m)
            return
        if not self.game_version <= m.version <= self.version:
            self.error(conn, "table.stale_version",
                        f"action made against version {m.version}; the table is at {self.version}"
                        f" (game state of version {self.game_version})", m)
            return
        gs = self.game_seat(seat.index)
        if gs is None:
            self.error(conn, "engine.not_your_turn", f"seat {seat.index} is not in this hand", m)
            return
        try:
            events = self.recorder.act(gs, dict(m.action), t_ms=self.t_ms())
        except EngineError as exc:
            self.error(conn, exc.code, exc.message, m)
            return
        self.version += 1
        answer = Frame({"type": "accepted", "table_id": self.id, "version": self.version,
                        "action_id": m.action_id, "duplicate": False, "rid": m.rid})
        seat.remember(m.action_id, (m.version, copy_json(m.action)), answer)
        seat.timeouts = 0
        self.send(conn, answer)
        self.flow.after_action(events, seat.index, timeout=False)

    def _resync(self, conn: Connection, m: p.Resync) -> None:
        seat = self.seat_of(conn)
        if seat is None and conn.id not in self.spectators:
            self.error(conn, "table.not_joined", "join the table first", m)
            return
        self.send(conn, self.fanout.full(conn, None if seat is None else seat.index))
