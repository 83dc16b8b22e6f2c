"""The table actor: one asyncio task owns one table's seats and game (``design.md`` section 5).

Everything that changes a table goes through :meth:`Table.post` into its inbox and is handled,
one message at a time, by :meth:`Table.run`. Each change bumps ``version``. A client action
carries the version it was made against and is refused as ``table.stale_version`` if the game
state changed since (a seat taken or freed outside the hand bumps the version but leaves the
game state, so it does not make an action stale);
an ``action_id`` already accepted for the seat is answered again, never re-applied. One turn
deadline per table is armed through the injected clock; when it expires it posts a versioned
:class:`~.messages.DeadlineExpired` and the actor applies the game's timeout action, logged with
``timeout=True``.

A table is its state (:class:`~.state.TableState`: seats, status, version, the running game)
with its parts held as fields, each in its own module and each given the state and the few
other parts it calls (no part is a base class): ``flow`` (start, chance, end, saving;
:mod:`.flow`), ``fanout`` (the frames of each step; :mod:`.fanout`), ``timers`` (the deadline,
pause and idle timers; :mod:`.timers`), ``abandon_watch`` (ending a game nobody plays;
:mod:`.abandon`), ``stand_ins`` (stand-in bots for seats whose holder is gone mid-game;
:mod:`.standin`), ``seating`` (join, resume, sit out; :mod:`.seating`), ``departures``
(leaving, kicks, disconnects, closing; :mod:`.departures`), ``chips`` (buy-ins and cash-outs;
:mod:`.chips`), ``chat`` (:mod:`.chat`) and ``durable`` (the log of each step, whose commit
releases the step's messages held by ``out``; :mod:`.durable`, :mod:`.output`).
"""

from __future__ import annotations

import asyncio
import copy
import inspect
import logging
from collections.abc import Callable
from datetime import datetime
from typing import Any

from ..engine import EngineError, GameRules
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
from .durable import Durability
from .errors import TableClosedError
from .fanout import Fanout
from .flow import GameFlow
from .messages import (
    AbandonExpired,
    ClientRequest,
    Close,
    Control,
    DeadlineExpired,
    Disconnected,
    Fenced,
    InboxMessage,
    NextHand,
    Reap,
)
from .seating import Seating
from .standin import StandIns
from .state import TableSpec, TableState
from .timers import Timers

__all__ = ["Table", "TableSpec"]

log = logging.getLogger(__name__)


def _iso(when: datetime) -> str:
    """A UTC time as ISO 8601 with ``Z`` (``2026-03-01T09:57:00.123Z``)."""
    return when.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _ignore(_msg: InboxMessage) -> None:
    """Where a stopped table's abandon timer would post (nowhere)."""


