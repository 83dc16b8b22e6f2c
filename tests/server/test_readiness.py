"""``GET /readyz`` (``server/health.py``): ready when the database answers, the writer's and
the action log's backlogs are within bounds and the server is not draining; *degraded* (still
200: the node serves) when only the database fails or the log is not healthy within its
bounds; not ready (503) otherwise."""

from __future__ import annotations

import asyncio
import socket
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardhall.config import Settings
from cardhall.server.app import create_app
from cardhall.server.health import readiness
from cardhall.storage.sql import SqlStore


class FakeStore:
    def __init__(self, *, fail: Exception | None = None, hang: bool = False) -> None:
        self.fail, self.hang = fail, hang

    async def ping(self) -> None:
        if self.hang:
            await asyncio.Event().wait()
        if self.fail is not None:
            raise self.fail


def state(**overrides: Any) -> SimpleNamespace:
    values: dict[str, Any] = {
        "store": FakeStore(),
        "writer": SimpleNamespace(queued=0, max_queued=100, running=True),
    }
    return SimpleNamespace(**{**values, **overrides})


async def test_all_checks_pass_without_an_action_log() -> None:
    body = await readiness(state())
    assert body["status"] == "ready"
    assert set(body["checks"]) == {"database", "writer", "log", "schema", "draining"}
    assert body["checks"]["log"] == {"ok": True, "present": False}
    assert body["checks"]["writer"] == {"ok": True, "running": True, "queued": 0,
                                        "max_queued": 100}


@pytest.mark.parametrize(("store", "status"), [
    (FakeStore(fail=ConnectionRefusedError(111, "refused")), "degraded"),
    (FakeStore(hang=True), "degraded"), (None, "not_ready")])
async def test_a_database_that_fails_or_hangs_is_degraded_and_a_missing_one_not_ready(
        store: Any, status: str) -> None:
    body = await asyncio.wait_for(readiness(state(store=store), ping_timeout=0.05), timeout=5)
    assert body["status"] == status and body["failing"] == ["database"]
    assert body["checks"]["database"]["ok"] is False
    assert body["checks"]["database"]["error"]


@pytest.mark.parametrize(("queued", "running", "ok"), [
    (90, True, True), (91, True, False), (0, False, False)])
async def test_writer_backlog_above_90_percent_or_stopped_is_not_ready(
        queued: int, running: bool, ok: bool) -> None:
    writer = SimpleNamespace(queued=queued, max_queued=100, running=running)
    body = await readiness(state(writer=writer))
    assert body["checks"]["writer"]["ok"] is ok
    assert (body["status"] == "ready") is ok


@pytest.mark.parametrize(("backlog", "healthy", "ok", "status"), [
    (900, True, True, "ready"), (901, True, False, "not_ready"),
    (0, False, False, "degraded"), (901, False, False, "not_ready")])
async def test_action_log_backlog_is_not_ready_and_sickness_within_bounds_degraded(
        backlog: int, healthy: bool, ok: bool, status: str) -> None:
    log = SimpleNamespace(backlog=backlog, max_backlog=1000, healthy=healthy)
    body = await readiness(state(log=log))
    expected: dict[str, Any] = {"ok": ok, "healthy": healthy, "backlog": backlog,
                                "max_backlog": 1000}
    if status == "degraded":
        expected["degraded"] = True
    assert body["checks"]["log"] == expected
    assert body["status"] == status


@pytest.mark.parametrize(("failing", "status"), [(False, "degraded"), (True, "not_ready")])
async def test_a_spilling_log_is_degraded_and_a_failing_spill_not_ready(
        failing: bool, status: str) -> None:
    spiller = SimpleNamespace(rows=7, spilled=9, failing=failing, last_error="OSError: full")
    log = SimpleNamespace(backlog=10, max_backlog=1000, healthy=False, spiller=spiller)
    body = await readiness(state(log=log, store=FakeStore(fail=ConnectionRefusedError())))
    assert body["status"] == status and body["failing"] == ["database", "log"]
    assert body["checks"]["log"]["spill"]["rows"] == 7


async def test_draining_is_not_ready() -> None:
    body = await readiness(state(draining=True))
    assert body["status"] == "not_ready"
    assert body["checks"]["draining"] == {"ok": False, "draining": True}


def test_readyz_answers_200_on_a_running_app_and_503_when_its_database_is_gone() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app = create_app(Settings(database_url="memory://", gc_tuning=False))
    with TestClient(app) as client:
        r = client.get("/readyz")
        assert r.status_code == 200, r.text
        assert r.json()["status"] == "ready"
        assert client.get("/healthz").status_code == 200
        live_store = app.state.store
        dead = SqlStore(f"postgresql+asyncpg://postgres@127.0.0.1:{port}/test",
                        timeout_seconds=0.5)
        app.state.store = dead
        r = client.get("/readyz")
        assert r.status_code == 200  # degraded: the node still serves (issue 27 case 3)
        body = r.json()
        assert body["status"] == "degraded" and body["checks"]["database"]["ok"] is False
        assert "ConnectionRefusedError" in body["checks"]["database"]["error"]
        assert client.get("/healthz").status_code == 200  # alive, just degraded
        app.state.store = live_store
        app.state.draining = True
        assert client.get("/readyz").status_code == 503
        app.state.draining = False
        assert client.get("/readyz").status_code == 200
        client.portal.call(dead.close)  # type: ignore[union-attr]


async def test_sqlite_store_ping_answers(tmp_path: Any) -> None:
    store = SqlStore(f"sqlite+aiosqlite:///{tmp_path / 'p.db'}", timeout_seconds=1)
    try:
        await store.start()
        await store.ping()
    finally:
        await store.close()
