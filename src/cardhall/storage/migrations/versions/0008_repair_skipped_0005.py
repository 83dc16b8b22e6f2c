"""Repair databases that skipped 0005: create ``chip_balances`` and ``chip_moves`` if missing.

Release ``b8083cd`` shipped 0006 with ``down_revision`` 0004; the next release put 0005 (the chip
tables) before it. A database migrated by ``b8083cd`` is stamped 0006 without ever having run
0005, so the chip tables never existed there. This step creates them exactly as 0005 does when
they are missing, and does nothing on every other database. Released migrations are never
rewritten (``tests/storage/test_migration_chain.py`` pins them); repairs are new steps like this.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _release_0005() -> ModuleType:
    """The 0005 migration module itself (its file name is no Python identifier)."""
    path = Path(__file__).with_name("0005_chip_balances.py")
    spec = importlib.util.spec_from_file_location("cardhall_migration_0005", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def upgrade() -> None:
    tables = set(sa.inspect(op.get_bind()).get_table_names())
    if "chip_balances" not in tables and "chip_moves" not in tables:
        _release_0005().upgrade()


def downgrade() -> None:
    """Nothing: the chip tables belong to 0005, whose own downgrade drops them."""
