"""``cardhall db downgrade`` says what it would drop and refuses to drop data unless told
(issue 27, case 6: 0006 -> 0005 dropped accounts, sessions and ratings without a word)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from cardhall.storage import SeatResult
from cardhall.storage.downgrade import DataLossRefused, downgrade_database, plan_downgrade
from cardhall.storage.sql import SqlStore


async def _filled(url: str, schema: str | None = None) -> tuple[SqlStore, str]:
    store = SqlStore(url, schema=schema)
    await store.start()
    guest, _ = await store.create_player("Gus")
    now = datetime.now(UTC)
    await store.save_game(game_id="g1", game="palace_poker", table_id="t", history={},
                          outcome={"reason": "showdown", "returns": [1, -1]},
                          results=[SeatResult(0, "Gus", 1, guest.id),
                                   SeatResult(1, "b", -1, None, True)],
                          started_at=now, ended_at=now)
    return store, guest.id


async def _tables(store: SqlStore) -> set[str]:
    from sqlalchemy import inspect

    async with store.engine.connect() as conn:
        return await conn.run_sync(lambda c: set(inspect(c).get_table_names()))


async def test_a_downgrade_to_base_of_a_filled_database_is_refused_and_changes_nothing(
        tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'filled.db'}"
    store, _ = await _filled(url)
    try:
        before = await _tables(store)
        plan = await plan_downgrade(url, "base")
        by_table = {d.table: d.rows for d in plan if d.column is None}
        assert by_table["games"] == 1 and by_table["players"] == 1
        assert by_table["game_results"] == 2
        with pytest.raises(DataLossRefused, match=r"table games \(1 row with data\)"):
            await downgrade_database(url, "base")
        assert await _tables(store) == before
        assert [g.id for g in await store.list_games()] == ["g1"]
    finally:
        await store.close()


async def test_a_downgrade_that_drops_only_empty_tables_goes_ahead(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'empty.db'}"
    store = SqlStore(url)
    await store.start()
    try:
        dropped = await downgrade_database(url, "0005")
        assert {d.table for d in dropped if d.column is None} >= {"sessions"}
        assert all(d.rows == 0 for d in dropped)
        assert "sessions" not in await _tables(store)
    finally:
        await store.close()


async def test_allow_data_loss_drops_what_the_plan_named(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'told.db'}"
    store, _ = await _filled(url)
    try:
        dropped = await downgrade_database(url, "base", allow_data_loss=True)
        assert "games" in {d.table for d in dropped}
        assert await _tables(store) == {"alembic_version"}
    finally:
        await store.close()


@pytest.mark.postgres
async def test_postgres_plan_rolls_back_and_refuses(fresh_pg_schema: str) -> None:
    from tests.storage.conftest import POSTGRES_URL

    store, _ = await _filled(POSTGRES_URL, fresh_pg_schema)
    try:
        before = await _tables(store)
        plan = await plan_downgrade(POSTGRES_URL, "0005", schema=fresh_pg_schema)
        assert {d.table for d in plan if d.column is None} >= {"sessions", "ratings"}
        assert await _tables(store) == before  # the plan was rolled back
        with pytest.raises(DataLossRefused, match="games"):
            await downgrade_database(POSTGRES_URL, "base", schema=fresh_pg_schema)
        assert await _tables(store) == before
        assert [g.id for g in await store.list_games()] == ["g1"]
    finally:
        await store.close()


async def test_0006_to_0005_names_the_ratings_and_marks_it_would_drop(tmp_path: Path) -> None:
    """The case that was silent: accounts, sessions and ratings (0006) of a filled database."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'rated.db'}"
    store, _ = await _filled(url)
    try:
        lost = {str(d) for d in await plan_downgrade(url, "0005") if d.rows}
        assert "column game_results.mark (2 rows with data)" in lost
        assert "table ratings (1 row with data)" in lost
        assert "column players.disabled (0 rows with data)" not in lost  # a default is no data
        with pytest.raises(DataLossRefused, match="ratings"):
            await downgrade_database(url, "0005")
        assert "ratings" in await _tables(store)
    finally:
        await store.close()
