"""The table log writer: every live table's steps reach the database before anyone sees them.

A table hands the log entries of one step to :meth:`TableLog.append` together with a callback
(``on_durable``) that sends the step's frames; the append returns at once (no await, no I/O on
the table's task). A step's finished games (its ``outbox``) go from the log to the game writer
(:attr:`TableLog.writer`) once the step is committed: one way, table -> log -> writer. One writer task per server takes everything appended since its last commit,
by every table, and writes it with one :meth:`~cardhall.storage.interface.Store.write_log` call,
one transaction (a *group commit*); then it runs the callbacks in append order. So a client
never sees a step the database does not hold, and the cost of a commit is shared by every step
ready in the same loop turn.

**Outages.** A commit that fails (connection refused, database locked, a call past
``db_timeout_seconds``) is retried with capped exponential backoff, forever: the entries stay
buffered in memory, in order. A commit that has not landed ``sync_timeout_seconds`` after it
began puts the log in *degraded* mode (:attr:`TableLog.healthy` false): every step not committed
yet, and every later one, is written to the local *spill* (``storage/spill.py``, an fsync'd
SQLite file; :mod:`.spiller` runs it) and its frames go out as soon as it is there, so tables
keep playing (and timers keep firing) through the outage and a process that dies meanwhile
loses nothing: the next start replays the spill into the database before restoring any table.
What is buffered is committed when the database answers again, and the log is healthy again
once a commit lands within ``sync_timeout_seconds`` (or nothing waits). Without a spill (none
configured) the frames go out undurable, as before: a crash then loses the buffered steps.
:attr:`TableLog.backlog` above :attr:`TableLog.max_backlog` makes the table manager refuse new
tables (503) and ``/readyz`` report not ready; existing tables go on.

**A commit cut short.** A connection lost during ``COMMIT`` leaves it unknown whether the
transaction landed. When the retry is then refused for a duplicate entry, the log reads one
entry of the failed batch back (:meth:`Store.load_log`): if it is there as written, the whole
batch (one transaction) landed and is counted committed, not lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections import deque
from collections.abc import Awaitable, Callable

from prometheus_client import Histogram

from .interface import ChipMove, GameRecord, LogRow, Store
from .log_fallback import Fallback
from .log_steps import _Append, _call, merge, merge_batches
from .spill import Spill
from .spiller import Spiller
from .writer import GameWriter, record_error

__all__ = ["LATENCY_BUCKETS", "TableLog", "_Append", "merge", "merge_batches"]

log = logging.getLogger(__name__)

LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
                   5.0, 10.0, 30.0)
"""Histogram buckets (seconds) of the log's append latency."""


