"""Logs and metrics for operators: structlog for logs, prometheus-client for ``/metrics``.

* Logs: every ``logging`` record of the app (and uvicorn's) goes through structlog's
  ``ProcessorFormatter``: JSON lines with ``CARDHALL_LOG_FORMAT=json`` (for log shippers), or
  readable console lines (the default). Timestamps are ISO 8601 UTC.
* Metrics: ``GET /metrics`` in Prometheus text format, read at scrape time from the table
  manager's figures (no bookkeeping on the hot path): live tables by status, seats taken,
  connections, games saved, tables closed, inbox backlog, plus the process collectors.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from typing import Any

import structlog
from asgi_correlation_id import CorrelationIdMiddleware, correlation_id
from fastapi import FastAPI, Response
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.process_collector import ProcessCollector
from prometheus_client.registry import Collector
from starlette.types import ASGIApp, Receive, Scope, Send

from . import gctune


def configure_logging(fmt: str = "console", level: str = "INFO") -> None:
    """Route stdlib logging through structlog; ``fmt`` is ``"json"`` or ``"console"``.

    Every line carries ``timestamp`` (ISO 8601 UTC), ``level``, ``logger`` and whatever is bound
    in structlog's contextvars (``request_id`` during a request, see :func:`install_request_id`).
    A logged exception (``log.exception(...)`` or ``exc_info=True``) keeps its traceback: in JSON
    as the text of ``exception``, on the console rendered below the line.
    """
    shared: list[Any] = [
        structlog.contextvars.merge_contextvars,
        structlog.stdlib.add_log_level,
        structlog.stdlib.add_logger_name,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]
    last: list[Any] = ([structlog.processors.StackInfoRenderer(),
                        structlog.processors.format_exc_info,
                        structlog.processors.JSONRenderer()] if fmt == "json"
                       else [structlog.dev.ConsoleRenderer(colors=False)])
    formatter = structlog.stdlib.ProcessorFormatter(
        foreign_pre_chain=shared,
        processors=[structlog.stdlib.ProcessorFormatter.remove_processors_meta, *last],
    )
    handler = logging.StreamHandler()
    handler.setFormatter(formatter)
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logging.getLogger(name).handlers[:] = []
        logging.getLogger(name).propagate = True
    structlog.configure(
        processors=[*shared, structlog.stdlib.ProcessorFormatter.wrap_for_formatter],
        logger_factory=structlog.stdlib.LoggerFactory(),
        wrapper_class=structlog.stdlib.BoundLogger,
        cache_logger_on_first_use=True,
    )


REQUEST_ID_HEADER = "X-Request-ID"
"""The response header carrying a request's id (a client's own valid id is kept)."""


class _BindRequestId:
    """ASGI middleware: bind the request id (set by ``CorrelationIdMiddleware`` just outside)
    into structlog's contextvars for the request's duration, so every log line carries
    ``request_id``."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request_id = correlation_id.get()
        if scope["type"] not in ("http", "websocket") or request_id is None:
            await self.app(scope, receive, send)
            return
        with structlog.contextvars.bound_contextvars(request_id=request_id):
            await self.app(scope, receive, send)


def install_request_id(app: FastAPI) -> None:
    """Give every HTTP request and WebSocket connection an id (asgi-correlation-id): taken
    from the client's ``X-Request-ID`` when it is a UUID-like hex id, else a fresh UUID4 hex;
    sent back in the ``X-Request-ID`` response header and bound as ``request_id`` in the logs.

    Add it after every other middleware so that it is the outermost (errors answered by
    inner middleware carry the header too).
    """
    app.add_middleware(_BindRequestId)
    app.add_middleware(CorrelationIdMiddleware, header_name=REQUEST_ID_HEADER)


class TablesCollector(Collector):
    """Prometheus collector over ``TableManager.stats()`` (read at scrape time)."""

    def __init__(self, stats: Callable[[], dict[str, Any] | None]) -> None:
        self._stats = stats

    def collect(self) -> Iterator[GaugeMetricFamily | CounterMetricFamily]:
        s = self._stats()
        if not s:
            return
        tables = GaugeMetricFamily("cardhall_tables", "Live tables by status", labels=["status"])
        for status, n in sorted(s.get("tables_by_status", {}).items()):
            tables.add_metric([status], n)
        yield tables
        for key, help_text in (("seats_taken", "Seats taken at live tables"),
                               ("connections", "Connections (sockets and bots) at live tables"),
                               ("inbox_backlog", "Messages waiting in table inboxes")):
            yield GaugeMetricFamily(f"cardhall_{key}", help_text, value=s.get(key, 0))
        yield CounterMetricFamily("cardhall_games_saved",
                                  "Finished games handed to the writer since start",
                                  value=s.get("games_saved", 0))
        yield CounterMetricFamily("cardhall_tables_closed", "Tables closed since start",
                                  value=s.get("tables_closed", 0))


class WriterCollector(Collector):
    """Prometheus collector over the game writer's counters (``storage/writer.py``): games
    handed over, saved, lost after retries, batches and the queue depth (since start, so the
    counters never go down as tables close)."""

    def __init__(self, app: FastAPI) -> None:
        self._app = app

    def collect(self) -> Iterator[GaugeMetricFamily | CounterMetricFamily]:
        w = getattr(self._app.state, "writer", None)
        if w is None:
            return
        for key, help_text in (("submitted", "Finished games handed to the game writer"),
                               ("saved", "Finished games the game writer stored"),
                               ("failed", "Finished games lost after the writer's retries"),
                               ("batches", "Transactions the game writer committed")):
            yield CounterMetricFamily(f"cardhall_writer_{key}", help_text,
                                      value=getattr(w, key, 0))
        yield GaugeMetricFamily("cardhall_writer_queued", "Finished games waiting to be saved",
                                value=w.queued)


def install_metrics(app: FastAPI) -> None:
    """Add ``GET /metrics`` (Prometheus text format) with a registry of this app's own."""
    registry = CollectorRegistry()
    ProcessCollector(registry=registry)

    def stats() -> dict[str, Any] | None:
        manager = getattr(app.state, "tables", None)
        return None if manager is None else manager.stats()

    registry.register(TablesCollector(stats))
    registry.register(WriterCollector(app))
    gctune.MONITOR.install()
    registry.register(gctune.MONITOR)

    @app.get("/metrics", include_in_schema=False)
    async def metrics() -> Response:
        return Response(generate_latest(registry), media_type=CONTENT_TYPE_LATEST)
