"""Migration 0007 (issue 24, row 6): accounts stored before it, including names that now
collide under NFKC or look alike, are all kept and keep logging in; the oldest of each
collision holds the key and the skeleton, so no new look-alike can register
(``docs/security.md``, "Account names and passwords"). On SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa

from cardhall.storage import accounts
from cardhall.storage.sql import SqlStore, downgrade_connection, upgrade_connection

T0 = datetime(2026, 1, 1, tzinfo=UTC)
LEGACY = [("bob", "bob"), ("\uff22ob", "\uff42ob"), ("anna", "anna"), ("\u0430nna", "\u0430nna"),
          ("\uff41bc", "\uff41bc")]
"""(username, its pre-0007 case-folded key), oldest first: ``bob`` and fullwidth ``Ｂob``
now share a key, ``anna`` and Cyrillic ``аnna`` a skeleton, fullwidth ``ａbc`` collides
with nobody."""


async def _legacy_accounts(store: SqlStore) -> dict[str, str]:
    """Down to 0006, insert :data:`LEGACY` as 0006 stored them, up to head; username -> id."""
    ids: dict[str, str] = {}
    async with store.engine.begin() as conn:
        await conn.run_sync(downgrade_connection, "0006")
        for i, (username, key) in enumerate(LEGACY):
            ids[username] = f"p{i}"
            at = T0 + timedelta(days=i)
            await conn.execute(sa.text(
                "INSERT INTO players (id, name, is_bot, banned, owner_id, token_hash, "
                "created_at, username, username_key, password_hash, disabled, registered_at) "
                "VALUES (:id, :name, false, false, NULL, :token, :at, :username, :key, "
                ":hash, false, :at)"), {"id": f"p{i}", "name": username, "token": f"t{i}",
                                        "at": at, "username": username, "key": key,
                                        "hash": f"h{i}"})
        await conn.run_sync(upgrade_connection)
    return ids


async def _check_kept_and_guarded(store: SqlStore) -> None:
    ids = await _legacy_accounts(store)
    for username, player_id in ids.items():  # every account logs in with its own name
        found = await store.credentials(username)
        assert found is not None and found[0].id == player_id, username
    found = await store.credentials("abc")  # its key is now NFKC: both forms find it
    assert found is not None and found[0].id == ids["\uff41bc"]
    for twin in ("BOB", "\uff42\uff4f\uff42", "abc"):
        with pytest.raises(accounts.UsernameTakenError):
            await store.register("x", twin, "h")
    for twin in ("\u0430nn\u0430", "\u0410nn\u0430", "b\u043eb"):
        with pytest.raises(accounts.UsernameConfusableError):
            await store.register("x", twin, "h")
    rec, _ = await store.register("Carl", "carl", "h")
    assert (await store.credentials("CARL")) is not None and rec.username == "carl"


async def test_sqlite_0007_keeps_legacy_collisions_and_refuses_new_ones(tmp_path: Path) -> None:
    store = SqlStore(f"sqlite+aiosqlite:///{tmp_path / 'm.db'}")
    try:
        await store.start()
        await _check_kept_and_guarded(store)
    finally:
        await store.close()


@pytest.mark.postgres
async def test_postgres_0007_keeps_legacy_collisions_and_refuses_new_ones(
        pg_store: SqlStore) -> None:
    await _check_kept_and_guarded(pg_store)


async def test_sqlite_0007_down_and_up(tmp_path: Path) -> None:
    """0007 comes off (keys back to plain case-folding) and on again."""
    store = SqlStore(f"sqlite+aiosqlite:///{tmp_path / 'm.db'}")
    try:
        await store.start()
        await store.register("Abe", "\uff21be", "h")  # stored as given: fullwidth
        async with store.engine.begin() as conn:
            await conn.run_sync(downgrade_connection, "0006")
            key = (await conn.execute(sa.text("SELECT username_key FROM players"))).scalar()
            assert key == "\uff41be"
            await conn.run_sync(upgrade_connection)
        found = await store.credentials("abe")
        assert found is not None and found[0].name == "Abe"
    finally:
        await store.close()
