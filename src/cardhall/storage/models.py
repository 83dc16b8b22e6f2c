"""The database schema (SQLAlchemy 2 declarative): players, games and per-seat game results.

Types are chosen to behave the same on SQLite and PostgreSQL: ``JSON`` documents and
timezone-aware timestamps that are always stored and returned in UTC (:class:`UtcDateTime`).
``docs/storage.md`` describes the tables; Alembic migrations in ``migrations/`` create them and
a test checks that the two agree.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    false,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship
from sqlalchemy.types import TypeDecorator

from .usernames import SKELETON_LEN

ID_LEN = 64
"""Width of id columns (player ids are 32 hex digits; game and table ids come from the runtime)."""
NAME_LEN = 64
"""Width of name columns (the REST API accepts at most 32 characters)."""
USERNAME_LEN = 24
"""Longest account username (``docs/rest.md``, "Accounts")."""

NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def as_utc(value: datetime) -> datetime:
    """``value`` as an aware UTC datetime; a naive value is taken to be UTC already."""
    if value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    return value.astimezone(UTC)


class UtcDateTime(TypeDecorator[datetime]):
    """``DateTime(timezone=True)`` that binds UTC and always returns aware UTC datetimes.

    SQLite keeps no offset, so every value is converted to UTC before it is stored or compared;
    PostgreSQL's ``timestamptz`` round-trips the same instant.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        utc = as_utc(value)
        return utc.replace(tzinfo=None) if dialect.name == "sqlite" else utc

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        return None if value is None else as_utc(value)


class Base(DeclarativeBase):
    """Declarative base with a constraint naming convention (stable names for migrations)."""

    metadata = MetaData(naming_convention=NAMING)


class Player(Base):
    """An identity: a person or a bot (``owner_id`` = the player who created the bot)."""

    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(ID_LEN), primary_key=True)
    name: Mapped[str] = mapped_column(String(NAME_LEN))
    is_bot: Mapped[bool] = mapped_column(Boolean, default=False)
    banned: Mapped[bool] = mapped_column(Boolean, default=False)
    owner_id: Mapped[str | None] = mapped_column(
        String(ID_LEN), ForeignKey("players.id", ondelete="SET NULL"), nullable=True
    )
    token_hash: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    """SHA-256 hex of the guest's bearer token; the token itself is never stored. An account
    (``username`` set) keeps its tokens in ``sessions``; this one is then a hash of a token
    nobody was given."""
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())
    username: Mapped[str | None] = mapped_column(String(USERNAME_LEN), nullable=True)
    """The account's login name as registered (``None``: a guest or a bot)."""
    username_key: Mapped[str | None] = mapped_column(String(NAME_LEN), nullable=True,
                                                     unique=True, index=True)
    """``username`` NFKC and case-folded (``storage/usernames.py``): one account per name
    whatever its case or compatibility form (an account whose key collided with an older
    one's at migration 0007 kept its plain case-folded key)."""
    username_skeleton: Mapped[str | None] = mapped_column(String(SKELETON_LEN), nullable=True,
                                                          unique=True, index=True)
    """The confusable skeleton of ``username``: no two accounts look alike (``None`` for
    guests, bots, and an account whose skeleton an older one held at migration 0007)."""
    password_hash: Mapped[str | None] = mapped_column(String(255), nullable=True)
    """The Argon2id PHC string (``$argon2id$v=19$m=...``); never the password."""
    disabled: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Disabled by the admin: its tokens and its log-ins are refused."""
    registered_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)


class Game(Base):
    """A finished game: its history document and outcome (written once)."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(ID_LEN), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), index=True)
    table_id: Mapped[str] = mapped_column(String(ID_LEN))
    started_at: Mapped[datetime] = mapped_column(UtcDateTime())
    ended_at: Mapped[datetime] = mapped_column(UtcDateTime(), index=True)
    history: Mapped[dict[str, Any]] = mapped_column(JSON)
    outcome: Mapped[dict[str, Any]] = mapped_column(JSON)

    results: Mapped[list[GameResult]] = relationship(
        back_populates="game_row", order_by="GameResult.seat", lazy="raise"
    )


class GameResult(Base):
    """One seat's result in a finished game.

    ``player_id`` is a soft reference (no foreign key): built-in bots need no player row, and a
    saved game stays intact whatever happens to the identities later.
    """

    __tablename__ = "game_results"

    game_id: Mapped[str] = mapped_column(
        String(ID_LEN), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str | None] = mapped_column(String(ID_LEN), nullable=True, index=True)
    name: Mapped[str] = mapped_column(String(NAME_LEN))
    is_bot: Mapped[bool] = mapped_column(Boolean, default=False)
    result: Mapped[int] = mapped_column(Integer)
    """Chips won/lost (poker) or the team's match total (Blot)."""
    mark: Mapped[str | None] = mapped_column(String(8), nullable=True)
    """``win``, ``loss`` or ``draw`` for the seat (``storage/rating.py``); ``None`` for a game
    that was not rated (abandoned, aborted) or saved before marks were stored."""

    game_row: Mapped[Game] = relationship(back_populates="results")


class TableLogEntry(Base):
    """One entry of a live table's write-ahead log (``docs/operations.md``): a table's
    entries rebuild it after a restart. A closed table's entries are deleted; a new game
    deletes the entries before its starting snapshot."""

    __tablename__ = "table_log"

    table_id: Mapped[str] = mapped_column(String(ID_LEN), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)


