"""The app's lifespan owns the game writer: games handed to it are saved by shutdown, after
the tables closed, before the store closes."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from cardhall.config import Settings
from cardhall.server.app import create_app
from cardhall.storage import GameRecord, SeatResult
from cardhall.storage.sql import SqlStore


async def test_games_queued_at_shutdown_are_saved(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'app.db'}"
    app = create_app(Settings(database_url=url))
    now = datetime.now(UTC)
    async with app.router.lifespan_context(app):
        writer = app.state.writer
        assert writer.running and app.state.tables.writer is writer
        for i in range(300):
            writer.submit(GameRecord(f"g{i}", "bazaar_blot", "t", {"id": f"g{i}"}, {},
                                     [SeatResult(0, "a", 1), SeatResult(1, "b", -1)], now, now))
    assert not writer.running and writer.saved == 300 and writer.failed == 0
    store = SqlStore(url)
    try:
        assert len(await store.list_games(limit=1000)) == 300
    finally:
        await store.close()
