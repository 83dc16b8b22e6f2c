"""``GET /metrics``: HTTP metrics (prometheus-fastapi-instrumentator), WebSocket connection
metrics, and the writer's, the action log's and the table manager's figures, on a registry of
the app's own (two apps in one process do not collide)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from fastapi.testclient import TestClient
from livesrv import client, live_server
from prometheus_client import CollectorRegistry, Histogram, generate_latest
from prometheus_client.parser import text_string_to_metric_families

from cardhall.config import Settings
from cardhall.server.app import create_app
from cardhall.server.collectors import (
    LogCollector,
    RedisCollector,
    TablesCollector,
    WriterCollector,
)


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """``{(sample name, sorted labels): value}`` of a Prometheus text exposition."""
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def test_http_requests_are_counted_by_route_template_on_each_apps_own_registry() -> None:
    apps = [create_app(Settings(database_url="memory://", gc_tuning=False)) for _ in range(2)]
    with TestClient(apps[0]) as one, TestClient(apps[1]) as two:
        for _ in range(3):
            assert one.get("/healthz").status_code == 200
        assert one.get("/api/games/no-such-game").status_code == 404
        assert two.get("/healthz").status_code == 200
        m1, m2 = samples(one.get("/metrics").text), samples(two.get("/metrics").text)
    key = ("cardhall_http_requests_total",
           (("handler", "/healthz"), ("method", "GET"), ("status", "2xx")))
    assert m1[key] == 3 and m2[key] == 1
    assert m1[("cardhall_http_requests_total", (("handler", "/api/games/{game_id}"),
                                                ("method", "GET"), ("status", "4xx")))] == 1
    assert ("cardhall_http_request_duration_seconds_count",
            (("handler", "/healthz"), ("method", "GET"))) in m1
    assert not any(name.startswith("cardhall_http") and ("handler", "/metrics") in labels
                   for name, labels in m1)


async def test_websocket_connections_are_counted_with_their_close_code() -> None:
    async with live_server() as live:
        async with client(live) as c:
            await c.send({"type": "ping", "nonce": 1})
            await c.expect("pong")
        async with live.http as http, asyncio.timeout(10):
            while True:  # the server side of the close is finished asynchronously
                m = samples((await http.get("/metrics")).text)
                if m.get(("cardhall_ws_connections_active", ())) == 0:
                    break
                await asyncio.sleep(0.02)
    assert m[("cardhall_ws_connections_total", ())] == 1
    assert m[("cardhall_ws_closed_total", (("code", "1000"),))] == 1
    assert m[("cardhall_ws_connection_seconds_count", ())] == 1


def app_state(**state: object) -> SimpleNamespace:
    return SimpleNamespace(state=SimpleNamespace(**state))


def exposition(*collectors: object) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    registry = CollectorRegistry()
    for c in collectors:
        registry.register(c)  # type: ignore[arg-type]
    return samples(generate_latest(registry).decode())


def test_writer_histogram_and_retries_are_exported() -> None:
    save_seconds = Histogram("cardhall_writer_save_seconds", "Time to save one batch",
                             registry=None)
    save_seconds.observe(0.02)
    writer = SimpleNamespace(submitted=5, saved=4, failed=0, batches=2, retries=3, queued=1,
                             save_seconds=save_seconds)
    m = exposition(WriterCollector(app_state(writer=writer)))  # type: ignore[arg-type]
    assert m[("cardhall_writer_retries_total", ())] == 3
    assert m[("cardhall_writer_queued", ())] == 1
    assert m[("cardhall_writer_save_seconds_count", ())] == 1


def test_action_log_figures_are_exported_when_the_app_has_a_log() -> None:
    append_seconds = Histogram("cardhall_log_append_seconds", "Time to append", registry=None)
    append_seconds.observe(0.001)
    log = SimpleNamespace(appended=10, commits=4, failures=1, backlog=2, max_backlog=100,
                          healthy=True, append_seconds=append_seconds)
    m = exposition(LogCollector(app_state(log=log)))  # type: ignore[arg-type]
    assert m[("cardhall_log_appended_total", ())] == 10
    assert m[("cardhall_log_commits_total", ())] == 4
    assert m[("cardhall_log_failures_total", ())] == 1
    assert m[("cardhall_log_backlog", ())] == 2
    assert m[("cardhall_log_append_seconds_count", ())] == 1
    assert exposition(LogCollector(app_state())) == {}  # type: ignore[arg-type]


def test_restored_and_aborted_tables_are_exported_when_the_manager_reports_them() -> None:
    stats = {"tables_by_status": {"playing": 2}, "tables_restored": 3, "tables_aborted": 1}
    manager = SimpleNamespace(stats=lambda: stats)
    m = exposition(TablesCollector(app_state(tables=manager)))  # type: ignore[arg-type]
    assert m[("cardhall_tables_restored_total", ())] == 3
    assert m[("cardhall_tables_aborted_total", ())] == 1
    assert m[("cardhall_tables", (("status", "playing"),))] == 2
    del stats["tables_restored"], stats["tables_aborted"]
    m = exposition(TablesCollector(app_state(tables=manager)))  # type: ignore[arg-type]
    assert ("cardhall_tables_restored_total", ()) not in m


def test_every_exported_metric_is_documented_in_operations_md() -> None:
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "operations.md").read_text()
    app = create_app(Settings(database_url="memory://", gc_tuning=False))
    with TestClient(app) as c:
        c.get("/healthz")
        with c.websocket_connect("/ws"):
            pass
        names = {f.name for f in text_string_to_metric_families(c.get("/metrics").text)}
    collectors = exposition(
        WriterCollector(app_state(writer=SimpleNamespace(queued=0))),  # type: ignore[arg-type]
        LogCollector(app_state(log=SimpleNamespace(  # type: ignore[arg-type]
            appended=0, commits=0, failures=0, backlog=0))),
        TablesCollector(app_state(tables=SimpleNamespace(  # type: ignore[arg-type]
            stats=lambda: {"tables_restored": 0, "tables_aborted": 0}))),
        RedisCollector(app_state(redis=object(),  # type: ignore[arg-type]
                                 redis_health=SimpleNamespace(healthy=True))))
    names |= {name.removesuffix("_total") for name, _ in collectors}
    assert len(names) > 30
    missing = sorted(n for n in names if f"`{n}" not in doc
                     and not n.endswith("_created"))  # documented once for all
    assert missing == [], f"metrics not in docs/operations.md: {missing}"
