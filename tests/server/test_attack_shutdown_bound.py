"""Shutdown with a database that hangs is bounded by one writer bound, not two
(``docs/operations.md``, "Runbook": stop timeout above the grace period plus the writer's bound).
"""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from cardhall.config import Settings
from cardhall.server import lifespan as lifespan_module
from cardhall.server.app import create_app
from cardhall.storage import GameRecord, SeatResult
from cardhall.storage.interface import LogRow

BOUND = 2.0


async def _hang(*_args: Any, **_kwargs: Any) -> Any:
    await asyncio.Event().wait()


async def test_the_lifespan_shutdown_with_a_hung_database_takes_one_bound(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lifespan_module, "CLOSE_TIMEOUT_SECONDS", BOUND)
    monkeypatch.setattr(lifespan_module, "DURABLE_CLOSE_SECONDS", BOUND)  # with the spill
    app = create_app(Settings(database_url=f"sqlite+aiosqlite:///{tmp_path / 'app.db'}",
                              db_timeout_seconds=30.0))
    now = datetime.now(UTC)
    async with app.router.lifespan_context(app):
        store = app.state.store
        monkeypatch.setattr(store, "write_log", _hang)
        monkeypatch.setattr(store, "save_games", _hang)
        app.state.log.append("t1", [LogRow("t1", 1, "snapshot", {"v": 1})])
        app.state.writer.submit(GameRecord("g1", "bazaar_blot", "t1", {"id": "g1"}, {},
                                           [SeatResult(0, "a", 1)], now, now))
        started = time.monotonic()
    took = time.monotonic() - started
    assert took < BOUND * 1.5, f"shutdown took {took:.1f} s with a {BOUND} s bound"
