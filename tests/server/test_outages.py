"""A database that refuses connections, times out, is locked or is full answers the JSON error
shape 503 ``store.unavailable`` within ``CARDHALL_DB_TIMEOUT_SECONDS``; anything else
unexpected answers 500 ``server.error`` in the same shape (never a text/plain 500)."""

from __future__ import annotations

import logging
import socket
import sqlite3
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import event
from sqlalchemy.exc import IntegrityError

from cardhall.config import Settings
from cardhall.server.app import create_app
from cardhall.storage.sql import SqlStore

TIMEOUT = 0.5
"""The ``db_timeout_seconds`` of these apps; each outage must be answered well within 5x."""


@asynccontextmanager
async def running(url: str, **settings: Any) -> AsyncIterator[tuple[FastAPI, httpx.AsyncClient]]:
    """A started app on ``url`` and a client that turns app exceptions into answers (as a
    real server does) instead of raising them in the test."""
    app = create_app(Settings(database_url=url, db_timeout_seconds=TIMEOUT, gc_tuning=False,
                              **settings))
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            yield app, client


def assert_unavailable(r: httpx.Response) -> None:
    assert r.status_code == 503, r.text
    assert r.headers["content-type"] == "application/json"
    assert r.json()["error"]["code"] == "store.unavailable"
    assert r.headers["retry-after"] == "5"
    assert r.headers.get("x-request-id")


def closed_port() -> int:
    """A local TCP port nothing listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


async def test_a_locked_sqlite_database_answers_503_within_the_bound(tmp_path: Path) -> None:
    db = tmp_path / "locked.db"
    async with running(f"sqlite+aiosqlite:///{db}") as (_app, client):
        assert (await client.post("/api/players", json={"name": "before"})).status_code == 201
        other = sqlite3.connect(db, isolation_level=None)
        try:
            other.execute("BEGIN EXCLUSIVE")
            t0 = time.monotonic()
            r = await client.post("/api/players", json={"name": "while-locked"})
            elapsed = time.monotonic() - t0
            assert_unavailable(r)
            assert TIMEOUT * 0.5 <= elapsed < TIMEOUT * 5, elapsed  # waited for the lock, bounded
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert (await client.post("/api/players", json={"name": "after"})).status_code == 201


async def test_a_refused_postgresql_connection_answers_503(tmp_path: Path) -> None:
    """The store points at a port where nothing listens (the app started on SQLite; the
    PostgreSQL store is swapped in, so no PostgreSQL server is needed)."""
    async with running(f"sqlite+aiosqlite:///{tmp_path / 'a.db'}") as (app, client):
        dead = SqlStore(f"postgresql+asyncpg://postgres@127.0.0.1:{closed_port()}/test",
                        timeout_seconds=TIMEOUT)
        app.state.store = dead
        try:
            t0 = time.monotonic()
            r = await client.post("/api/players", json={"name": "ann"})
            assert_unavailable(r)
            assert time.monotonic() - t0 < TIMEOUT * 5
            r = await client.get("/api/players/me", headers={"Authorization": "Bearer x"})
            assert_unavailable(r)
        finally:
            await dead.close()


async def test_a_full_sqlite_database_answers_503_not_201(tmp_path: Path) -> None:
    """``database or disk is full`` (SQLITE_FULL, here from ``max_page_count`` so the test
    needs no small file system) is 503; the players that fitted were answered 201 and stored."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'full.db'}"
    rates = {"guest_rate_limit": "1000/minute", "rest_rate_limit": "1000/minute"}
    async with running(url, **rates) as (app, client):
        store: SqlStore = app.state.store

        def cap(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA page_count")
            (pages,) = cursor.fetchone()
            cursor.execute(f"PRAGMA max_page_count = {pages + 2}")
            cursor.close()

        event.listen(store.engine.sync_engine, "connect", cap)
        await store.engine.dispose()  # new connections get the cap
        statuses = []
        for i in range(500):
            r = await client.post("/api/players", json={"name": f"p{i}"})
            statuses.append(r.status_code)
            if r.status_code != 201:
                break
        assert set(statuses[:-1]) == {201} and statuses[-1] == 503, statuses
        assert_unavailable(r)
        event.remove(store.engine.sync_engine, "connect", cap)
        await store.engine.dispose()
        players = await store.list_players(limit=1000)
        assert len(players) == len(statuses) - 1  # every 201 was stored, the 503 was not


async def test_an_unexpected_error_answers_500_json_and_logs_the_traceback(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    async with running("memory://") as (app, client):

        @app.get("/boom")
        async def boom() -> None:
            raise RuntimeError("kaboom in a route")

        @app.get("/dup")
        async def dup() -> None:
            raise IntegrityError("INSERT", {}, Exception("UNIQUE constraint failed"))

        with caplog.at_level(logging.ERROR, logger="cardhall.server.errors"):
            r = await client.get("/boom", headers={"X-Request-ID": "0" * 32})
        assert r.status_code == 500
        assert r.headers["content-type"] == "application/json"
        assert r.json() == {"error": {"code": "server.error", "message": "internal server error"}}
        assert r.headers["x-request-id"] == "0" * 32
        [record] = [rec for rec in caplog.records if rec.exc_info]
        assert "kaboom in a route" in str(record.exc_info[1])  # type: ignore[index]
        r = await client.get("/dup")  # a constraint failure is a bug, not an outage
        assert r.status_code == 500 and r.json()["error"]["code"] == "server.error"
