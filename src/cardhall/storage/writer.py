"""The game writer: finished games are saved off the tables' tasks, in batches.

A table hands its finished game to :meth:`GameWriter.submit` (never blocks, never awaits) and goes
on; one writer task per server takes whatever is queued (up to ``batch_size`` records) and saves
it with one :meth:`~cardhall.storage.interface.Store.save_games` call, i.e. one transaction. Under
load the batches grow by themselves: while one transaction runs, the next batch queues up.

A batch the database refuses because of a record (:func:`record_error`: a constraint, a value)
is split and its records are saved one at a time, so one bad record loses only itself. Any other
failure (connection lost, timeout, database locked) is retried with bounded exponential backoff.
What still fails is logged and counted in :attr:`GameWriter.failed`: that game is lost
(``docs/storage.md``, "What a lost save means now").
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Sequence

from prometheus_client import Histogram
from sqlalchemy.exc import DataError, DBAPIError, IntegrityError, StatementError

from .interface import GameRecord, Store

log = logging.getLogger(__name__)


def record_error(exc: BaseException) -> bool:
    """Whether ``exc`` says something in the records is wrong (a constraint, a value, a
    document that cannot be serialised), so that trying the same batch again cannot help.
    Anything else (connection lost, timeout, database locked) may pass and is retried."""
    if isinstance(exc, IntegrityError | DataError | TypeError | ValueError):
        return True
    if isinstance(exc, StatementError) and not isinstance(exc, DBAPIError):
        return isinstance(exc.orig, TypeError | ValueError)  # raised while binding a value
    return False


CLOSE_TIMEOUT_SECONDS = 30.0
"""How long a server shutdown waits for the writer to save what is queued (:meth:`GameWriter.close`);
a database that hangs past it loses those games (logged) instead of hanging the shutdown."""


class WriterClosedError(RuntimeError):
    """:meth:`GameWriter.submit` after :meth:`GameWriter.close` began."""


class GameWriter:
    """Batches finished games into :meth:`Store.save_games` transactions on its own task.

    Args:
        store: where the games go (any :class:`~cardhall.storage.interface.Store`).
        batch_size: most records per transaction (>= 1).
        max_attempts: tries of one transaction that fails for a reason other than its records
            (>= 1); then its records are lost. ``None``: try until it lands (the durable
            server, whose finished games wait in the outbox meanwhile).
        backoff_seconds: wait after the first failed try; doubles per try, capped at
            ``max_backoff_seconds``. With the defaults a batch is tried over about 3 s.
        max_backoff_seconds: the cap of one wait.
        max_queued: records that may wait (the database down or slow); a record submitted
            beyond is refused at once, logged as lost and counted in :attr:`failed`.
        sleep: how to wait (tests pass a fake that records the delays).
        outbox: the records are also kept in the store's outbox (``storage/log.py``): what
            :meth:`close` or a full queue leaves unsaved is counted in :attr:`deferred` (saved
            after the next start), not lost.
        db_timeout_seconds: the most one transaction may take before it counts as failed.

    Counters (plain attributes, read them any time): :attr:`submitted`, :attr:`saved`,
    :attr:`duplicates`, :attr:`failed`, :attr:`retries`, :attr:`attempts_failed`,
    :attr:`batches`, :attr:`deferred`, the property :attr:`queued` and the histogram
    :attr:`save_seconds` (submit to saved).

    Raises:
        ValueError: ``batch_size`` or ``max_attempts`` below 1, or a negative backoff.
    """

    def __init__(self, store: Store, *, batch_size: int = 256, max_attempts: int | None = 6,
                 backoff_seconds: float = 0.1, max_backoff_seconds: float = 2.0,
                 max_queued: int = 100_000,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
                 outbox: bool = False, db_timeout_seconds: float | None = None) -> None:
        if batch_size < 1 or (max_attempts is not None and max_attempts < 1):
            raise ValueError(f"batch_size and max_attempts must be >= 1, got {batch_size}, "
                             f"{max_attempts}")
        if backoff_seconds < 0 or max_backoff_seconds < 0:
            raise ValueError("backoff must not be negative")
        self.store = store
        self.batch_size = batch_size
        self.max_attempts = max_attempts
        self.backoff_seconds = backoff_seconds
        self.max_backoff_seconds = max_backoff_seconds
        self.max_queued = max_queued
        """Records that may wait; beyond, a submitted record is refused and counted in
        :attr:`failed` (a database down for long must not exhaust the server's memory)."""
        self._sleep = sleep
        self.outbox = outbox
        self.db_timeout_seconds = db_timeout_seconds
        self._queue: deque[GameRecord] = deque()
        self._submitted_at: dict[str, float] = {}
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._closing = False
        self._accepted = 0
        """Records taken into the queue (a refused one is not): a flush waits by this count."""
        self._finished = 0
        """Accepted records finished (saved, found already saved, or lost), in queue order."""
        self._inflight: list[GameRecord] = []
        """The batch being written (lost, and counted, if :meth:`close` gives up on it)."""
        self._waiters: list[tuple[int, asyncio.Future[None]]] = []
        self.submitted = 0
        """Records handed to :meth:`submit` (those refused by a full queue included; they
        are counted in :attr:`failed` too)."""
        self.saved = 0
        """Records this writer stored."""
        self.duplicates = 0
        """Records whose ``game_id`` was already stored (nothing written for them)."""
        self.failed = 0
        """Records given up after every attempt: lost games."""
        self.retries = 0
        """Failed transactions that were tried again."""
        self.batches = 0
        """Committed transactions."""
        self.attempts_failed = 0
        """Transactions that failed (each try counts; a database outage moves it)."""
        self.deferred = 0
        """Records left unsaved in the outbox (:attr:`outbox`): saved after the next start."""
        self.save_seconds = Histogram(
            "cardhall_writer_save_seconds", "Time from a finished game to its games row",
            buckets=(0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1.0, 5.0, 30.0, 120.0, 600.0),
            registry=None)

    @property
    def queued(self) -> int:
        """Records submitted and not finished yet (waiting, or in the transaction running)."""
        return self._accepted - self._finished

    @property
    def running(self) -> bool:
        """Whether the writer task is alive."""
        return self._task is not None and not self._task.done()

    def start(self) -> None:
        """Start the writer task on the running loop (records submitted before wait for it).

        Raises:
            RuntimeError: no running event loop, already started, or closed.
        """
        if self._task is not None or self._closing:
            raise RuntimeError("the game writer was already started or closed")
        self._task = asyncio.get_running_loop().create_task(self._run(), name="game-writer")
        self._task.add_done_callback(self._task_done)

    def submit(self, record: GameRecord) -> None:
        """Queue one finished game; returns at once (no await, no I/O).

        Raises:
            WriterClosedError: :meth:`close` has begun; the record is not taken.
        """
        if self._closing:
            raise WriterClosedError(f"the game writer is closed; game {record.game_id} not saved")
        if len(self._queue) >= self.max_queued:
            # not accepted: finished at once, outside the queue order a flush waits by
            self.submitted += 1
            if self.outbox:
                self.deferred += 1
                log.error("game writer: %d games waiting (max_queued); game %s stays in the "
                          "outbox until the next start", len(self._queue), record.game_id)
                return
            self.failed += 1
            log.error("game writer: %d games waiting (max_queued); game %s LOST",
                      len(self._queue), record.game_id)
            return
        self._queue.append(record)
        self._submitted_at[record.game_id] = time.perf_counter()
        self.submitted += 1
        self._accepted += 1
        self._wake.set()

    async def flush(self) -> None:
        """Wait until every record submitted before this call is finished (saved, found
        already saved, or counted in :attr:`failed`).

        Raises:
            RuntimeError: records are pending but the writer task is not running (never
                started, or it died; the latter is a bug and is logged).
        """
        target = self._accepted
        if self._finished >= target:
            return
        if not self.running:
            raise RuntimeError(f"the game writer is not running; {self.queued} records pending")
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.append((target, fut))
        await fut

    async def close(self, timeout: float | None = None) -> None:
        """Refuse new records, save everything queued, then stop the task (idempotent).

        ``timeout``: the most seconds to wait for that (``None``: as long as it takes). When
        the database hangs (a transaction that never returns), the writer task is cancelled
        then and what it had not saved is counted in :attr:`failed` and logged as lost,
        instead of holding the server's shutdown forever.

        A writer that was never started counts what it holds as :attr:`failed`.
        """
        self._closing = True
        task = self._task
        if task is not None and not task.done():
            self._wake.set()
            with contextlib.suppress(Exception):  # a crashed task was logged by _task_done
                await asyncio.wait_for(asyncio.shield(task), timeout)
            if not task.done():  # timed out: the database does not answer
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        if self._inflight:
            self._give_up(self._inflight, "the writer stopped while saving them")
            self._finished += len(self._inflight)
            self._inflight = []
            self._release_waiters()
        if self._queue:
            why = "the writer was never started" if self._task is None else "the writer stopped"
            self._give_up(list(self._queue), why)
            self._finished += len(self._queue)
            self._queue.clear()
            self._release_waiters()

    # ----- the task ---------------------------------------------------------------------------
    async def _run(self) -> None:
        while True:
            if not self._queue:
                if self._closing:
                    return
                self._wake.clear()
                await self._wake.wait()
                continue
            n = min(self.batch_size, len(self._queue))
            batch = [self._queue.popleft() for _ in range(n)]
            self._inflight = batch
            await self._write(batch)
            self._finished += len(self._inflight)  # what the split below did not count
            self._inflight = []
            self._release_waiters()

    async def _write(self, batch: list[GameRecord]) -> None:
        """Save ``batch``; a record error splits it into single records; count the losses."""
        error, of_a_record = await self._attempt(batch)
        if error is None:
            return
        if not of_a_record or len(batch) == 1:
            self._give_up(batch, error, of_a_record=of_a_record)
            return
        log.warning("game writer: a batch of %d was refused (%s); saving one by one",
                    len(batch), error)
        for i, record in enumerate(batch):
            single_error, bad = await self._attempt([record])
            if single_error is not None:
                self._give_up([record], single_error, of_a_record=bad)
            # finished (saved or lost): close() must not count it lost again
            self._inflight = batch[i + 1:]
            self._finished += 1

    async def _attempt(self, batch: Sequence[GameRecord]) -> tuple[str | None, bool]:
        """One transaction; a failure that is not :func:`record_error` is tried again after a
        backoff, up to ``max_attempts`` tries. ``(None, False)`` when saved, else
        ``(last error, whether it was a record error)``."""
        delay = self.backoff_seconds
        attempt = 0
        while True:
            attempt += 1
            try:
                async with asyncio.timeout(self.db_timeout_seconds):
                    flags = await (self.store.save_games(batch, from_outbox=True) if self.outbox
                                   else self.store.save_games(batch))
            except Exception as exc:  # any store failure: retried or split, then counted
                self.attempts_failed += 1
                error = f"{type(exc).__name__}: {exc}"
                if record_error(exc):
                    return error, True
                if self.max_attempts is not None and attempt >= self.max_attempts:
                    return error, False
                self.retries += 1
                log.info("game writer: attempt %d of %s failed (%s); retrying in %.2f s",
                         attempt, self.max_attempts or "unlimited", error, delay)
                await self._sleep(delay)
                delay = min(self.max_backoff_seconds, delay * 2)
            else:
                self.batches += 1
                stored = sum(flags)
                self.saved += stored
                self.duplicates += len(batch) - stored
                now = time.perf_counter()
                for r in batch:
                    t = self._submitted_at.pop(r.game_id, None)
                    if t is not None:
                        self.save_seconds.observe(now - t)
                if stored:
                    log.info("game writer: saved %d game(s) in one transaction", stored)
                return None, False

    def _give_up(self, records: Sequence[GameRecord], error: str, *,
                 of_a_record: bool = False) -> None:
        if not records:
            return
        for r in records:
            self._submitted_at.pop(r.game_id, None)
        if self.outbox and not of_a_record:
            self.deferred += len(records)
            log.warning("game writer: %d finished game(s) not saved yet (%s); they stay in the "
                        "outbox and are saved after the next start", len(records), error)
            return
        self.failed += len(records)
        ids = ", ".join(r.game_id for r in records[:5])
        more = f" and {len(records) - 5} more" if len(records) > 5 else ""
        log.error("game writer: LOST %d finished game(s) (%s%s): %s", len(records), ids, more,
                  error)

    def _release_waiters(self) -> None:
        keep = []
        for target, fut in self._waiters:
            if fut.done():
                continue
            if self._finished >= target:
                fut.set_result(None)
            else:
                keep.append((target, fut))
        self._waiters = keep

    def _task_done(self, task: asyncio.Task[None]) -> None:
        """Wake every :meth:`flush` if the task ended early (cancelled or a bug)."""
        if not task.cancelled() and task.exception() is not None:
            log.error("game writer task died", exc_info=task.exception())
        if self._closing:
            return  # close() counts what the task left and releases the waiters
        for _, fut in self._waiters:
            if not fut.done():
                fut.set_exception(RuntimeError("the game writer task stopped"))
        self._waiters = []
