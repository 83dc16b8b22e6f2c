"""The SQL :class:`~cardhall.storage.interface.Store`: SQLAlchemy 2 async, SQLite or PostgreSQL.

``SqlStore("sqlite+aiosqlite:///./cardhall.db")`` (the default, WAL journal and foreign keys on)
or ``SqlStore("postgresql+asyncpg://user@host/db")``. :meth:`SqlStore.start` applies the Alembic
migrations shipped in ``migrations/`` up to head on the store's own engine, so a fresh database
needs no set-up.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import event, func, select
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine
from sqlalchemy.orm import selectinload
from sqlalchemy.sql import Select

from .interface import GameSummary, PlayerRecord, SeatResult
from .memory import hash_token, new_token
from .models import Game, GameResult, Player, as_utc

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
"""The Alembic script directory, shipped inside the package."""


def make_engine(url: str, *, schema: str | None = None) -> AsyncEngine:
    """An async engine for ``url``; SQLite connections get ``journal_mode=WAL`` and
    ``foreign_keys=ON``. ``schema`` (PostgreSQL only) becomes the connections' ``search_path``,
    which keeps test runs in their own schema. Raises ``ValueError`` for ``schema`` on SQLite."""
    backend = make_url(url).get_backend_name()
    connect_args: dict[str, Any] = {}
    if schema is not None:
        if backend != "postgresql":
            raise ValueError(f"schema={schema!r} needs PostgreSQL, not {backend!r}")
        connect_args["server_settings"] = {"search_path": schema}
    engine = create_async_engine(url, connect_args=connect_args, pool_pre_ping=True)
    if backend == "sqlite":
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
    return engine


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def alembic_config(url: str | None = None) -> Config:
    """A programmatic Alembic config for the packaged migrations (``url`` optional)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    if url is not None:
        cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


def upgrade_connection(connection: Connection, revision: str = "head") -> None:
    """Run the migrations up to ``revision`` on a live (sync) connection."""
    cfg = alembic_config()
    cfg.attributes["connection"] = connection
    command.upgrade(cfg, revision)


def downgrade_connection(connection: Connection, revision: str = "base") -> None:
    """Run the migrations down to ``revision`` on a live (sync) connection."""
    cfg = alembic_config()
    cfg.attributes["connection"] = connection
    command.downgrade(cfg, revision)


async def upgrade_database(url: str, revision: str = "head") -> None:
    """Apply the migrations to the database at ``url`` (``cardhall db upgrade``)."""
    engine = make_engine(url)
    try:
        async with engine.begin() as conn:
            await conn.run_sync(upgrade_connection, revision)
    finally:
        await engine.dispose()


def _record(row: Player) -> PlayerRecord:
    return PlayerRecord(row.id, row.name, row.is_bot, row.banned, row.owner_id)


def _summary(row: Game) -> GameSummary:
    seats = [SeatResult(r.seat, r.name, r.result, r.player_id, r.is_bot) for r in row.results]
    return GameSummary(row.id, row.game, row.table_id, row.started_at, row.ended_at,
                       dict(row.outcome), seats)


class SqlStore:
    """Identities and finished games in a SQL database (see the module docstring)."""

    def __init__(self, url: str, *, schema: str | None = None) -> None:
        self.url = url
        self.engine = make_engine(url, schema=schema)
        self.sessions = async_sessionmaker(self.engine, expire_on_commit=False)

    async def start(self) -> None:
        """Apply the migrations up to head (idempotent)."""
        async with self.engine.begin() as conn:
            await conn.run_sync(upgrade_connection)

    async def close(self) -> None:
        await self.engine.dispose()

    async def create_player(
        self, name: str, *, is_bot: bool = False, owner_id: str | None = None
    ) -> tuple[PlayerRecord, str]:
        token = new_token()
        row = Player(id=uuid.uuid4().hex, name=name, is_bot=is_bot, banned=False,
                     owner_id=owner_id, token_hash=hash_token(token),
                     created_at=datetime.now(UTC))
        async with self.sessions.begin() as session:
            session.add(row)
        return _record(row), token

    async def player_for_token(self, token: str) -> PlayerRecord | None:
        async with self.sessions() as session:
            row = await session.scalar(select(Player).where(Player.token_hash == hash_token(token)))
        return None if row is None else _record(row)

    async def get_player(self, player_id: str) -> PlayerRecord | None:
        async with self.sessions() as session:
            row = await session.get(Player, player_id)
        return None if row is None else _record(row)

    async def list_players(self, *, limit: int = 100, offset: int = 0) -> list[PlayerRecord]:
        query = select(Player).order_by(Player.created_at, Player.id).limit(limit).offset(offset)
        async with self.sessions() as session:
            rows = (await session.scalars(query)).all()
        return [_record(r) for r in rows]

    async def set_banned(self, player_id: str, banned: bool) -> PlayerRecord | None:
        async with self.sessions.begin() as session:
            row = await session.get(Player, player_id)
            if row is None:
                return None
            row.banned = banned
        return _record(row)

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
        """Insert the game row and its result rows in one transaction; ``False`` if ``game_id``
        is already saved. Raises ``IntegrityError`` for other constraint failures (e.g. two
        results for one seat), saving nothing."""
        row = Game(id=game_id, game=game, table_id=table_id, history=history, outcome=outcome,
                   started_at=started_at, ended_at=ended_at)
        row.results = [GameResult(game_id=game_id, seat=r.seat, player_id=r.player_id,
                                  name=r.name, is_bot=r.is_bot, result=r.result)
                       for r in results]
        try:
            async with self.sessions.begin() as session:
                if await session.get(Game, game_id) is not None:
                    return False
                session.add(row)
        except IntegrityError:
            if await self._game_exists(game_id):  # lost a race with a concurrent save
                return False
            raise
        return True

    async def _game_exists(self, game_id: str) -> bool:
        async with self.sessions() as session:
            found = await session.scalar(select(func.count()).where(Game.id == game_id))
        return bool(found)

    async def list_games(
        self,
        *,
        game: str | None = None,
        player_id: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        limit: int = 50,
        offset: int = 0,
    ) -> list[GameSummary]:
        query = _games_query(game, player_id, since, until).limit(limit).offset(offset)
        async with self.sessions() as session:
            rows = (await session.scalars(query)).all()
        return [_summary(r) for r in rows]

    async def get_game(self, game_id: str) -> dict[str, Any] | None:
        async with self.sessions() as session:
            history = await session.scalar(select(Game.history).where(Game.id == game_id))
        return None if history is None else dict(history)


def _games_query(
    game: str | None, player_id: str | None, since: datetime | None, until: datetime | None
) -> Select[Game]:
    """Finished games newest first (ties by id, descending) with the filters applied;
    ``since`` is inclusive and ``until`` exclusive, both on ``ended_at``."""
    query = select(Game).options(selectinload(Game.results))
    if game:
        query = query.where(Game.game == game)
    if player_id:
        played = select(GameResult.game_id).where(GameResult.player_id == player_id)
        query = query.where(Game.id.in_(played))
    if since is not None:
        query = query.where(Game.ended_at >= as_utc(since))
    if until is not None:
        query = query.where(Game.ended_at < as_utc(until))
    return query.order_by(Game.ended_at.desc(), Game.id.desc())