class Table(TableState):
    """A live table. Only its own task (:meth:`run`) mutates it; others call :meth:`post`."""

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
        self.inbox: asyncio.Queue[InboxMessage] = asyncio.Queue()
        self.abandon_watch = AbandonWatch(clock, self.post)
        self.fanout = Fanout(self)
        self.timers = Timers(self)
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

    def post(self, msg: InboxMessage) -> None:
        """Enqueue a message for the actor (never blocks; safe from any task or timer). A
        client request reaching a table that has stopped is answered ``table.not_found``
        (the socket handler may still find it in the registry for a moment)."""
        if not self.stopped:
            self.inbox.put_nowait(msg)
        elif isinstance(msg, ClientRequest):
            self._refuse_closed(msg)

    def _refuse_closed(self, msg: ClientRequest) -> None:
        """Answer a request the closed table will never handle (else a client resuming as
        the table closes waits forever for ``joined``)."""
        if msg.hold is not None:
            msg.hold.release()
        self.error(msg.conn, "table.not_found", f"table {self.id!r} is closed", msg.msg,
                    behind=True)

    async def call(self, fn: Any) -> Any:
        """Run ``fn(table)`` inside the actor and return its result (admin inspection).

        Raises:
            TableClosedError: the table is closed, or closes before ``fn`` runs.
        """
        if self.stopped:
            raise TableClosedError(f"table {self.id!r} is closed")
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.post(Control(fn, fut))
        return await fut

    def summary(self) -> dict[str, Any]:
        """Public lobby facts (reads only; no awaits, so it is consistent)."""
        return {
            "id": self.id,
            "game": self.rules.name,
            "status": self.status,
            "version": self.version,
            "num_seats": len(self.seats),
            "seats_taken": sum(1 for s in self.seats if s.taken),
            "seats_out_of_chips": sum(1 for s in self.seats if self.out_of_chips(s.index)),
            **self.buy_in_limits(),
            "seats": [s.public(self.in_hand(s.index), self.out_of_chips(s.index)).model_dump()
                      for s in self.seats],
            "hand": self.hand,
            "turn_timeout_seconds": self.spec.turn_timeout_seconds,
            "config": dict(self.spec.config),
            "next_seed_commitment": self.next_seed_commitment,
            "private": self.spec.private,
            "created_by": self.created_by,
            "created_at": _iso(self.created_at),
            "last_active_at": _iso(self.last_active_at),
        }

    async def run(self) -> None:
        """The actor loop: handle inbox messages one by one until closed."""
        try:
            while True:
                msg = await self.inbox.get()
                version = self.version
                try:
                    if await self._handle(msg):
                        self.durable.end_step()
                        return
                    self.watch_abandon()
                    if version != self.version or isinstance(msg, ClientRequest):
                        self.last_active_at = self.clock.wall()
                    self.durable.end_step()
                except Exception:  # a bug: log it and close the table (its state is suspect)
                    log.exception("table %s failed handling %s; closing it", self.id,
                                  type(msg).__name__)
                    self.departures.close("error")
                    self.durable.end_step()
                    return
                finally:
                    self.inbox.task_done()
        finally:
            self.stopped = True
            self.timers.cancel()
            self.abandon_watch.cancel()
            self._drain_inbox()
            self._break_cycles()

    def watch_abandon(self) -> None:
        """Arm or cancel the abandon timer after the actor handled a message."""
        self.abandon_watch.update(self.unattended(), self.spec.abandon_after_seconds)

    async def _abandon_expired(self, arming: int) -> bool:
        """Handle :class:`~.messages.AbandonExpired`: if it is the running timer and the table
        is still unattended, end the running game as ``abandoned`` (saved, ``game_over``
        sent) and close the table (``table_closed``/``abandoned``). Returns whether the table
        closed (the actor then stops)."""
        if not self.abandon_watch.fired(arming) or not self.unattended():
            return False
        await self.flow.abandon()
        log.info("table %s abandoned: no client connected for %.1f s", self.id,
                 self.spec.abandon_after_seconds)
        self.departures.close("abandoned")
        return True

    def _break_cycles(self) -> None:
        """Drop the back-references that make a table a reference cycle (its fan-out and its
        abandon timer point back at it), so that a closed table is freed by reference counting
        alone. The GC tuning (``server/gctune.py``) freezes the heap every 10 s and collects
        frozen cycles only about once an hour: a closed table left to the cyclic collector
        (some 400 KiB for a finished Bazaar Blot match) stayed in memory until then."""
        self.fanout.table = None
        self.abandon_watch.post = _ignore
        for part in (self.timers, self.chat, self.chips, self.durable, self.stand_ins,
                     self.flow, self.seating, self.departures):
            del part.t  # each part points back at the table (its state)

    def _drain_inbox(self) -> None:
        while not self.inbox.empty():
            msg = self.inbox.get_nowait()
            if isinstance(msg, Control) and not msg.future.done():
                msg.future.set_exception(TableClosedError(f"table {self.id!r} closed"))
            elif isinstance(msg, ClientRequest):
                self._refuse_closed(msg)
            self.inbox.task_done()

    async def _handle(self, msg: InboxMessage) -> bool:
        """Dispatch one message; True means stop the actor."""
        match msg:
            case ClientRequest(conn, p.Join() as m, balance, hold):
                self.chips.begin_join(hold)
                try:
                    await self.seating.join(conn, m, balance)
                finally:
                    self.chips.end_join()
                if self.seat_of(conn) is not None or conn.id in self.spectators:
                    self.chat.send_history(conn)
            case ClientRequest(conn, p.Chat() as m):
                self.chat.handle(conn, m)
            case ClientRequest(conn, p.Act() as m):
                await self._act(conn, m)
            case ClientRequest(conn, p.SitOut() as m):
                await self.seating.sit_out(conn, m)
            case ClientRequest(conn, p.Leave() as m):
                await self.departures.leave(conn, m)
            case ClientRequest(conn, p.Resync() as m):
                self._resync(conn, m)
            case Disconnected(conn):
                self.departures.disconnected(conn)
            case DeadlineExpired(version):
                await self.flow.timeout(version)
            case NextHand(hand):
                if hand == self.hand and self.status == "between_hands":
                    await self.flow.start_game_if_ready()
            case AbandonExpired(arming):
                if await self._abandon_expired(arming):
                    return True
            case Reap(version):
                if version == self.version and self.idle():
                    self.departures.close("abandoned" if self.abandoned() else "idle")
                    return True
            case Control(fn, future):
                try:
                    result = fn(self)
                    if inspect.isawaitable(result):
                        result = await result
                except Exception as exc:
                    if not future.done():
                        future.set_exception(exc)
                else:
                    if not future.done():
                        future.set_result(result)
            case Close(reason):
                self.departures.close(reason)
                return True
            case Fenced():
                self.departures.fenced()
                return True
        return False

    # ----- requests -------------------------------------------------------------------------
    async def _act(self, conn: Connection, m: p.Act) -> None:
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
        seat.remember(m.action_id, (m.version, copy.deepcopy(m.action)), answer)
        seat.timeouts = 0
        self.send(conn, answer)
        await self.flow.after_action(events, seat.index, timeout=False)

    def _resync(self, conn: Connection, m: p.Resync) -> None:
        seat = self.seat_of(conn)
        if seat is None and conn.id not in self.spectators:
            self.error(conn, "table.not_joined", "join the table first", m)
            return
        self.send(conn, self.fanout.full(conn, None if seat is None else seat.index))
