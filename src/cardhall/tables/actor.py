"""The table actor: one asyncio task owns one table (``design.md`` section 5).

Everything that changes a table goes through :meth:`Table.post` into its inbox and is handled,
one message at a time, by :meth:`Table.run`: the synchronous core (:class:`~.core.TableCore`,
the rules of play: seats, version, deadlines, stand-ins, chips, chat, sit-out, abandonment)
applies it and returns the step it made, and the actor carries the step out: it arms and
cancels the step's timers on the clock (:class:`~.timers.TimerBoard`; a fired timer posts its
message to the inbox), then its log entries go to the table log, whose commit releases the
step's messages (or they go out at once, or behind the steps still waiting). Each change bumps ``version``. A client action carries the
version it was made against and is refused as ``table.stale_version`` if the game state
changed since; an ``action_id`` already accepted for the seat is answered again, never
re-applied (:meth:`~.core.TableCore._act`). The actor keeps only the inbox, the admin's
:meth:`Table.call`, the armed timers and carrying steps out.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
from collections.abc import Callable
from typing import Any

from ..engine import GameRules
from ..storage.interface import Store
from ..storage.log import TableLog
from ..storage.writer import GameWriter
from .clock import Clock
from .core import Step, TableCore, iso, log
from .errors import TableClosedError
from .messages import ClientRequest, Control, InboxMessage
from .state import TableSpec
from .timers import TimerBoard

__all__ = ["Table", "TableSpec"]

_iso = iso  # the lobby's name for it


class Table(TableCore):
    """A live table. Only its own task (:meth:`run`) mutates it; others call :meth:`post`."""

    def __init__(self, table_id: str, rules: GameRules[Any], config: Any,
                 spec: TableSpec, *, store: Store, writer: GameWriter, clock: Clock,
                 log: TableLog | None = None,
                 seed_source: Callable[[int], bytes] | None = None) -> None:
        self.inbox: asyncio.Queue[InboxMessage] = asyncio.Queue()
        self.armed_timers = TimerBoard(clock, self.post)
        """The table timers the steps armed (one handle per kind)."""
        super().__init__(table_id, rules, config, spec, store=store, writer=writer,
                         clock=clock, log=log, seed_source=seed_source)

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

    async def run(self) -> None:
        """The actor loop: handle inbox messages one by one until closed."""
        try:
            while True:
                msg = await self.inbox.get()
                try:
                    if isinstance(msg, Control):
                        step = await self._control(msg)
                    else:
                        step = self.handle(msg)
                    self.carry(step)
                    if step.stop:
                        return
                finally:
                    self.inbox.task_done()
        finally:
            self.stopped = True
            self.timers.cancel()
            self.abandon_watch.cancel()
            self.timers.take()  # moot: the board cancels every handle
            self.armed_timers.close()
            self._drain_inbox()
            self._break_cycles()

    async def _control(self, msg: Control) -> Step:
        """Run an admin function inside the actor (:meth:`call`); its step."""
        version = self.version
        try:
            result = msg.fn(self)
            if inspect.isawaitable(result):
                result = await result
        except Exception as exc:
            if not msg.future.done():
                msg.future.set_exception(exc)
        else:
            if not msg.future.done():
                msg.future.set_result(result)
        try:
            return self.settle(msg, version, False)
        except Exception:
            log.exception("table %s failed handling %s; closing it", self.id,
                          type(msg).__name__)
            self.departures.close("error")
            return self.end_step(True)

    def carry(self, step: Step) -> None:
        """Carry a step out: its timers first (armed before any of its messages reaches a
        bot, which arms its thinking delay on the same clock), then its log entries to the
        table log, whose commit releases its messages; without entries, its messages go out
        now or behind the steps waiting."""
        self.armed_timers.apply(step.timers)
        table_log = self.durable.table_log
        if step.log is not None and table_log is not None:
            self.out.wait(step.frames)
            entry = step.log
            table_log.append(self.id, entry.rows, compact=entry.compact, drop=entry.drop,
                             outbox=entry.outbox,
                             on_durable=functools.partial(self.out.release, step.frames),
                             epoch=self.durable.lease_epoch, chips=entry.chips,
                             on_fenced=self.durable.on_fenced)
        elif step.frames:
            self.out.behind(step.frames)

    def _drain_inbox(self) -> None:
        while not self.inbox.empty():
            msg = self.inbox.get_nowait()
            if isinstance(msg, Control) and not msg.future.done():
                msg.future.set_exception(TableClosedError(f"table {self.id!r} closed"))
            elif isinstance(msg, ClientRequest):
                self._refuse_closed(msg)
            self.inbox.task_done()

