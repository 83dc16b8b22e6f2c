"""Poker chips belong to the player: ``chip_balances`` and the keyed ``chip_moves``.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-10
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "chip_balances",
        sa.Column("player_id", sa.String(length=64), nullable=False),
        sa.Column("balance", sa.Integer(), nullable=False),
        sa.Column("topped_up_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("player_id", name=op.f("pk_chip_balances")),
    )
    op.create_table(
        "chip_moves",
        sa.Column("key", sa.String(length=128), nullable=False),
        sa.Column("player_id", sa.String(length=64), nullable=False),
        sa.Column("delta", sa.Integer(), nullable=False),
        sa.Column("reason", sa.String(length=16), nullable=False),
        sa.Column("table_id", sa.String(length=64), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_chip_moves")),
    )
    op.create_index(op.f("ix_chip_moves_player_id"), "chip_moves", ["player_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_chip_moves_player_id"), table_name="chip_moves")
    op.drop_table("chip_moves")
    op.drop_table("chip_balances")