class TableLog(Fallback):
    """Group-commits table log entries on its own task (see the module docstring).

    Args:
        store: where the log goes (:meth:`Store.write_log`).
        max_backlog: entries that may wait before :attr:`full` (new tables are refused).
        sync_timeout_seconds: how long a step's frames wait for its commit before the log
            degrades and releases them.
        db_timeout_seconds: the most one commit may take before it counts as failed.
        backoff_seconds, max_backoff_seconds: the wait after a failed commit, doubling per
            failure up to the cap.
        sleep: how to wait between retries (tests pass a fake).
        spill: the local spill (``storage/spill.py``) that holds the steps whose frames go
            out before their commit; ``None``: they go out undurable while degraded.
        commit_interval_seconds: the least time from one commit's start to the next one's
            (``log_commit_interval_seconds``): steps that come meanwhile wait and go in the
            next commit together. A commit costs about 0.9 ms of the server's CPU however few
            steps it carries; a saturated log (commits longer than this) never waits.

    Counters (read any time): :attr:`appended` (steps), :attr:`commits`, :attr:`failures`
    (failed commits), :attr:`lost` (entries dropped because the database refused them as
    invalid), the gauge :attr:`backlog` and the histogram :attr:`append_seconds` (append to
    durable, per step); the spill's :attr:`spiller` figures (``spilled``, ``rows``,
    ``failing``) and :attr:`unspilled_lost` (steps neither committed nor spilled at
    :meth:`close`: lost).
    """

    def __init__(self, store: Store, *, max_backlog: int = 200_000,
                 sync_timeout_seconds: float = 1.0, db_timeout_seconds: float = 5.0,
                 backoff_seconds: float = 0.05, max_backoff_seconds: float = 2.0,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
                 spill: Spill | None = None, commit_interval_seconds: float = 0.0) -> None:
        self.store = store
        self.commit_interval_seconds = commit_interval_seconds
        self._last_start = -math.inf
        """When the latest commit began (``time.perf_counter``)."""
        self.writer: GameWriter | None = None
        """Where each committed step's outbox games go (set by the table manager,
        :meth:`deliver_to`); ``None``: they stay in the outbox (re-submitted at the next
        start)."""
        self.max_backlog = max_backlog
        self.sync_timeout_seconds = sync_timeout_seconds
        self.db_timeout_seconds = db_timeout_seconds
        self.backoff_seconds = backoff_seconds
        self.max_backoff_seconds = max_backoff_seconds
        self._sleep = sleep
        self._pending: deque[_Append] = deque()
        self._inflight: list[_Append] = []
        self._wake = asyncio.Event()
        self._hurry = asyncio.Event()
        """Set by :meth:`flush` (and so :meth:`close`): commit now, not at the interval."""
        self._task: asyncio.Task[None] | None = None
        self._closing = False
        self._waiters: list[tuple[int, asyncio.Future[None]]] = []
        self._done = 0
        """Appends committed (or dropped as refused), in append order."""
        self._late = False
        """The running (or latest) commit passed ``sync_timeout_seconds``."""
        self.healthy = True
        """False while degraded: a commit failed or is late; frames go out undurable."""
        self.backlog = 0
        """Entries appended and not committed yet."""
        self.appended = 0
        self.commits = 0
        self.failures = 0
        self.lost = 0
        self.fenced = 0
        """Steps refused because their table's lease epoch was superseded (cluster mode)."""
        self._fenced_now: set[str] = set()
        self._unsure: list[list[_Append]] = []
        """The attempts since the last commit that failed for a reason other than their
        records: one of them may have landed (a connection lost during ``COMMIT``). Each is
        a prefix of the steps waiting, so at most one landed."""
        self._held = 0
        """Appends whose frames are not released yet."""
        self._settled = asyncio.Event()
        self._settled.set()
        self.unspilled_lost = 0
        self.spiller = None if spill is None else Spiller(
            spill, self._release, self._wake.set, lambda: self.healthy, sleep=sleep,
            backoff_seconds=backoff_seconds, max_backoff_seconds=max_backoff_seconds)
        self.append_seconds = Histogram(
            "cardhall_log_append_seconds", "Time from a table step to its log commit",
            buckets=LATENCY_BUCKETS, registry=None)

    def deliver_to(self, writer: GameWriter) -> None:
        """Hand the outbox games of every step committed from now on to ``writer``."""
        self.writer = writer

    @property
    def full(self) -> bool:
        """Whether the backlog has reached :attr:`max_backlog` (refuse new tables)."""
        return self.backlog >= self.max_backlog

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def start(self) -> None:
        """Start the writer task on the running loop.

        Raises:
            RuntimeError: already started or closed, or no running loop.
        """
        if self._task is not None or self._closing:
            raise RuntimeError("the table log was already started or closed")
        self._task = asyncio.get_running_loop().create_task(self._run(), name="table-log")
        if self.spiller is not None:
            self.spiller.start()

    def append(self, table_id: str, rows: list[LogRow], *, compact: int | None = None,
               drop: bool = False, outbox: list[GameRecord] | None = None,
               on_durable: Callable[[], None] | None = None,
               on_commit: Callable[[], None] | None = None, epoch: int | None = None,
               on_fenced: Callable[[], None] | None = None,
               chips: list[ChipMove] | None = None) -> None:
        """Queue one step of ``table_id``; ``on_durable`` runs once it is committed (while
        degraded: once it is in the spill, or at once without a spill); the step's ``outbox``
        games go to :attr:`writer` and ``on_commit`` runs only once it is committed, never
        early (saved before their outbox rows landed, the games would stay in the outbox),
        or at :meth:`close` if it never was. ``compact``: delete
        the table's entries before that ``seq``; ``drop``: delete all of them (the table
        closed). ``epoch`` (cluster mode): the table's lease epoch; when the database holds
        another (the table was taken over), nothing of the step is written, its callbacks never
        run and ``on_fenced`` runs instead (``docs/scaling.md``). Never blocks, never raises
        for the database. ``chips``: the step's balance moves (buy-ins, cash-outs), written
        in the same transaction as its rows."""
        a = _Append(table_id, rows, compact, drop, list(outbox or ()), on_durable, on_commit,
                    epoch, on_fenced, list(chips or ()))
        self._pending.append(a)
        self.appended += 1
        a.n = self.appended
        self.backlog += a.size()
        if on_durable is not None:
            self._held += 1
            self._settled.clear()
        self._wake.set()
        if self._closing and not self.running:
            self._release([a])
        elif self.spiller is not None and (self.spiller.active or not self.healthy):
            self.spiller.take([a])
        elif not self.healthy:
            self._release([a])

    async def flush(self, timeout: float | None = None) -> bool:
        """Wait until everything appended before this call is committed; ``False`` if that did
        not happen within ``timeout`` seconds (or the task is not running)."""
        target = self.appended
        if self._done >= target:
            return True
        if not self.running:
            return False
        self._hurry.set()
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.append((target, fut))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(fut), timeout)
        return fut.done()

    async def settle(self, timeout: float | None = None) -> bool:
        """Wait until every step appended so far is durable (committed, or in the spill) and
        its frames released; ``False`` if not within ``timeout`` seconds. Without a spill, the
        same as :meth:`flush`."""
        if self.spiller is None:
            return await self.flush(timeout)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._settled.wait(), timeout)
        return self._settled.is_set()

    async def close(self, timeout: float | None = None) -> bool:
        """Flush (at most ``timeout`` seconds), then stop the task. With a spill, what is not
        committed within ``min(timeout, sync_timeout_seconds)`` is spilled instead (the rest
        of ``timeout`` bounds that) and replayed at the next start. Returns whether nothing
        was lost (every step committed or spilled); what was lost is logged."""
        loop = asyncio.get_running_loop()
        end = None if timeout is None else loop.time() + timeout
        first = self.sync_timeout_seconds if timeout is None else min(
            timeout, self.sync_timeout_seconds)
        ok = await self.flush(first if self.spiller is not None else timeout)
        spiller = self.spiller
        if not ok and spiller is not None:
            spiller.take(list(self._inflight) + list(self._pending))
            await spiller.drained(None if end is None else max(end - loop.time(), 0.1))
            ok = await self.flush(0) or all(a.spilled for a in self._uncommitted())
        self._closing = True
        self._wake.set()
        if self._task is not None and not self._task.done():
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        left = self._uncommitted()
        unspilled = [a for a in left if not a.spilled and a.size()]
        if spiller is not None:
            if not left:  # the forgets of the last commits: an empty spill is removed
                await spiller.drained(min(1.0, self.sync_timeout_seconds))
            await spiller.stop(remove_if_empty=not left)
            if left and not unspilled:
                log.warning("table log: %d step(s) not committed at shutdown are kept in the "
                            "spill %s; the next start writes them into the database first",
                            len(left), spiller.spill.path)
        if unspilled:
            self.unspilled_lost += len(unspilled)
            log.error("table log: %d entries not committed at shutdown; those steps are lost",
                      sum(a.size() for a in unspilled))
        self._release(left)
        self._run_commit(left)  # a last chance for their games (the writer closes next)
        return not unspilled

    def _uncommitted(self) -> list[_Append]:
        return list(self._inflight) + list(self._pending)

    # ----- the task ---------------------------------------------------------------------------
    def _take(self) -> list[_Append]:
        """The next batch: the pending steps up to the first one flagged for the spill and
        not spilled yet (a step in use of the spill is spilled before it is committed; while
        the spill fails, it is not waited for)."""
        failing = self.spiller is not None and self.spiller.failing
        out = []
        while self._pending:
            a = self._pending[0]
            if a.spill and not a.spilled and not failing:
                break
            out.append(self._pending.popleft())
        return out

    async def _run(self) -> None:
        delay = self.backoff_seconds
        while True:
            wait = self._last_start + self.commit_interval_seconds - time.perf_counter()
            if wait > 0 and self._pending and not self._hurry.is_set():
                # the steps that come meanwhile join this commit (not wait_for: on 3.11 it
                # can swallow a cancel that comes as the wait ends, and close() would hang)
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(wait):
                        await self._hurry.wait()
            self._hurry.clear()
            batch = self._take()
            if not batch:
                self._wake.clear()
                await self._wake.wait()
                continue
            self._inflight = batch
            error = await self._commit(self._inflight)
            refused = error is not None and record_error(error)
            if error is not None and refused and self._unsure:
                error = await self._settle_unsure(error)  # a read-back failure, or the refusal
                if error is None:
                    continue
            if error is not None and record_error(error):
                error = await self._one_by_one(self._inflight)
            if error is None:
                delay = self.backoff_seconds
                self._unsure = []
                self._committed(self._inflight)
                continue
            self.failures += 1
            self.healthy = False
            if not refused:  # it may have landed (a refused one did not)
                self._unsure.append(list(self._inflight))
            if self.spiller is not None:
                self.spiller.take(self._inflight + list(self._pending))
            else:
                self._release(self._inflight)
            self._pending.extendleft(reversed(self._inflight))  # keep the order
            self._inflight = []
            log.warning("table log: commit failed (%s: %s); %d entries buffered, retrying in "
                        "%.2f s", type(error).__name__, error, self.backlog, delay)
            await self._sleep(delay)
            delay = min(self.max_backoff_seconds, delay * 2)

    async def _commit(self, appends: list[_Append]) -> Exception | None:
        """Write ``appends`` in one transaction; ``None`` on success, else the error."""
        loop = asyncio.get_running_loop()
        self._late = False
        self._last_start = time.perf_counter()
        late = loop.call_later(self.sync_timeout_seconds, self._degrade)
        try:
            async with asyncio.timeout(self.db_timeout_seconds):
                fenced = await self.store.write_log(merge(appends))
            if fenced:
                self._fenced_now |= fenced
        except Exception as exc:  # any database failure: buffered and retried
            return exc
        finally:
            late.cancel()
        return None

    def _degrade(self) -> None:
        """The running commit is late: release every waiting step's frames now."""
        if self.healthy:
            log.warning("table log: a commit is taking over %.1f s; frames go out before "
                        "their steps are durable until the database catches up",
                        self.sync_timeout_seconds)
        self.healthy = False
        self._late = True
        if self.spiller is not None:
            self.spiller.take(self._inflight + list(self._pending))
        else:
            self._release(self._inflight)
            self._release(list(self._pending))

    def _committed(self, appends: list[_Append]) -> None:
        now = time.perf_counter()
        self.commits += 1
        fenced, self._fenced_now = self._fenced_now, set()
        if fenced:
            self._refuse(appends, fenced)
        for a in appends:
            self.backlog -= a.size()
            self.append_seconds.observe(now - a.t)
        self._done += len(appends)
        self._release(appends)
        self._run_commit(appends)
        self._inflight = []
        if not self._pending or not self._late:
            # caught up, or the database answers in time again (on a busy server steps wait
            # after every commit: those are released already and go with the next one)
            if not self.healthy:
                log.info("table log: the database answers in time again; healthy again")
            self.healthy = True
        if self.spiller is not None and appends:
            self.spiller.forget(max(a.n for a in appends))
        keep = []
        for target, fut in self._waiters:
            if self._done >= target:
                if not fut.done():
                    fut.set_result(None)
            else:
                keep.append((target, fut))
        self._waiters = keep

    def _refuse(self, appends: list[_Append], fenced: set[str]) -> None:
        """The steps of ``fenced`` tables were not written: their frames and games are dropped
        (the new owner replays the table from the log) and their tables told."""
        for a in appends:
            if a.table_id in fenced:
                self.fenced += 1
                if a.on_durable is not None:
                    self._unhold()
                a.on_durable = a.on_commit = None
                a.to_writer = False
                fn, a.on_fenced = a.on_fenced, None
                _call(fn, a)

    def _release(self, appends: list[_Append]) -> None:
        for a in appends:
            fn, a.on_durable = a.on_durable, None
            if fn is not None:
                self._unhold()
            _call(fn, a)

    def _unhold(self) -> None:
        self._held -= 1
        if self._held <= 0:
            self._held = 0
            self._settled.set()

    def _run_commit(self, appends: list[_Append]) -> None:
        """The steps committed (or the log closes): their games go to the writer."""
        for a in appends:
            if a.to_writer and a.outbox and self.writer is not None:
                for record in a.outbox:
                    self.writer.submit(record)
            a.to_writer = False
            fn, a.on_commit = a.on_commit, None
            _call(fn, a)
