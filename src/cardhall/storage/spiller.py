"""The table log's spill worker: writes steps to the local spill (``storage/spill.py``) in
append order, on one thread, and releases their frames once they are fsync'd.

Owned by :class:`~cardhall.storage.log.TableLog`. While *active* (from the moment a commit is
late or fails until the spill is empty again and the log healthy), every step the log takes is
*flagged*: it is queued here, written to the spill before the log may commit it, and its frames
go out once it is written (or once it is committed, whichever is first). A commit that lands
queues a *forget* of every step up to it. Writes and forgets run in one FIFO, so a forget never
overtakes the write of a step it covers.

A spill that fails (disk full, permissions) is retried with backoff; meanwhile
:attr:`Spiller.failing` is set, the flagged steps' frames wait for their commit (nothing goes out
that is neither committed nor spilled) and the log may commit them without spilling them first.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from . import spill as spill_file

if TYPE_CHECKING:
    from .log import _Append

log = logging.getLogger("cardhall.storage.log")


class Spiller:
    """The FIFO of spill writes and forgets and its task (see the module docstring).

    Args:
        spill: the file.
        release: releases the frames of written steps (the log's ``_release``).
        wake: called after each write (the log may commit what was spilled).
        healthy: whether the log is healthy now (the spill goes inactive only then).
        sleep: how to wait between retries of a failing spill (tests pass a fake).

    Figures: :attr:`spilled` (steps written, total), :attr:`rows` (steps in the file now),
    :attr:`failures` (failed spill writes), :attr:`failing`, :attr:`active`.
    """

    def __init__(self, spill: spill_file.Spill, release: Callable[[list[_Append]], None],
                 wake: Callable[[], None], healthy: Callable[[], bool], *,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
                 backoff_seconds: float = 0.05, max_backoff_seconds: float = 2.0) -> None:
        self.spill = spill
        self._release, self._wake_log, self._healthy = release, wake, healthy
        self._sleep = sleep
        self.backoff_seconds, self.max_backoff_seconds = backoff_seconds, max_backoff_seconds
        self._ops: deque[tuple[str, Any]] = deque()
        self._wake = asyncio.Event()
        self._idle = asyncio.Event()
        self._idle.set()
        self._task: asyncio.Task[None] | None = None
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="log-spill")
        self.active = False
        self.failing = False
        self.last_error = ""
        self.spilled = 0
        self.rows = 0
        self.failures = 0

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name="log-spill")

    def take(self, appends: list[_Append]) -> None:
        """Activate and flag ``appends`` (those not flagged yet): written in this order."""
        self.active = True
        for a in appends:
            if a.spill:
                continue
            try:
                doc = spill_file.encode(a.table_id, a.rows, a.compact, a.drop, a.outbox,
                                        a.chips, a.epoch)
            except (TypeError, ValueError) as exc:  # the database will refuse it as well
                log.error("table log: a step of table %s cannot be spilled (%s); it waits for "
                          "its commit", a.table_id, exc)
                continue
            a.spill = True
            self._ops.append(("write", (a, doc)))
        self._kick()

    def forget(self, through: int) -> None:
        """Steps up to ``through`` (append numbers) are committed: delete them from the file."""
        if self.active or self.rows:
            self._ops.append(("forget", through))
            self._kick()

    def writes_queued(self) -> int:
        return sum(1 for kind, _ in self._ops if kind == "write")

    async def drained(self, timeout: float | None) -> bool:
        """Wait until every queued write and forget ran (at most ``timeout`` seconds)."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._idle.wait(), timeout)
        return not self._ops

    async def stop(self, *, remove_if_empty: bool) -> None:
        """Stop the task (what is queued stays unwritten) and close the file."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        loop = asyncio.get_running_loop()
        with contextlib.suppress(Exception):
            await loop.run_in_executor(self._pool, lambda: self.spill.close(
                remove_if_empty=remove_if_empty))
        self._pool.shutdown(wait=False)

    def _kick(self) -> None:
        self._idle.clear()
        self._wake.set()

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        delay = self.backoff_seconds
        while True:
            if not self._ops:
                self._idle.set()
                self._wake.clear()
                await self._wake.wait()
                continue
            kind, _ = self._ops[0]
            group: list[Any] = []
            while self._ops and self._ops[0][0] == kind and len(group) < 10_000:
                group.append(self._ops.popleft()[1])
            try:
                if kind == "write":
                    steps = [(a.n, doc) for a, doc in group]
                    await loop.run_in_executor(self._pool, self.spill.write, steps)
                else:
                    left = await loop.run_in_executor(self._pool, self.spill.forget, max(group))
            except Exception as exc:  # disk full, permissions: retried; frames wait meanwhile
                self.failures += 1
                self.last_error = f"{type(exc).__name__}: {exc}"
                if not self.failing:
                    log.error("table log: the spill %s fails (%s); steps wait for their "
                              "commit, retrying", self.spill.path, self.last_error)
                self.failing = True
                self._ops.extendleft((kind, g) for g in reversed(group))
                self._wake_log()  # the log may commit unspilled steps while failing
                await self._sleep(delay)
                delay = min(self.max_backoff_seconds, delay * 2)
                continue
            if self.failing:
                log.info("table log: the spill %s works again", self.spill.path)
            self.failing, delay = False, self.backoff_seconds
            if kind == "write":
                appends = [a for a, _ in group]
                for a in appends:
                    a.spilled = True
                self.spilled += len(appends)
                self.rows += len(appends)
                self._release(appends)
                self._wake_log()
            else:
                self.rows = left
                if left == 0 and not self._ops and self._healthy():
                    self.active = False
