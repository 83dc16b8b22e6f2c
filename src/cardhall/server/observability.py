"""Logs and metrics for operators: structlog for logs, prometheus-client for ``/metrics``.

* Logs: every ``logging`` record of the app (and uvicorn's) goes through structlog's
  ``ProcessorFormatter``: JSON lines with ``CARDHALL_LOG_FORMAT=json`` (for log shippers), or
  readable console lines (the default). Timestamps are ISO 8601 UTC.
* Request ids: every HTTP answer and WebSocket connection gets an ``X-Request-ID``
  (asgi-correlation-id), bound as ``request_id`` into every log line meanwhile.
* Metrics: ``GET /metrics`` in Prometheus text format: HTTP requests
  (prometheus-fastapi-instrumentator), WebSocket connections, and figures read at scrape time
  from the table manager, the game writer and the action log (no bookkeeping on the hot path),
  plus GC pauses and the process collectors (``docs/operations.md`` lists every metric).
"""

from __future__ import annotations

import logging
from typing import Any

import structlog
from asgi_correlation_id import CorrelationIdMiddleware, correlation_id
from fastapi import FastAPI, Response
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.process_collector import ProcessCollector
from prometheus_fastapi_instrumentator import Instrumentator
from starlette.types import ASGIApp, Receive, Scope, Send

from . import gctune
from .collectors import (
    ClusterCollector,
    LogCollector,
    RedisCollector,
    TablesCollector,
    WriterCollector,
)
from .wsmetrics import WebSocketMetrics


def _drop_color_message(_logger: Any, _name: str, event: dict[str, Any]) -> dict[str, Any]:
    """Drop uvicorn's ``color_message`` extra (the message again, with ANSI escapes)."""
    event.pop("color_message", None)
    return event


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
        structlog.stdlib.ExtraAdder(),
        _drop_color_message,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]
    last: list[Any] = ([structlog.processors.StackInfoRenderer(),
                        structlog.processors.format_exc_info,
                        structlog.processors.JSONRenderer()] if fmt == "json"
                       else [structlog.dev.ConsoleRenderer(
                           colors=False, exception_formatter=structlog.dev.plain_traceback)])
    # plain tracebacks: rich's (when rich is installed) renders every frame's locals, which
    # made an error storm (bench: Redis pool exhausted) cost most of the node's CPU
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
    # Alembic says "setup plugin ..." and "Context impl ..." at INFO on every start; its
    # "Running upgrade" lines are the ones that matter, and they stay at INFO in its
    # ``alembic.runtime.migration`` logger.
    logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)
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


def install_metrics(app: FastAPI) -> None:
    """Add ``GET /metrics`` (Prometheus text format) with a registry of this app's own (so
    several apps in one process never collide): HTTP request metrics from
    prometheus-fastapi-instrumentator (``cardhall_http_*``, by route template, method and
    status class), WebSocket connection metrics (``cardhall_ws_*``, :class:`WebSocketMetrics`),
    the table manager's, the game writer's and the action log's figures read at scrape time
    (``collectors.py``), GC pauses and the process collectors. Every metric is listed in
    ``docs/operations.md``."""
    registry = CollectorRegistry()
    ProcessCollector(registry=registry)
    registry.register(TablesCollector(app))
    registry.register(WriterCollector(app))
    registry.register(LogCollector(app))
    registry.register(ClusterCollector(app))
    registry.register(RedisCollector(app))
    gctune.MONITOR.install()
    registry.register(gctune.MONITOR)
    Instrumentator(registry=registry, excluded_handlers=["^/metrics$"],
                   should_ignore_untemplated=False, should_group_untemplated=True).instrument(
        app, metric_namespace="cardhall", latency_lowr_buckets=HTTP_LATENCY_BUCKETS)
    app.add_middleware(WebSocketMetrics, registry=registry)

    @app.get("/metrics", include_in_schema=False)
    async def metrics() -> Response:
        return Response(generate_latest(registry), media_type=CONTENT_TYPE_LATEST)


HTTP_LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
"""Buckets (seconds) of ``cardhall_http_request_duration_seconds``: the 5 s top is the
database timeout's default, so a 503 after a timed-out store call lands in its own bucket."""