class TableFence(Base):
    """Cluster mode (``docs/scaling.md``): which lease epoch may write a table's log. A node
    that takes a table over bumps ``epoch`` (:meth:`SqlStore.claim_table`); every log commit of
    a table is checked against it in the commit's transaction, so a node that lost the lease
    can never append again. Deleted with the table's log."""

    __tablename__ = "table_fence"

    table_id: Mapped[str] = mapped_column(String(ID_LEN), primary_key=True)
    epoch: Mapped[int] = mapped_column(Integer)
    node: Mapped[str] = mapped_column(String(ID_LEN * 2))
    claimed_at: Mapped[datetime] = mapped_column(UtcDateTime())


class OutboxGame(Base):
    """A finished game the game writer has not saved yet (deleted in the transaction that
    saves it); re-submitted at start-up, so a finished game survives a crash or an outage."""

    __tablename__ = "game_outbox"

    game_id: Mapped[str] = mapped_column(String(ID_LEN), primary_key=True)
    record: Mapped[dict[str, Any]] = mapped_column(JSON)


class ChipBalance(Base):
    """A player's poker chips away from the tables (chips): what a buy-in takes from and a
    cash-out returns to (``docs/storage.md``). A player without a row holds the starting
    balance (``chips_start``); ``topped_up_at`` is the latest free top-up (UTC), if any."""

    __tablename__ = "chip_balances"

    player_id: Mapped[str] = mapped_column(String(ID_LEN), primary_key=True)
    balance: Mapped[int] = mapped_column(Integer)
    topped_up_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)


class ChipMoveRow(Base):
    """One applied balance move (chips, signed), keyed so that a move written twice (a
    retried commit, a replayed log) moves the balance once."""

    __tablename__ = "chip_moves"

    key: Mapped[str] = mapped_column(String(ID_LEN * 2), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(ID_LEN), index=True)
    delta: Mapped[int] = mapped_column(Integer)
    reason: Mapped[str] = mapped_column(String(16))
    table_id: Mapped[str | None] = mapped_column(String(ID_LEN), nullable=True)
    at: Mapped[datetime] = mapped_column(UtcDateTime())


class AdminAudit(Base):
    """One admin action (``server/audit.py``): who (``"admin"``: the admin token is shared),
    the request id and client address, what, to which target, when, and its details."""

    __tablename__ = "admin_audit"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[datetime] = mapped_column(UtcDateTime(), index=True)
    who: Mapped[str] = mapped_column(String(NAME_LEN))
    action: Mapped[str] = mapped_column(String(32), index=True)
    target: Mapped[str] = mapped_column(String(ID_LEN * 2), index=True)
    request_id: Mapped[str | None] = mapped_column(String(ID_LEN), nullable=True)
    client: Mapped[str | None] = mapped_column(String(ID_LEN), nullable=True)
    details: Mapped[dict[str, Any]] = mapped_column(JSON)


class Session(Base):
    """One revocable bearer token of an account (log-in, registration, or the guest token it
    was upgraded from). Only the token's SHA-256 is kept."""

    __tablename__ = "sessions"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    player_id: Mapped[str] = mapped_column(
        String(ID_LEN), ForeignKey("players.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    kind: Mapped[str] = mapped_column(String(16))
    """``login``, ``register`` or ``guest`` (the guest token an account was upgraded from)."""
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())


class Rating(Base):
    """A player's current rating in one game (openskill Plackett-Luce, ``storage/rating.py``);
    ``player_id`` is a soft reference like ``game_results.player_id``."""

    __tablename__ = "ratings"
    __table_args__ = (Index("ix_ratings_game_ordinal", "game", "ordinal"),)

    player_id: Mapped[str] = mapped_column(String(ID_LEN), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    ordinal: Mapped[float] = mapped_column(Float)
    """``mu - 3 sigma``: the leaderboard's order."""
    games: Mapped[int] = mapped_column(Integer)
    """Rated games played."""
    wins: Mapped[int] = mapped_column(Integer)
    is_bot: Mapped[bool] = mapped_column(Boolean)
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime())


class RatingHistory(Base):
    """A player's rating after one rated game (written with the game, for the profile chart)."""

    __tablename__ = "rating_history"
    __table_args__ = (Index("ix_rating_history_player_id_game_at", "player_id", "game", "at"),)

    game_id: Mapped[str] = mapped_column(
        String(ID_LEN), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(ID_LEN), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    at: Mapped[datetime] = mapped_column(UtcDateTime())
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)


class TournamentRow(Base):
    """A tournament: its whole document (``tournaments/rounds.py``), rewritten at each step."""

    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(String(ID_LEN), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    status: Mapped[str] = mapped_column(String(16), index=True)
    created_by: Mapped[str | None] = mapped_column(String(ID_LEN), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), index=True)
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime())
    doc: Mapped[dict[str, Any]] = mapped_column(JSON)


__all__ = ["AdminAudit", "Base", "ChipBalance", "ChipMoveRow", "Game", "GameResult",
           "OutboxGame", "Player", "Rating", "RatingHistory", "Session", "TableLogEntry",
           "TournamentRow", "UtcDateTime", "as_utc"]
