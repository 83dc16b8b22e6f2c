"""Initial schema: players, games, game_results.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("is_bot", sa.Boolean(), nullable=False),
        sa.Column("banned", sa.Boolean(), nullable=False),
        sa.Column("owner_id", sa.String(length=64), nullable=True),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["owner_id"], ["players.id"],
                                name=op.f("fk_players_owner_id_players"), ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_players")),
    )
    op.create_index(op.f("ix_players_token_hash"), "players", ["token_hash"], unique=True)

    op.create_table(
        "games",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("table_id", sa.String(length=64), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("history", sa.JSON(), nullable=False),
        sa.Column("outcome", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
    )
    op.create_index(op.f("ix_games_game"), "games", ["game"], unique=False)
    op.create_index(op.f("ix_games_ended_at"), "games", ["ended_at"], unique=False)

    op.create_table(
        "game_results",
        sa.Column("game_id", sa.String(length=64), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.String(length=64), nullable=True),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("is_bot", sa.Boolean(), nullable=False),
        sa.Column("result", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"],
                                name=op.f("fk_game_results_game_id_games"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "seat", name=op.f("pk_game_results")),
    )
    op.create_index(op.f("ix_game_results_player_id"), "game_results", ["player_id"],
                    unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_game_results_player_id"), table_name="game_results")
    op.drop_table("game_results")
    op.drop_index(op.f("ix_games_ended_at"), table_name="games")
    op.drop_index(op.f("ix_games_game"), table_name="games")
    op.drop_table("games")
    op.drop_index(op.f("ix_players_token_hash"), table_name="players")
    op.drop_table("players")
