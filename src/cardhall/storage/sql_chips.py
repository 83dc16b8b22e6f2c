"""Chip balances of the SQL store (:class:`~.interface.ChipStore`, one role object of
:class:`~cardhall.storage.sql.SqlStore`):
``chip_balances`` and the keyed ``chip_moves`` ledger (:mod:`.chips`).

Every balance change is one statement that cannot overdraw: a hold is ``UPDATE chip_balances
SET balance = balance - :n WHERE player_id = :p AND balance >= :n RETURNING balance`` (after
``SELECT ... FOR UPDATE`` on PostgreSQL, the store's write turn on SQLite) with its
``hold:<id>`` ledger row in the same transaction; a credit (settle, release, cash-out) is the
ledger row ``INSERT ... ON CONFLICT (key) DO NOTHING RETURNING`` and, only when that inserted,
``balance = balance + :n``. So a retried commit never credits twice, and two nodes debiting
one player at the same moment are serialized by the balance row's lock.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import String, Table, func, literal, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite

from .chips import CHIPS_START, ChipMove, ChipTake, hold_amount, hold_key, settle_key
from .models import ChipBalance, ChipMoveRow, TableFence
from .sql_db import SqlRole

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncConnection

CHIPS: Table = ChipBalance.__table__  # type: ignore[assignment]
MOVES: Table = ChipMoveRow.__table__  # type: ignore[assignment]
FENCE: Table = TableFence.__table__  # type: ignore[assignment]


class _Conflict(Exception):
    """The hold's key was taken meanwhile (a release): roll the debit back."""


