"""The app answers its health check."""

from __future__ import annotations

from fastapi.testclient import TestClient

from cardhall.server.app import create_app
from cardhall.server.settings import Settings


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
