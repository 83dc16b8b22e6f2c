"""The table actor: one asyncio task owns one table's seats and game (``design.md`` section 5).

Everything that changes a table goes through :meth:`Table.post` into its inbox and is handled,
one message at a time, by :meth:`Table.run`. Each change bumps ``version``. A client action
carries the version it was made against and is refused as ``table.stale_version`` if the game
state changed since (a seat taken or freed outside the hand bumps the version but leaves the
game state, so it does not make an action stale);
an ``action_id`` already accepted for the seat is answered again, never re-applied. One turn
deadline per table is armed through the injected clock; when it expires it posts a versioned
:class:`~.messages.DeadlineExpired` and the actor applies the game's timeout action, logged with
``timeout=True``. The table's other halves are mixins, each in its own module: seating (join,
resume) in :mod:`.seating`, game flow (start, chance, end, saving) in :mod:`.flow`, the fan-out
of each step in :mod:`.fanout`, the deadline, pause and idle timers in :mod:`.timers`, and
ending a game nobody plays (no client connected for ``abandon_after_seconds``) in
:mod:`.abandon`, stand-in bots for seats whose holder is gone mid-game in :mod:`.standin`, and leaving,
kicks, disconnects and closing in :mod:`.departures`, sitting out poker hands in
:mod:`.sitout`.
"""

from __future__ import annotations

import asyncio
import copy
import inspect
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ..engine import EngineError, GameRules
from ..protocol import messages as p
from ..protocol.errors import ErrorCode
from ..protocol.frames import Frame
from ..storage.interface import Store
from ..storage.log import TableLog
from ..storage.writer import GameWriter
from .abandon import Abandonment, AbandonWatch
from .chat import TableChat
from .chips import Chips
from .clock import Clock, Handle
from .connections import Connection
from .departures import Departures
from .durable import Durability
from .errors import TableClosedError
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
from .seats import Seat
from .sitout import SittingOut
from .standin import StandIns
from .timers import TableTimers

log = logging.getLogger(__name__)


def _iso(when: datetime) -> str:
    """A UTC time as ISO 8601 with ``Z`` (``2026-03-01T09:57:00.123Z``)."""
    return when.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _ignore(_msg: InboxMessage) -> None:
    """Where a stopped table's abandon timer would post (nowhere)."""


@dataclass(frozen=True)
class TableSpec:
    """How a table was created (validated by the manager).

    Attributes:
        game: registered game name.
        config: the partial rules config (validated by the game).
        num_seats: seats at the table.
        turn_timeout_seconds: the decision deadline.
        starting_stack: chips a seat gets when taken (poker games), else ``None``.
        bots: seat -> built-in bot kind (``"random"``/``"rule"``) for seats bots take.
        next_hand_pause_seconds: pause between poker hands.
        bot_delay_seconds: a bot's thinking time before it acts.
        idle_ttl_seconds: an idle table (finished, or waiting with no person connected) closes
            after this long.
        abandoned_ttl_seconds: see the attribute.
        abandon_after_seconds: a game or a table with no client connected for this long ends
            as ``abandoned`` (:mod:`.abandon`).
    """

    game: str
    config: dict[str, Any] = field(default_factory=dict)
    num_seats: int = 2
    turn_timeout_seconds: float = 10.0
    starting_stack: int | None = None
    bots: dict[int, str] = field(default_factory=dict)
    next_hand_pause_seconds: float = 3.0
    bot_delay_seconds: float = 0.5
    idle_ttl_seconds: float = 300.0
    abandoned_ttl_seconds: float = 1.0
    """An abandoned table (a game was played, and every client has left its seat since)
    closes after this long instead of ``idle_ttl_seconds``."""
    abandon_after_seconds: float = 60.0
    private: bool = False
    """A private table: not listed in the lobby; taking a seat or watching needs
    ``invite_code``."""
    invite_code: str | None = None
    """The private table's invite code (never in a summary)."""
    stand_in_after_timeouts: int = 3
    """Timeouts in a row after which a stand-in plays a person's seat; 0: never."""


