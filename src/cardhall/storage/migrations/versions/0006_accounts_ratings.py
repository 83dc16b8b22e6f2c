"""Accounts, sessions and ratings (issue 16): account columns on ``players``, ``sessions``,
``ratings``, ``rating_history`` and the seat's win/loss ``mark`` on ``game_results``.

Revision ID: 0006
Revises: 0005
Create Date: 2027-02-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("username", sa.String(length=24), nullable=True))
        batch.add_column(sa.Column("username_key", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("password_hash", sa.String(length=255), nullable=True))
        batch.add_column(sa.Column("disabled", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
        batch.add_column(sa.Column("registered_at", sa.DateTime(timezone=True), nullable=True))
    op.create_index(op.f("ix_players_username_key"), "players", ["username_key"], unique=True)
    with op.batch_alter_table("game_results") as batch:
        batch.add_column(sa.Column("mark", sa.String(length=8), nullable=True))
    _create_sessions()
    _create_ratings()


def _create_sessions() -> None:
    op.create_table(
        "sessions",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("player_id", sa.String(length=64), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"],
                                name=op.f("fk_sessions_player_id_players"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_sessions")),
    )
    op.create_index(op.f("ix_sessions_player_id"), "sessions", ["player_id"])
    op.create_index(op.f("ix_sessions_token_hash"), "sessions", ["token_hash"], unique=True)


def _create_ratings() -> None:
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.String(length=64), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("ordinal", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("is_bot", sa.Boolean(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("player_id", "game", name=op.f("pk_ratings")),
    )
    op.create_index("ix_ratings_game_ordinal", "ratings", ["game", "ordinal"])
    op.create_table(
        "rating_history",
        sa.Column("game_id", sa.String(length=64), nullable=False),
        sa.Column("player_id", sa.String(length=64), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=False),
        sa.Column("sigma_before", sa.Float(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"],
                                name=op.f("fk_rating_history_game_id_games"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "player_id", name=op.f("pk_rating_history")),
    )
    op.create_index("ix_rating_history_player_id_game_at", "rating_history",
                    ["player_id", "game", "at"])


def downgrade() -> None:
    op.drop_index("ix_rating_history_player_id_game_at", table_name="rating_history")
    op.drop_table("rating_history")
    op.drop_index("ix_ratings_game_ordinal", table_name="ratings")
    op.drop_table("ratings")
    op.drop_index(op.f("ix_sessions_token_hash"), table_name="sessions")
    op.drop_index(op.f("ix_sessions_player_id"), table_name="sessions")
    op.drop_table("sessions")
    with op.batch_alter_table("game_results") as batch:
        batch.drop_column("mark")
    op.drop_index(op.f("ix_players_username_key"), table_name="players")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("registered_at")
        batch.drop_column("disabled")
        batch.drop_column("password_hash")
        batch.drop_column("username_key")
        batch.drop_column("username")
