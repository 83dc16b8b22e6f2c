"""Usernames normalised (issue 24): ``players.username_key`` becomes NFKC and case-folded,
and a new ``players.username_skeleton`` (unique) holds each account's confusable skeleton
(``storage/usernames.py``, ``docs/security.md`` "Account names and passwords").

Existing accounts are all kept, and each keeps logging in with its name. Where two of them
now share a key (``Ｂob`` and ``bob``), the one already holding that key keeps it (else the
oldest takes it) and the others keep their old case-folded key; where two share a skeleton
(``аnna`` in Cyrillic and ``anna``), the oldest holds it and the others get none. Every name
registered from now on is refused if it has the key or the skeleton of any of them.

Revision ID: 0007
Revises: 0006
Create Date: 2027-03-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

PLAYERS = sa.table("players", sa.column("id", sa.String), sa.column("username", sa.String),
                   sa.column("username_key", sa.String),
                   sa.column("username_skeleton", sa.String),
                   sa.column("registered_at", sa.DateTime), sa.column("created_at", sa.DateTime))


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("username_skeleton", sa.String(length=255), nullable=True))
    _fill(op.get_bind())
    op.create_index(op.f("ix_players_username_skeleton"), "players", ["username_skeleton"],
                    unique=True)


def _fill(conn: sa.Connection) -> None:
    """Compute every account's new key and skeleton, oldest account first (see above)."""
    from cardhall.storage.usernames import username_key, username_skeleton

    rows = conn.execute(sa.select(PLAYERS.c.id, PLAYERS.c.username, PLAYERS.c.username_key)
                        .where(PLAYERS.c.username.is_not(None))
                        .order_by(PLAYERS.c.registered_at, PLAYERS.c.created_at,
                                  PLAYERS.c.id)).all()
    held = {row.username_key for row in rows}
    keys: dict[str, str] = {}
    skeletons: set[str] = set()
    for row in rows:
        key = username_key(row.username)
        if key != row.username_key and key not in held:
            held.add(key)
            keys[row.id] = key
        skeleton = username_skeleton(row.username)
        if skeleton not in skeletons:
            skeletons.add(skeleton)
            conn.execute(sa.update(PLAYERS).where(PLAYERS.c.id == row.id)
                         .values(username_skeleton=skeleton))
    for player_id, key in keys.items():
        conn.execute(sa.update(PLAYERS).where(PLAYERS.c.id == player_id)
                     .values(username_key=key))


def downgrade() -> None:
    op.drop_index(op.f("ix_players_username_skeleton"), table_name="players")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("username_skeleton")
    conn = op.get_bind()
    for row in conn.execute(sa.select(PLAYERS.c.id, PLAYERS.c.username, PLAYERS.c.username_key)
                            .where(PLAYERS.c.username.is_not(None))).all():
        if row.username_key != row.username.casefold():
            conn.execute(sa.update(PLAYERS).where(PLAYERS.c.id == row.id)
                         .values(username_key=row.username.casefold()))
