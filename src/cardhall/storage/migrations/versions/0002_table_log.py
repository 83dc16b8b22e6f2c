"""Durable tables: the write-ahead table log and the finished-game outbox.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "table_log",
        sa.Column("table_id", sa.String(length=64), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("table_id", "seq", name=op.f("pk_table_log")),
    )
    op.create_table(
        "game_outbox",
        sa.Column("game_id", sa.String(length=64), nullable=False),
        sa.Column("record", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_game_outbox")),
    )


def downgrade() -> None:
    op.drop_table("game_outbox")
    op.drop_table("table_log")
