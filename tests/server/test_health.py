"""The app answers its health check."""

from __future__ import annotations

from fastapi.testclient import TestClient

from cardhall.config import Settings
from cardhall.server.app import create_app


def test_healthz() -> None:
    with TestClient(create_app(Settings(database_url="memory://"))) as client:
        r = client.get("/healthz")
    assert r.status_code == 200
    assert r.json()["status"] == "ok"


def test_root_serves_the_browser_client() -> None:
    with TestClient(create_app(Settings(database_url="memory://"))) as client:
        r = client.get("/")
        assert r.status_code == 200
        assert "cardhall" in r.text


def test_metrics_report_live_tables_in_prometheus_format() -> None:
    with TestClient(create_app(Settings(database_url="memory://"))) as client:
        r = client.post("/api/players", json={"name": "ana"})
        token = r.json()["token"]
        r = client.post("/api/tables", json={"game": "bazaar_blot"},
                        headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 201, r.text
        r = client.get("/metrics")
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("text/plain")
        assert 'cardhall_tables{status="waiting"} 1.0' in r.text
        assert "cardhall_games_saved_total 0.0" in r.text
        assert "cardhall_writer_saved_total 0.0" in r.text
        assert "cardhall_writer_queued 0.0" in r.text
        assert "process_cpu_seconds_total" in r.text


def test_logging_renders_json_lines(capsys: object) -> None:
    import json
    import logging

    from cardhall.server.observability import configure_logging

    configure_logging("json")
    try:
        logging.getLogger("cardhall.test").warning("table %s closed", "t1")
        err = capsys.readouterr().err  # type: ignore[attr-defined]
        line = json.loads(err.strip().splitlines()[-1])
        assert line["event"] == "table t1 closed" and line["level"] == "warning"
        assert line["logger"] == "cardhall.test" and "timestamp" in line
    finally:
        logging.getLogger().handlers[:] = []
