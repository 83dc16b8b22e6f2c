"""The stored admin audit log (``admin_audit``).

Revision ID: 0003
Revises: 0002
Create Date: 2027-01-10
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "admin_audit",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("who", sa.String(length=64), nullable=False),
        sa.Column("action", sa.String(length=32), nullable=False),
        sa.Column("target", sa.String(length=128), nullable=False),
        sa.Column("request_id", sa.String(length=64), nullable=True),
        sa.Column("client", sa.String(length=64), nullable=True),
        sa.Column("details", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_admin_audit")),
    )
    op.create_index(op.f("ix_admin_audit_at"), "admin_audit", ["at"])
    op.create_index(op.f("ix_admin_audit_action"), "admin_audit", ["action"])
    op.create_index(op.f("ix_admin_audit_target"), "admin_audit", ["target"])


def downgrade() -> None:
    op.drop_index(op.f("ix_admin_audit_target"), table_name="admin_audit")
    op.drop_index(op.f("ix_admin_audit_action"), table_name="admin_audit")
    op.drop_index(op.f("ix_admin_audit_at"), table_name="admin_audit")
    op.drop_table("admin_audit")