class Table(GameFlow, Seating, TableTimers, Abandonment, Durability, StandIns, TableChat,
            Chips, SittingOut, Departures):
    """A live table. Only its own task (:meth:`run`) mutates it; others call :meth:`post`."""

    def __init__(self, table_id: str, rules: GameRules[Any], config: Any,
                 spec: TableSpec, *, store: Store, writer: GameWriter, clock: Clock,
                 log: TableLog | None = None,
                 seed_source: Callable[[int], bytes] | None = None) -> None:
        self.id = table_id
        self.rules = rules
        self.config = config
        self.spec = spec
        self.store = store
        self.writer = writer
        """Takes each finished game (:meth:`GameFlow._save`); the table never awaits saves."""
        self.clock = clock
        self.seats = [Seat(i) for i in range(spec.num_seats)]
        self.spectators: dict[str, Connection] = {}
        self.kicked: set[str] = set()
        """Player ids kicked from this table: never offered, nor granted, its rematch."""
        self.version = 0
        self.status: str = "waiting"
        self.inbox: asyncio.Queue[InboxMessage] = asyncio.Queue()
        self._deadline: float | None = None
        self._deadline_handle: Handle | None = None
        self._deadline_version: int | None = None
        """The version the running deadline was armed at (its decision point)."""
        self._pause_handle: Handle | None = None
        self._reap_handle: Handle | None = None
        self.stopped = False
        self.games_saved = 0
        self.had_client = False
        """Whether a client (person or SDK bot) ever held a seat here."""
        self.created_by: str | None = None
        """The id of the player who created the table (``None``: the server, e.g. a test or
        an old log); what ``max_live_tables_per_player`` counts. Survives a restore."""
        self.created_from: str | None = None
        """The client address that created the table over REST (``None``: anything else);
        what ``max_waiting_tables_per_address`` counts. Never in a summary, not restored."""
        self.created_at: datetime = clock.wall()
        """When the table was created (UTC; survives a restore)."""
        self.last_active_at: datetime = self.created_at
        self.idle_since: datetime | None = None
        """Wall time since which the table has been idle (:meth:`arm_reap`); kept in the
        snapshot, so a restart does not start its time to live again."""
        """The last time a client's request reached the table or its version changed (UTC;
        a restored table starts from the restore)."""
        self.abandon_watch = AbandonWatch(clock, self.post)
        GameFlow.__init__(self, seed_source)
        self.init_durability(log)
        self.init_chips()
        self.init_chat()
        self.stand_ins_done: list[dict[str, Any]] = []
        """Stand-in periods of the running game that ended when the holder came back."""

    # ----- outside interface ----------------------------------------------------------------
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
        self._error(msg.conn, "table.not_found", f"table {self.id!r} is closed", msg.msg,
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
                        self.end_step()
                        return
                    self.watch_abandon()
                    if version != self.version or isinstance(msg, ClientRequest):
                        self.last_active_at = self.clock.wall()
                    self.end_step()
                except Exception:  # a bug: log it and close the table (its state is suspect)
                    log.exception("table %s failed handling %s; closing it", self.id,
                                  type(msg).__name__)
                    self._close("error")
                    self.end_step()
                    return
                finally:
                    self.inbox.task_done()
        finally:
            self.stopped = True
            self._cancel_timers()
            self.abandon_watch.cancel()
            self._drain_inbox()
            self._break_cycles()

    def _break_cycles(self) -> None:
        """Drop the back-references that make a table a reference cycle (its fan-out and its
        abandon timer point back at it), so that a closed table is freed by reference counting
        alone. The GC tuning (``server/gctune.py``) freezes the heap every 10 s and collects
        frozen cycles only about once an hour: a closed table left to the cyclic collector
        (some 400 KiB for a finished Bazaar Blot match) stayed in memory until then."""
        self.fanout.table = None
        self.abandon_watch.post = _ignore

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
                self.begin_join(hold)
                try:
                    await self._join(conn, m, balance)
                finally:
                    self.end_join()
                if self.seat_of(conn) is not None or conn.id in self.spectators:
                    self.send_chat_history(conn)
            case ClientRequest(conn, p.Chat() as m):
                self.chat(conn, m)
            case ClientRequest(conn, p.Act() as m):
                await self._act(conn, m)
            case ClientRequest(conn, p.SitOut() as m):
                await self._sit_out(conn, m)
            case ClientRequest(conn, p.Leave() as m):
                await self._leave(conn, m)
            case ClientRequest(conn, p.Resync() as m):
                self._resync(conn, m)
            case Disconnected(conn):
                self._disconnected(conn)
            case DeadlineExpired(version):
                await self._deadline_expired(version)
            case NextHand(hand):
                if hand == self.hand and self.status == "between_hands":
                    await self.start_game_if_ready()
            case AbandonExpired(arming):
                if await self.abandon_expired(arming):
                    return True
            case Reap(version):
                if version == self.version and self.idle():
                    self._close("abandoned" if self.abandoned() else "idle")
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
                self._close(reason)
                return True
            case Fenced():
                self._fenced()
                return True
        return False

    # ----- requests -------------------------------------------------------------------------
    def _error(self, conn: Connection, code: ErrorCode, message: str, req: Any = None, *,
               behind: bool = False) -> None:
        """Answer ``req`` with an error (``behind``: outside a step, see
        :meth:`~.durable.Durability.send_behind`)."""
        ref = None
        if req is not None:
            ref = p.RequestRef(type=req.type, rid=req.rid,
                               action_id=getattr(req, "action_id", None))
        error = p.Error(code=code, message=message, table_id=self.id, version=self.version,
                        request=ref)
        (self.send_behind if behind else self.send)(conn, error)

    def seat_of(self, conn: Connection) -> Seat | None:
        """The seat this connection holds here, if any."""
        return next((s for s in self.seats if s.conn is conn), None)

    async def _act(self, conn: Connection, m: p.Act) -> None:
        seat = self.seat_of(conn)
        if seat is None:
            self._error(conn, "table.not_seated", "this connection holds no seat here", m)
            return
        if m.seat is not None and m.seat != seat.index:
            self._error(conn, "table.not_your_seat",
                        f"seat {m.seat} is not yours (you hold seat {seat.index})", m)
            return
        done = seat.answers.get(m.action_id)
        if done is not None:
            request, answer = done
            if request != (m.version, m.action):  # a reused id, not a retry: never "accepted"
                self._error(conn, "table.action_id_reused",
                            f"action_id {m.action_id!r} was already accepted for another action "
                            f"(version {request[0]}); use a fresh id", m)
                return
            self.send(conn, Frame({**answer.data, "duplicate": True, "rid": m.rid}))
            self.send(conn, self.state_for(conn, seat.index))
            return
        if self.recorder is None or self.status != "playing":
            self._error(conn, "table.no_game", f"no game is running (status {self.status})", m)
            return
        if not self.game_version <= m.version <= self.version:
            self._error(conn, "table.stale_version",
                        f"action made against version {m.version}; the table is at {self.version}"
                        f" (game state of version {self.game_version})", m)
            return
        gs = self.game_seat(seat.index)
        if gs is None:
            self._error(conn, "engine.not_your_turn", f"seat {seat.index} is not in this hand", m)
            return
        try:
            events = self.recorder.act(gs, dict(m.action), t_ms=self.t_ms())
        except EngineError as exc:
            self._error(conn, exc.code, exc.message, m)
            return
        self.version += 1
        answer = Frame({"type": "accepted", "table_id": self.id, "version": self.version,
                        "action_id": m.action_id, "duplicate": False, "rid": m.rid})
        seat.remember(m.action_id, (m.version, copy.deepcopy(m.action)), answer)
        seat.timeouts = 0
        self.send(conn, answer)
        await self.after_action(events, seat.index, timeout=False)

    def _resync(self, conn: Connection, m: p.Resync) -> None:
        seat = self.seat_of(conn)
        if seat is None and conn.id not in self.spectators:
            self._error(conn, "table.not_joined", "join the table first", m)
            return
        self.send(conn, self.state_for(conn, None if seat is None else seat.index))
