"""Recovery of the table manager's tables from the table log (``docs/operations.md``,
"Restore"; ``docs/scaling.md``, "Failover").

Mixed into :class:`~.manager.TableManager`: at start-up every live table of the log is
rebuilt (:mod:`.restore`); in cluster mode one table at a time, when this node takes it over
under a lease epoch that fences its log (:meth:`Recovery.restore_table`). A table whose log
cannot be replayed is recorded as ``aborted`` with its partial history.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from typing import Any

from ..config import Settings
from ..storage.interface import Store
from ..storage.log import TableLog
from ..storage.writer import GameWriter
from . import restore
from .actor import Table
from .messages import Fenced

log = logging.getLogger("cardhall.tables.manager")


class Recovery:
    """The recovery half of the table manager (see the module docstring)."""

    # set by TableManager (annotations only)
    settings: Settings
    store: Store
    log: TableLog | None
    writer: GameWriter
    tables_restored: int
    tables_aborted: int

    def _new_table(self, table_id: str, rules: Any, config: Any, spec: Any) -> Table:
        raise NotImplementedError  # TableManager's

    def _run(self, table: Table) -> None:
        raise NotImplementedError  # TableManager's

    async def _restore(self, rows: list[Any]) -> None:
        """Rebuild and start every table of the log (:mod:`.restore`)."""
        for image in restore.images(rows):
            await self._restore_image(image)

    async def restore_table(self, table_id: str, epoch: int) -> Table | None:
        """Cluster mode: take ``table_id`` over. Its log is read (after ``epoch`` was claimed,
        so no older owner can append any more), the table rebuilt and started with that
        epoch, the interrupted decision given its full time again. Returns the table, or
        ``None`` when its log is empty (closed meanwhile, or its node died between claiming it
        and its first commit) or could not be replayed (then it is recorded as ``aborted``,
        as at start-up). An empty log's claim is dropped too (a step fenced by ``epoch``), so
        that no node takes that table over again at every scan.

        Raises:
            Any store error reading the log (nothing is started then).
        """
        async with asyncio.timeout(self.settings.db_timeout_seconds):
            rows = await self.store.load_log(table_id)
        for image in restore.images(rows):
            return await self._restore_image(image, epoch)
        if self.log is not None:
            self.log.append(table_id, [], drop=True, epoch=epoch)
        return None

    async def _restore_image(self, image: Any, epoch: int | None = None) -> Table | None:
        assert self.log is not None
        try:
            table = restore.rebuild(image, self._new_table)
        except Exception as exc:  # any failure to replay: recorded, never dropped
            self.tables_aborted += 1
            why = f"{type(exc).__name__}: {exc}"
            log.error("table %s could not be restored (%s); recorded as aborted",
                      image.table_id, why)
            try:
                record = restore.aborted_record(image, why)
            except Exception:  # not even the partial game can be read: keep the rows
                log.exception("table %s: no aborted record can be built from its log; its "
                              "rows stay in table_log for inspection", image.table_id)
                return None
            submit = None if record is None else functools.partial(self.writer.submit, record)
            self.log.append(image.table_id, [], drop=True,
                            outbox=[] if record is None else [record], on_commit=submit,
                            epoch=epoch)
            return None
        self._own(table, epoch)
        self._run(table)
        await table.call(restore.resume_timers)
        self.tables_restored += 1
        log.info("table %s restored (%s, %s, hand %d, version %d)", table.id,
                 table.rules.name, table.status, table.hand, table.version)
        return table

    def _own(self, table: Table, epoch: int | None) -> None:
        """Fence the table's log steps with ``epoch`` (cluster mode); a refused step stops it."""
        if epoch is None:
            return
        table.durable.lease_epoch = epoch
        table.durable.on_fenced = functools.partial(table.post, Fenced())

