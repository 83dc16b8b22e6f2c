"""The table log's answers to a refused commit (mixed into
:class:`~cardhall.storage.log.TableLog`): a batch the database refuses for its records is
written step by step, and the retry of a commit cut short by a connection error is first
checked against the database (it may have landed: then it is committed, not lost)."""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from typing import TYPE_CHECKING

import orjson

from .log_steps import _Append, merge
from .writer import record_error

if TYPE_CHECKING:
    from .interface import Store

log = logging.getLogger("cardhall.storage.log")


class Fallback:
    """Row-by-row writes and the check of an unsure commit (see the module docstring)."""

    if TYPE_CHECKING:  # provided by TableLog
        store: Store
        db_timeout_seconds: float
        lost: int
        backlog: int
        _unsure: list[list[_Append]]
        _inflight: list[_Append]
        _pending: deque[_Append]
        _wake: asyncio.Event

        async def _commit(self, appends: list[_Append]) -> Exception | None: ...
        def _committed(self, appends: list[_Append]) -> None: ...

    async def _settle_unsure(self, error: Exception) -> Exception | None:
        """The retry of a batch whose commit was cut short is refused for its records: if
        that commit landed after all (:meth:`_landed`), count its steps committed and put the
        rest back to be committed next (returns ``None``); else return ``error`` (the steps
        are tried one by one). A failure to read back is returned (retried later)."""
        landed = None
        try:
            for attempt in reversed(self._unsure):
                if await self._landed(attempt):
                    landed = attempt
                    break
        except Exception as exc:  # the database is down again: retried with the batch
            return exc
        self._unsure = []
        if landed is None:
            return error
        done = {id(a) for a in landed}
        committed = [a for a in self._inflight + list(self._pending) if id(a) in done]
        rest = [a for a in self._inflight if id(a) not in done]
        self._pending = deque(a for a in self._pending if id(a) not in done)
        log.warning("table log: a commit of %d step(s) cut short by a connection error had "
                    "landed; counted committed (not lost)", len(committed))
        self._inflight = committed
        self._committed(committed)
        self._pending.extendleft(reversed(rest))
        self._wake.set()
        return None

    async def _landed(self, appends: list[_Append]) -> bool:
        """Whether the batch of ``appends`` (one transaction) is in the database: its last
        entry is stored, equal to what was written. A batch without entries cannot be told
        (``False``: its writes are idempotent, they are simply made again)."""
        rows = merge(appends).rows
        if not rows:
            return False
        probe = rows[-1]
        load = getattr(self.store, "load_log", None)
        if load is None:  # a store that cannot read its log back cannot tell
            return False
        async with asyncio.timeout(self.db_timeout_seconds):
            stored = await load(probe.table_id)
        found = next((r for r in stored if r.seq == probe.seq), None)
        return found is not None and found.kind == probe.kind and \
            orjson.loads(orjson.dumps(found.data)) == orjson.loads(orjson.dumps(probe.data))

    async def _one_by_one(self, appends: list[_Append]) -> Exception | None:
        """The database refused the batch for what is in it: write each step alone and drop
        (count and log) the ones it refuses. Returns a failure that is not of a record."""
        for a in appends:
            if a.size() == 0:
                continue
            error = await self._commit([a])
            if error is not None and not record_error(error):
                return error  # the steps written so far are emptied: not written twice
            if error is not None:
                self.lost += a.size()
                log.error("table log: a step of table %s was refused (%s: %s); LOST",
                          a.table_id, type(error).__name__, error)
            self.backlog -= a.size()
            # emptied, so that _committed neither writes nor counts it again
            a.rows, a.outbox, a.compact, a.drop, a.chips = [], [], None, False, []
        return None
