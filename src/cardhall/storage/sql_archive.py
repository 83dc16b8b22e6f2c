"""The SQL store's finished games (:class:`~.interface.GameArchive`, one role object of
:class:`~cardhall.storage.sql.SqlStore`).

Finished games are written with SQLAlchemy Core bulk inserts (:meth:`SqlArchive.save_games`),
not the ORM unit of work: one transaction per batch, ``INSERT ... ON CONFLICT DO NOTHING
RETURNING id`` for the game rows and one multi-row insert for their result rows; the ratings
they change (``sql_ratings.py``) and their leaving the outbox (``sql_log.py``) are in the same
transaction.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Table, select
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlalchemy.orm import selectinload
from sqlalchemy.sql import Select

from .interface import GameRecord, GameSummary, SeatResult
from .models import Game, GameResult, as_utc
from .sql_db import SqlDatabase, SqlRole
from .sql_log import SqlTableLog
from .sql_ratings import SqlRatings, batch_marks

GAMES: Table = Game.__table__  # type: ignore[assignment]
RESULTS: Table = GameResult.__table__  # type: ignore[assignment]


def _summary(row: Game) -> GameSummary:
    seats = [SeatResult(r.seat, r.name, r.result, r.player_id, r.is_bot, r.mark)
             for r in row.results]
    return GameSummary(row.id, row.game, row.table_id, row.started_at, row.ended_at,
                       dict(row.outcome), seats)


class SqlArchive(SqlRole):
    """Game and result rows; each batch rated by ``ratings``, taken out of ``log``'s outbox."""

    def __init__(self, db: SqlDatabase, ratings: SqlRatings, log: SqlTableLog) -> None:
        super().__init__(db)
        self.ratings, self.log = ratings, log

    async def save_game(
        self,
        *,
        game_id: str,
        game: str,
        table_id: str,
        history: dict[str, Any],
        outcome: dict[str, Any],
        results: list[SeatResult],
        started_at: datetime,
        ended_at: datetime,
    ) -> bool:
        """One game through :meth:`save_games`; ``False`` if ``game_id`` is already saved.
        Raises ``IntegrityError`` for other constraint failures (e.g. two results for one
        seat), saving nothing."""
        [saved] = await self.save_games([GameRecord(game_id, game, table_id, history, outcome,
                                                    results, started_at, ended_at)])
        return saved

    async def save_games(self, records: Sequence[GameRecord], *,
                         from_outbox: bool = False) -> list[bool]:
        """Insert the games not saved yet and their result rows in ONE transaction.

        Returns one flag per record (``False``: its ``game_id`` was saved before, concurrently
        or earlier in ``records``). Core bulk inserts: the game rows as one
        ``INSERT ... ON CONFLICT (id) DO NOTHING RETURNING id``, then the result rows of the
        games that went in (with their win/loss marks), then the ratings of those games
        (``sql_ratings.py``), all in the one transaction. Raises
        ``sqlalchemy.exc.IntegrityError`` (or the driver's connection error) and then saves
        nothing of the batch.
        """
        first: dict[str, int] = {}
        for i, r in enumerate(records):
            first.setdefault(r.game_id, i)
        if not first:
            return []
        async with self._writing(), self.engine.begin() as conn:
            inserted = await self._insert_games(conn, [records[i] for i in first.values()])
            saved = [records[i] for gid, i in first.items() if gid in inserted]
            marks = batch_marks(saved)
            rows = [{"game_id": r.game_id, "seat": s.seat, "player_id": s.player_id,
                     "name": s.name, "is_bot": s.is_bot, "result": s.result, "mark": m}
                    for r in saved for s, m in zip(r.results, marks[r.game_id], strict=True)]
            if rows:
                await conn.execute(RESULTS.insert(), rows)
            await self.ratings.rate_saved(conn, saved, marks)
            if from_outbox:
                await self.log.outbox_delete(conn, list(first))
        return [r.game_id in inserted and first[r.game_id] == i for i, r in enumerate(records)]

    async def _insert_games(self, conn: AsyncConnection, records: list[GameRecord]) -> set[str]:
        """Insert the game rows, skipping ids already present; the ids that went in."""
        stmt = (self.db.insert()(GAMES).on_conflict_do_nothing(index_elements=[GAMES.c.id])
                .returning(GAMES.c.id))
        params = [{"id": r.game_id, "game": r.game, "table_id": r.table_id,
                   "started_at": r.started_at, "ended_at": r.ended_at, "history": r.history,
                   "outcome": r.outcome} for r in records]
        result = await conn.execute(stmt, params)
        return set(result.scalars())

    async def list_games(
        self,
        *,
        game: str | None = None,
        player_id: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        limit: int = 50,
        offset: int = 0,
        result: str | None = None,
        exclude_tables: Collection[str] = (),
    ) -> list[GameSummary]:
        query = _games_query(game, player_id, since, until, result)
        if exclude_tables:
            query = query.where(Game.table_id.not_in(list(exclude_tables)))
        query = query.limit(limit).offset(offset)
        async with self.sessions() as session:
            rows = (await session.scalars(query)).all()
        return [_summary(r) for r in rows]

    async def get_game(self, game_id: str) -> dict[str, Any] | None:
        async with self.sessions() as session:
            history = await session.scalar(select(Game.history).where(Game.id == game_id))
        return None if history is None else dict(history)


def _games_query(
    game: str | None, player_id: str | None, since: datetime | None, until: datetime | None,
    result: str | None = None,
) -> Select[Game]:
    """Finished games newest first (ties by id, descending) with the filters applied;
    ``since`` is inclusive and ``until`` exclusive, both on ``ended_at``; ``result`` is the
    stored mark of ``player_id``'s seat."""
    query = select(Game).options(selectinload(Game.results))
    if game:
        query = query.where(Game.game == game)
    if player_id:
        played = select(GameResult.game_id).where(GameResult.player_id == player_id)
        if result is not None:
            played = played.where(GameResult.mark == result)
        query = query.where(Game.id.in_(played))
    if since is not None:
        query = query.where(Game.ended_at >= as_utc(since))
    if until is not None:
        query = query.where(Game.ended_at < as_utc(until))
    return query.order_by(Game.ended_at.desc(), Game.id.desc())
