"""The Alembic migrations and the SQLAlchemy models describe the same schema (design.md §8)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect
from sqlalchemy.engine import Connection

from cardhall.storage.models import Base
from cardhall.storage.sql import SqlStore, downgrade_connection, upgrade_connection


def _diff(connection: Connection) -> list[Any]:
    context = MigrationContext.configure(connection, opts={"compare_type": True})
    return list(compare_metadata(context, Base.metadata))


def _tables(connection: Connection) -> set[str]:
    return set(inspect(connection).get_table_names())


async def _check(store: SqlStore) -> None:
    async with store.engine.connect() as conn:
        assert await conn.run_sync(_diff) == []
        assert await conn.run_sync(_tables) >= {"players", "games", "game_results"}


async def test_sqlite_migrated_to_head_matches_models(tmp_path: Path) -> None:
    store = SqlStore(f"sqlite+aiosqlite:///{tmp_path / 'm.db'}")
    try:
        await store.start()
        await _check(store)
        await store.start()  # a second start is a no-op
        await _check(store)
    finally:
        await store.close()


async def test_sqlite_downgrade_to_base_and_back(tmp_path: Path) -> None:
    store = SqlStore(f"sqlite+aiosqlite:///{tmp_path / 'm.db'}")
    try:
        await store.start()
        async with store.engine.begin() as conn:
            await conn.run_sync(downgrade_connection)
            assert await conn.run_sync(_tables) == {"alembic_version"}
            await conn.run_sync(upgrade_connection)
        await _check(store)
    finally:
        await store.close()


async def test_sqlite_pragmas_wal_and_foreign_keys(tmp_path: Path) -> None:
    store = SqlStore(f"sqlite+aiosqlite:///{tmp_path / 'm.db'}")
    try:
        await store.start()
        async with store.engine.connect() as conn:
            assert (await conn.exec_driver_sql("PRAGMA journal_mode")).scalar() == "wal"
            assert (await conn.exec_driver_sql("PRAGMA foreign_keys")).scalar() == 1
    finally:
        await store.close()


@pytest.mark.postgres
async def test_postgres_migrated_to_head_matches_models(pg_store: SqlStore) -> None:
    await _check(pg_store)


def _sqlite_tables(path: Path) -> set[str]:
    import sqlite3

    with sqlite3.connect(path) as conn:
        return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}


def test_cli_db_upgrade(tmp_path: Path) -> None:
    from cardhall.cli import main

    db = tmp_path / "cli.db"
    assert main(["db", "upgrade", "--url", f"sqlite+aiosqlite:///{db}"]) == 0
    assert _sqlite_tables(db) >= {"alembic_version", "players", "games", "game_results"}


def test_repo_alembic_ini_upgrades_to_head(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from alembic import command
    from alembic.config import Config

    db = tmp_path / "ini.db"
    monkeypatch.setenv("CARDHALL_DATABASE_URL", f"sqlite+aiosqlite:///{db}")
    command.upgrade(Config(str(Path(__file__).resolve().parents[2] / "alembic.ini")), "head")
    assert _sqlite_tables(db) >= {"alembic_version", "players", "games", "game_results"}


@pytest.mark.postgres
async def test_postgres_downgrade_to_base_and_back(pg_store: SqlStore) -> None:
    async with pg_store.engine.begin() as conn:
        await conn.run_sync(downgrade_connection)
        assert await conn.run_sync(_tables) == {"alembic_version"}
        await conn.run_sync(upgrade_connection)
    await _check(pg_store)


async def test_0006_down_and_up_keeps_players_and_games(tmp_path: Path) -> None:
    """Accounts and ratings (0006) come off and back without touching the guests and games
    stored before them."""
    from datetime import UTC, datetime

    from cardhall.storage import SeatResult

    store = SqlStore(f"sqlite+aiosqlite:///{tmp_path / 'm.db'}")
    try:
        await store.start()
        guest, token = await store.create_player("Gus")
        now = datetime.now(UTC)
        await store.save_game(game_id="g1", game="palace_poker", table_id="t", history={},
                              outcome={"reason": "showdown", "returns": [1, -1]},
                              results=[SeatResult(0, "Gus", 1, guest.id),
                                       SeatResult(1, "b", -1, None, True)],
                              started_at=now, ended_at=now)
        async with store.engine.begin() as conn:
            await conn.run_sync(downgrade_connection, "0004")
            assert "sessions" not in await conn.run_sync(_tables)
            await conn.run_sync(upgrade_connection)
        assert (await store.player_for_token(token)).id == guest.id  # type: ignore[union-attr]
        assert [g.id for g in await store.list_games(player_id=guest.id)] == ["g1"]
        await _check(store)
    finally:
        await store.close()


async def _down_to_0004_and_up(store: SqlStore) -> None:
    async with store.engine.begin() as conn:
        await conn.run_sync(downgrade_connection, "0004")
        tables = await conn.run_sync(_tables)
        assert "chip_balances" not in tables and "chip_moves" not in tables
        assert "table_fence" in tables
        await conn.run_sync(upgrade_connection, "0005")
        assert await conn.run_sync(_tables) >= {"chip_balances", "chip_moves"}
        assert "sessions" not in await conn.run_sync(_tables)  # 0006 comes after 0005
        await conn.run_sync(upgrade_connection)
    await _check(store)


async def test_sqlite_0005_chip_balances_down_and_up(tmp_path: Path) -> None:
    store = SqlStore(f"sqlite+aiosqlite:///{tmp_path / 'm.db'}")
    try:
        await store.start()
        await _down_to_0004_and_up(store)
    finally:
        await store.close()


@pytest.mark.postgres
async def test_postgres_0005_chip_balances_down_and_up(pg_store: SqlStore) -> None:
    await _down_to_0004_and_up(pg_store)
