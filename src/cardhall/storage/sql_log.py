"""The SQL side of durable tables: the table log, the finished-game outbox and the lease epochs
(:class:`~.interface.TableLogStore`, one role object of :class:`~cardhall.storage.sql.SqlStore`).

A group commit (:class:`~cardhall.storage.interface.LogBatch`) is one transaction: a multi-row
insert of the new log entries, one ``DELETE`` per compacted or closed table, and an
``INSERT ... ON CONFLICT DO NOTHING`` of the outbox records.
"""

from __future__ import annotations

import contextlib
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from sqlalchemy import Table, delete, select, tuple_, update
from sqlalchemy.dialects import postgresql, sqlite

from .interface import GameRecord, LogBatch, LogRow
from .models import OutboxGame, TableFence, TableLogEntry
from .sql_chips import SqlChips
from .sql_db import SqlDatabase, SqlRole

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncConnection

LOG: Table = TableLogEntry.__table__  # type: ignore[assignment]
OUTBOX: Table = OutboxGame.__table__  # type: ignore[assignment]
FENCE: Table = TableFence.__table__  # type: ignore[assignment]


class SqlTableLog(SqlRole):
    """Log, outbox and lease epochs; a batch's chip moves and a claim's stale holds go through
    ``chips`` inside the log's transaction."""

    def __init__(self, db: SqlDatabase, chips: SqlChips) -> None:
        super().__init__(db)
        self.chips = chips
        self._log_conn: AsyncConnection | None = None
        """The connection group commits use (opened on first use, dropped after a failure)."""

    async def write_log(self, batch: LogBatch) -> set[str]:
        """One group commit (see :meth:`Store.write_log`), on the log's own connection: the
        pool's checkout and reset-on-return (a rollback round trip) per commit were about a
        third of a commit's cost. A failed (or cancelled) commit invalidates the connection:
        its DBAPI connection is closed, not pooled, so a transaction cut short can never keep
        SQLite's write lock; the next commit opens a fresh one."""
        async with self._writing():
            conn = self._log_conn
            if conn is None:
                conn = self._log_conn = await self.engine.connect()
            try:
                async with conn.begin():
                    fenced = await self._fence(conn, batch)
                    await self._write_batch(conn, batch.without(fenced) if fenced else batch)
                return fenced
            except BaseException:
                self._log_conn = None
                with contextlib.suppress(Exception):
                    await conn.invalidate()
                raise

    async def close_log(self) -> None:
        """Release the log's connection (the store's :meth:`close` calls it)."""
        conn, self._log_conn = self._log_conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.close()

    async def _fence(self, conn: AsyncConnection, batch: LogBatch) -> set[str]:
        """The tables of ``batch.fences`` whose stored epoch is another (their entries must not
        be written). One ``UPDATE ... RETURNING`` over the batch's tables, a no-op write that
        takes each fence row's lock (PostgreSQL; SQLite's write lock) until the commit, so a
        takeover's :meth:`claim_table` waits for this commit or this commit sees its epoch."""
        if not batch.fences:
            return set()
        pairs = list(batch.fences.items())
        stmt = (update(FENCE).where(tuple_(FENCE.c.table_id, FENCE.c.epoch).in_(pairs))
                .values(epoch=FENCE.c.epoch).returning(FENCE.c.table_id))
        held = {row[0] for row in (await conn.execute(stmt)).all()}
        return {t for t, _ in pairs if t not in held}

    async def claim_table(self, table_id: str, node: str) -> int:
        """See :meth:`Store.claim_table`: an upsert that bumps the epoch, in one transaction."""
        dialect_insert = postgresql.insert if self.backend == "postgresql" else sqlite.insert
        insert = dialect_insert(FENCE).values(table_id=table_id, epoch=1, node=node,
                                              claimed_at=datetime.now(UTC))
        stmt = insert.on_conflict_do_update(
            index_elements=[FENCE.c.table_id],
            set_={"epoch": FENCE.c.epoch + 1, "node": node, "claimed_at": datetime.now(UTC)},
        ).returning(FENCE.c.epoch)
        async with self._writing(), self.engine.begin() as conn:
            epoch = int((await conn.execute(stmt)).scalar_one())
            await self.chips.release_stale(conn, table_id)  # the old owner can settle none now
            return epoch

    async def claimed_tables(self) -> dict[str, int]:
        """See :meth:`Store.claimed_tables`."""
        async with self.engine.connect() as conn:
            result = await conn.execute(select(FENCE.c.table_id, FENCE.c.epoch))
            return {t: int(e) for t, e in result.all()}

    async def _write_batch(self, conn: AsyncConnection, batch: LogBatch) -> None:
        for table_id in batch.drop:
            await conn.execute(delete(LOG).where(LOG.c.table_id == table_id))
            await conn.execute(delete(FENCE).where(FENCE.c.table_id == table_id))
        for table_id, before in batch.compact.items():
            if table_id not in batch.drop:
                await conn.execute(delete(LOG).where(LOG.c.table_id == table_id,
                                                     LOG.c.seq < before))
        rows = [{"table_id": r.table_id, "seq": r.seq, "kind": r.kind, "data": r.data}
                for r in batch.rows if r.table_id not in batch.drop]
        if rows and batch.idempotent:  # a replay: what landed already is skipped
            dialect_insert = postgresql.insert if self.backend == "postgresql" else sqlite.insert
            stmt = dialect_insert(LOG).on_conflict_do_nothing(
                index_elements=[LOG.c.table_id, LOG.c.seq])
            await conn.execute(stmt, rows)
        elif rows:
            await conn.execute(LOG.insert(), rows)
        if batch.outbox:
            await self._outbox_insert(conn, batch.outbox)
        if batch.chips:
            await self.chips.apply_chip_moves(conn, batch.chips)

    async def _outbox_insert(self, conn: AsyncConnection, records: list[GameRecord]) -> None:
        dialect_insert = postgresql.insert if self.backend == "postgresql" else sqlite.insert
        stmt = dialect_insert(OUTBOX).on_conflict_do_nothing(index_elements=[OUTBOX.c.game_id])
        await conn.execute(stmt, [{"game_id": r.game_id, "record": r.to_json()} for r in records])

    async def outbox_delete(self, conn: AsyncConnection, game_ids: list[str]) -> None:
        """Take saved games out of the outbox (inside the transaction that saved them)."""
        if game_ids:
            await conn.execute(delete(OUTBOX).where(OUTBOX.c.game_id.in_(game_ids)))

    async def load_log(self, table_id: str | None = None) -> list[LogRow]:
        """Every live table's entries (or ``table_id``'s), by table then ``seq``."""
        query = select(LOG.c.table_id, LOG.c.seq, LOG.c.kind, LOG.c.data).order_by(
            LOG.c.table_id, LOG.c.seq)
        if table_id is not None:
            query = query.where(LOG.c.table_id == table_id)
        async with self.engine.connect() as conn:
            result = await conn.execute(query)
            return [LogRow(t, s, k, d) for t, s, k, d in result.all()]  # checked by restore

    async def load_outbox(self) -> list[GameRecord]:
        """The outbox's finished games (those not saved yet)."""
        async with self.engine.connect() as conn:
            result = await conn.execute(select(OUTBOX.c.record).order_by(OUTBOX.c.game_id))
            return [GameRecord.from_json(dict(doc)) for (doc,) in result.all()]