class SqlChips(SqlRole):
    """Balances, keyed moves and holds (the table log applies its batches' moves with
    :meth:`apply_chip_moves` and releases a claimed table's holds with :meth:`release_stale`,
    inside its own transactions)."""

    def _insert(self) -> Any:
        return postgresql.insert if self.backend == "postgresql" else sqlite.insert

    async def apply_chip_moves(self, conn: AsyncConnection, moves: Sequence[ChipMove]) -> None:
        """Apply ``moves`` inside the caller's transaction, by player id (so two nodes' commits
        lock balance rows in one order and never deadlock)."""
        for move in sorted(moves, key=lambda m: m.player_id):
            await self._apply_chip_move(conn, move)

    async def _apply_chip_move(self, conn: AsyncConnection, move: ChipMove) -> None:
        """Record ``move`` under its key and move the balance, unless the key is recorded
        already (then nothing changes): exactly once per key, inside the caller's
        transaction. Debits never come this way (only :meth:`hold_chips` debits)."""
        stmt = (self._insert()(MOVES).values(key=move.key, player_id=move.player_id,
                                             delta=move.delta, reason=move.reason,
                                             table_id=move.table_id, at=datetime.now(UTC))
                .on_conflict_do_nothing(index_elements=[MOVES.c.key]).returning(MOVES.c.key))
        if (await conn.execute(stmt)).first() is None or move.delta == 0:
            return
        upsert = self._insert()(CHIPS).values(player_id=move.player_id,
                                              balance=CHIPS_START + move.delta)
        await conn.execute(upsert.on_conflict_do_update(
            index_elements=[CHIPS.c.player_id], set_={"balance": CHIPS.c.balance + move.delta}))

    async def _ensure_row(self, conn: AsyncConnection, player_id: str) -> None:
        await conn.execute(self._insert()(CHIPS).values(
            player_id=player_id, balance=CHIPS_START).on_conflict_do_nothing(
            index_elements=[CHIPS.c.player_id]))

    async def _topped_up(self, conn: AsyncConnection, player_id: str, top_up_below: int,
                         top_up_to: int, top_up_every_seconds: float, now: datetime) -> int:
        """The balance after the free top-up, its row locked (PostgreSQL) until the commit."""
        await self._ensure_row(conn, player_id)
        since = now - timedelta(seconds=top_up_every_seconds)
        await conn.execute(update(CHIPS).where(
            CHIPS.c.player_id == player_id, CHIPS.c.balance < top_up_below,
            CHIPS.c.balance < top_up_to,
            or_(CHIPS.c.topped_up_at.is_(None), CHIPS.c.topped_up_at <= since),
        ).values(balance=top_up_to, topped_up_at=now))
        found = await conn.execute(select(CHIPS.c.balance).where(
            CHIPS.c.player_id == player_id).with_for_update())
        return int(found.scalar_one())

    async def chip_balance(self, player_id: str, *, top_up_below: int = 0,
                           top_up_to: int = CHIPS_START, top_up_every_seconds: float = 0.0,
                           now: datetime | None = None) -> int:
        """See :meth:`Store.chip_balance`: the top-up is one conditional ``UPDATE``."""
        async with self._writing(), self.engine.begin() as conn:
            return await self._topped_up(conn, player_id, top_up_below, top_up_to,
                                         top_up_every_seconds, now or datetime.now(UTC))

    async def hold_chips(self, player_id: str, hold_id: str, *, asked: int | None, most: int,
                         table_id: str | None = None, epoch: int | None = None,
                         top_up_below: int = 0, top_up_to: int = CHIPS_START,
                         top_up_every_seconds: float = 0.0,
                         now: datetime | None = None) -> ChipTake | None:
        """See :meth:`Store.hold_chips` (the module docstring gives the statements)."""
        now = now or datetime.now(UTC)
        balance = 0
        try:
            async with self._writing(), self.engine.begin() as conn:
                if epoch is not None and table_id is not None and not await self._still_owned(
                        conn, table_id, epoch):
                    return None
                done = (await conn.execute(select(MOVES.c.delta).where(
                    MOVES.c.key == hold_key(hold_id)))).first()
                balance = await self._topped_up(conn, player_id, top_up_below, top_up_to,
                                                top_up_every_seconds, now)
                if done is not None:  # a retry: the first answer
                    return ChipTake(balance - int(done[0]), -int(done[0]))
                take = hold_amount(asked, balance, most)
                if take and not await self._debit(conn, player_id, hold_id, take, table_id, now):
                    take = 0
                return ChipTake(balance, take)
        except _Conflict:
            return ChipTake(balance, 0)

    async def _debit(self, conn: AsyncConnection, player_id: str, hold_id: str, take: int,
                     table_id: str | None, now: datetime) -> bool:
        """The conditional debit and its ledger row; ``False``: the balance did not cover it
        (nothing changed). Raises :class:`_Conflict` when the key was released meanwhile."""
        debit = (update(CHIPS).where(CHIPS.c.player_id == player_id, CHIPS.c.balance >= take)
                 .values(balance=CHIPS.c.balance - take).returning(CHIPS.c.balance))
        if (await conn.execute(debit)).first() is None:
            return False
        row = (self._insert()(MOVES).values(key=hold_key(hold_id), player_id=player_id,
                                            delta=-take, reason="hold", table_id=table_id,
                                            at=now)
               .on_conflict_do_nothing(index_elements=[MOVES.c.key]).returning(MOVES.c.key))
        if (await conn.execute(row)).first() is None:
            raise _Conflict
        return True

    async def _still_owned(self, conn: AsyncConnection, table_id: str, epoch: int) -> bool:
        """Whether ``epoch`` is still ``table_id``'s lease epoch; a no-op write that locks the
        fence row until the commit (a takeover's claim waits for this hold, or this hold
        sees its epoch)."""
        stmt = (update(FENCE).where(FENCE.c.table_id == table_id, FENCE.c.epoch == epoch)
                .values(epoch=FENCE.c.epoch).returning(FENCE.c.table_id))
        return (await conn.execute(stmt)).first() is not None

    async def release_hold(self, player_id: str, hold_id: str) -> int:
        """See :meth:`Store.release_hold`."""
        async with self._writing(), self.engine.begin() as conn:
            void = (self._insert()(MOVES).values(key=hold_key(hold_id), player_id=player_id,
                                                 delta=0, reason="void", table_id=None,
                                                 at=datetime.now(UTC))
                    .on_conflict_do_nothing(index_elements=[MOVES.c.key])
                    .returning(MOVES.c.key))
            if (await conn.execute(void)).first() is not None:
                return 0
            return await self._release(conn, [hold_key(hold_id)])

    async def release_stale_holds(self, table_id: str | None = None) -> int:
        """See :meth:`Store.release_stale_holds`."""
        async with self._writing(), self.engine.begin() as conn:
            return await self.release_stale(conn, table_id)

    async def release_stale(self, conn: AsyncConnection, table_id: str | None) -> int:
        hold, settle = MOVES.alias("h"), MOVES.alias("s")
        settled = select(settle.c.key).where(settle.c.key == literal("settle:", String).concat(
            func.substr(hold.c.key, 6, type_=String)))
        query = select(hold.c.key).where(hold.c.reason == "hold", ~settled.exists())
        if table_id is not None:
            query = query.where(hold.c.table_id == table_id)
        keys = [k for (k,) in (await conn.execute(query)).all()]
        return await self._release(conn, keys) if keys else 0

    async def _release(self, conn: AsyncConnection, keys: list[str]) -> int:
        """Give back the whole debit of each hold of ``keys`` not settled yet (keyed, once)."""
        rows = (await conn.execute(select(MOVES.c.key, MOVES.c.player_id, MOVES.c.delta,
                                          MOVES.c.table_id).where(MOVES.c.key.in_(keys),
                                                                  MOVES.c.reason == "hold")))
        moves = [ChipMove(settle_key(k.removeprefix("hold:")), p, -int(d), "settle", t)
                 for k, p, d, t in rows.all()]
        before = {m.key for m in moves}
        done = {k for (k,) in (await conn.execute(select(MOVES.c.key).where(
            MOVES.c.key.in_(before)))).all()} if before else set()
        await self.apply_chip_moves(conn, [m for m in moves if m.key not in done])
        return sum(m.delta for m in moves if m.key not in done)
