"""The table log's steps (:class:`_Append`) and how a group commit merges them into one
:class:`~cardhall.storage.interface.LogBatch` (``storage/log.py``)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from .interface import ChipMove, GameRecord, LogBatch, LogRow

log = logging.getLogger("cardhall.storage.log")


@dataclass(slots=True)
class _Append:
    """One table step: its entries and the callback that releases its frames."""

    table_id: str
    rows: list[LogRow]
    compact: int | None
    drop: bool
    outbox: list[GameRecord]
    on_durable: Callable[[], None] | None
    on_commit: Callable[[], None] | None = None
    epoch: int | None = None
    on_fenced: Callable[[], None] | None = None
    chips: list[ChipMove] = field(default_factory=list)
    t: float = field(default_factory=time.perf_counter)
    n: int = 0
    """The step's place in the append order (1, 2, ...): its key in the spill."""
    spill: bool = False
    """Flagged by the spiller: written to the spill before it may be committed."""
    spilled: bool = False
    to_writer: bool = True
    """Its ``outbox`` games still go to the log's game writer once committed (not when the
    step was refused: fenced)."""

    def size(self) -> int:
        return (len(self.rows) + len(self.outbox) + (self.compact is not None) + self.drop
                + len(self.chips))


def merge(appends: list[_Append]) -> LogBatch:
    """One :class:`LogBatch` for ``appends`` (in order): a later compaction of a table wins, and
    the entries it compacts away (or a drop deletes) are not written at all."""
    batch = LogBatch()
    for a in appends:
        if a.drop:
            batch.drop.add(a.table_id)
        if a.compact is not None:
            batch.compact[a.table_id] = max(a.compact, batch.compact.get(a.table_id, 0))
        batch.rows.extend(a.rows)
        batch.outbox.extend(a.outbox)
        batch.chips.extend(a.chips)
        if a.epoch is not None:
            batch.fences[a.table_id] = a.epoch
    batch.rows = [r for r in batch.rows
                  if r.table_id not in batch.drop and r.seq >= batch.compact.get(r.table_id, 0)]
    return batch


def merge_batches(batches: list[LogBatch]) -> LogBatch:
    """One idempotent :class:`LogBatch` applying ``batches`` in order (a replay: the same
    rules as :func:`merge`)."""
    out = LogBatch(idempotent=True)
    for b in batches:
        out.drop |= b.drop
        for table_id, before in b.compact.items():
            out.compact[table_id] = max(before, out.compact.get(table_id, 0))
        out.rows.extend(b.rows)
        out.outbox.extend(b.outbox)
        out.chips.extend(b.chips)
        out.fences.update(b.fences)
    out.rows = [r for r in out.rows
                if r.table_id not in out.drop and r.seq >= out.compact.get(r.table_id, 0)]
    return out


def _call(fn: Callable[[], None] | None, a: _Append) -> None:
    if fn is not None:
        try:
            fn()
        except Exception:  # a bug in a table's callback must not stop the log
            log.exception("table log: a callback of a step of table %s failed", a.table_id)
