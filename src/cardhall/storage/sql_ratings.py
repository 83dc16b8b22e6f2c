"""The SQL store's ratings (:class:`~.interface.RatingStore`, one role object of
:class:`~cardhall.storage.sql.SqlStore`): each saved game's ratings are updated in the
transaction that saves it (``storage/rating.py``).

Within :meth:`SqlArchive.save_games` (``sql_archive.py``), :meth:`SqlRatings.rate_saved` makes
sure every rated player has a ``ratings`` row (``INSERT ... ON CONFLICT DO NOTHING``), reads them (``FOR
UPDATE`` on PostgreSQL, in a fixed order, so that two nodes' writers saving games of one
player queue instead of losing an update), rates the batch's games in order and writes the
rows back with one ``rating_history`` row per player and game.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import Table, and_, bindparam, func, select, tuple_, update
from sqlalchemy.dialects import postgresql, sqlite

from .accounts import PlayerRating, RatingPoint
from .interface import GameRecord
from .models import Player, Rating, RatingHistory
from .rating import DEFAULT_MU, DEFAULT_SIGMA, Mark, Skill, rate_game, record_rated, seat_marks
from .sql_db import SqlRole

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncConnection

RATINGS: Table = Rating.__table__  # type: ignore[assignment]
HISTORY: Table = RatingHistory.__table__  # type: ignore[assignment]
PLAYERS: Table = Player.__table__  # type: ignore[assignment]

Key = tuple[str, str]
"""``(player_id, game)``."""


def batch_marks(records: Sequence[GameRecord]) -> dict[str, list[Mark | None]]:
    """``game_id -> one mark per result`` for every record (``rating.seat_marks``)."""
    return {r.game_id: seat_marks(r.game, r.outcome, r.results) for r in records}


class SqlRatings(SqlRole):
    """Rating rows (``ratings``, ``rating_history``)."""

    async def rate_saved(self, conn: AsyncConnection, records: Sequence[GameRecord],
                          marks: dict[str, list[Mark | None]]) -> None:
        """Rate the newly saved ``records`` (in order) inside the caller's transaction."""
        games = [r for r in records if record_rated(r)]
        keys = sorted({(s.player_id, r.game) for r in games for s in r.results
                       if s.player_id is not None})
        if not keys:
            return
        bots = {(s.player_id, r.game): s.is_bot for r in games for s in r.results
                if s.player_id is not None}
        await self._ensure_rows(conn, keys, bots)
        rows = await self._lock_rows(conn, keys)
        history: list[dict[str, Any]] = []
        for record in games:
            self._apply(record, marks[record.game_id], rows, history)
        await conn.execute(update(RATINGS).where(and_(
            RATINGS.c.player_id == bindparam("k_player"), RATINGS.c.game == bindparam("k_game")))
            .values(mu=bindparam("mu"), sigma=bindparam("sigma"), ordinal=bindparam("ordinal"),
                    games=bindparam("games"), wins=bindparam("wins"),
                    updated_at=bindparam("updated_at")),
            [{"k_player": k[0], "k_game": k[1], **v} for k, v in rows.items()])
        if history:
            await conn.execute(HISTORY.insert(), history)

    def _apply(self, record: GameRecord, marks: list[Mark | None],
               rows: dict[Key, dict[str, Any]], history: list[dict[str, Any]]) -> None:
        """Rate one game against ``rows`` (updated in place), adding its history rows."""
        priors = {pid: Skill(rows[(pid, g)]["mu"], rows[(pid, g)]["sigma"])
                  for (pid, g) in rows if g == record.game}
        for pid, skill in rate_game(record.game, record.results, priors).items():
            row = rows[(pid, record.game)]
            won = any(s.player_id == pid and m == "win"
                      for s, m in zip(record.results, marks, strict=True))
            history.append({"game_id": record.game_id, "player_id": pid, "game": record.game,
                            "at": record.ended_at, "mu_before": row["mu"],
                            "sigma_before": row["sigma"], "mu": skill.mu,
                            "sigma": skill.sigma})
            row.update(mu=skill.mu, sigma=skill.sigma, ordinal=skill.ordinal,
                       games=row["games"] + 1, wins=row["wins"] + int(won),
                       updated_at=record.ended_at)

    async def _ensure_rows(self, conn: AsyncConnection, keys: list[Key],
                           bots: dict[Key, bool]) -> None:
        insert = postgresql.insert if self.backend == "postgresql" else sqlite.insert
        default = Skill()
        stmt = insert(RATINGS).on_conflict_do_nothing(
            index_elements=[RATINGS.c.player_id, RATINGS.c.game])
        now = datetime.now(UTC)
        await conn.execute(stmt, [
            {"player_id": p, "game": g, "mu": DEFAULT_MU, "sigma": DEFAULT_SIGMA,
             "ordinal": default.ordinal, "games": 0, "wins": 0, "is_bot": bots[(p, g)],
             "updated_at": now} for p, g in keys])

    async def _lock_rows(self, conn: AsyncConnection, keys: list[Key]) -> dict[Key, dict[str, Any]]:
        query = (select(RATINGS.c.player_id, RATINGS.c.game, RATINGS.c.mu, RATINGS.c.sigma,
                        RATINGS.c.games, RATINGS.c.wins)
                 .where(tuple_(RATINGS.c.player_id, RATINGS.c.game).in_(keys))
                 .order_by(RATINGS.c.player_id, RATINGS.c.game))
        if self.backend == "postgresql":
            query = query.with_for_update()
        result = await conn.execute(query)
        return {(r.player_id, r.game): {"mu": r.mu, "sigma": r.sigma, "games": r.games,
                                        "wins": r.wins} for r in result}

    async def leaderboard(self, game: str, *, bots: bool = False, limit: int = 50,
                          offset: int = 0) -> list[PlayerRating]:
        query = (_ratings_query().where(RATINGS.c.game == game, RATINGS.c.is_bot.is_(bots),
                                        PLAYERS.c.banned.is_not(True),
                                        PLAYERS.c.disabled.is_not(True))
                 .order_by(RATINGS.c.ordinal.desc(), RATINGS.c.player_id)
                 .limit(limit).offset(offset))
        return await self._ratings(query)

    async def player_ratings(self, player_id: str) -> list[PlayerRating]:
        query = _ratings_query().where(RATINGS.c.player_id == player_id).order_by(RATINGS.c.game)
        return await self._ratings(query)

    async def _ratings(self, query: Any) -> list[PlayerRating]:
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [PlayerRating(r.player_id, r.name, r.game, r.mu, r.sigma, r.games, r.wins,
                             r.is_bot, r.updated_at) for r in rows]

    async def rating_history(self, player_id: str, game: str, *,
                             limit: int = 500) -> list[RatingPoint]:
        query = (select(HISTORY).where(HISTORY.c.player_id == player_id, HISTORY.c.game == game)
                 .order_by(HISTORY.c.at.desc(), HISTORY.c.game_id.desc()).limit(limit))
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).mappings().all()
        return [RatingPoint(r["game_id"], r["at"], r["mu"], r["sigma"], r["mu_before"],
                            r["sigma_before"]) for r in reversed(rows)]


def _ratings_query() -> Any:
    """Ratings with their player's current name (the id for a rating whose player has no
    ``players`` row: ``player_id`` is a soft reference)."""
    return select(RATINGS.c.player_id,
                  func.coalesce(PLAYERS.c.name, RATINGS.c.player_id).label("name"),
                  RATINGS.c.game, RATINGS.c.mu, RATINGS.c.sigma, RATINGS.c.games,
                  RATINGS.c.wins, RATINGS.c.is_bot, RATINGS.c.updated_at).join(
        PLAYERS, PLAYERS.c.id == RATINGS.c.player_id, isouter=True)
