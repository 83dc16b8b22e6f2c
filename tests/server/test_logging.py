"""Logs: JSON lines keep exception tracebacks, and every line during a request carries its
``request_id`` (the ``X-Request-ID`` answered)."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardhall.config import Settings
from cardhall.server.app import create_app
from cardhall.server.observability import configure_logging


@pytest.fixture
def json_logs(capsys: pytest.CaptureFixture[str]) -> Iterator[pytest.CaptureFixture[str]]:
    """JSON logs to the captured stderr (configured on first read: the handler keeps the
    stream that is ``sys.stderr`` when it is made, which is the test's only once it runs)."""
    yield capsys
    logging.getLogger().handlers[:] = []


def json_logging() -> None:
    configure_logging("json")


def lines(capsys: pytest.CaptureFixture[str]) -> list[dict[str, Any]]:
    return [json.loads(x) for x in capsys.readouterr().err.splitlines() if x.startswith("{")]


def test_a_logged_exception_keeps_its_traceback_in_json(
        json_logs: pytest.CaptureFixture[str]) -> None:
    json_logging()
    try:
        {}["missing-key"]
    except KeyError:
        logging.getLogger("cardhall.test").exception("lookup failed")
    [line] = lines(json_logs)
    assert line["event"] == "lookup failed" and line["level"] == "error"
    assert "exc_info" not in line
    text = line["exception"]
    assert text.startswith("Traceback (most recent call last):")
    assert "KeyError: 'missing-key'" in text and "test_logging.py" in text
    assert "<traceback object" not in json.dumps(line)


def test_structlog_loggers_keep_tracebacks_too(json_logs: pytest.CaptureFixture[str]) -> None:
    import structlog

    json_logging()
    try:
        raise ZeroDivisionError("by zero")
    except ZeroDivisionError:
        structlog.get_logger("cardhall.test").exception("boom")
    [line] = lines(json_logs)
    assert "ZeroDivisionError: by zero" in line["exception"]


def test_every_answer_has_a_request_id_and_log_lines_carry_it(
        json_logs: pytest.CaptureFixture[str]) -> None:
    json_logging()
    app = create_app(Settings(database_url="memory://", gc_tuning=False))

    @app.get("/logs-something")
    async def logs_something() -> dict[str, str]:
        logging.getLogger("cardhall.test").warning("inside the request")
        return {}

    with TestClient(app) as client:
        r1 = client.get("/healthz")
        r2 = client.get("/logs-something", headers={"X-Request-ID": "ab" * 16})
        r3 = client.get("/no-such-route")
        r4 = client.post("/api/players", json={})
    ids = [r.headers.get("x-request-id") for r in (r1, r2, r3, r4)]
    assert all(ids) and len(set(ids)) == 4, ids
    assert ids[1] == "ab" * 16  # a client's valid id is kept
    [line] = [x for x in lines(json_logs) if x["event"] == "inside the request"]
    assert line["request_id"] == "ab" * 16


def test_an_invalid_client_request_id_is_replaced(json_logs: pytest.CaptureFixture[str]) -> None:
    with TestClient(create_app(Settings(database_url="memory://", gc_tuning=False))) as client:
        r = client.get("/healthz", headers={"X-Request-ID": "not-a-uuid; injected=1"})
    assert r.headers["x-request-id"] != "not-a-uuid; injected=1"
    assert len(r.headers["x-request-id"]) == 32


def test_uvicorns_color_message_is_not_in_json_lines(
        json_logs: pytest.CaptureFixture[str]) -> None:
    json_logging()
    # uvicorn attaches color_message to its records; a logger of the test's own (uvicorn's
    # levels are set by the live servers of other tests) carries the same extra
    logging.getLogger("cardhall.test.uvicornlike").warning(
        "Started server process [%d]", 7, extra={"color_message": "\x1b[36m7\x1b[0m"})
    [line] = [x for x in lines(json_logs) if x["event"].startswith("Started server")]
    assert "color_message" not in line and line["event"] == "Started server process [7]"
