"""``cardhall serve``: run the app under uvicorn, draining it on SIGTERM/SIGINT."""

from __future__ import annotations

import sys
from typing import Any

import uvicorn
from fastapi import FastAPI

from ..config import Settings
from .app import create_app
from .drain import DrainingServer
from .observability import configure_logging

STARTUP_FAILURE = 3
"""Exit status when the server never started (uvicorn's own ``STARTUP_FAILURE``)."""


def make_server(app: FastAPI, settings: Settings, *, host: str, port: int,
                **options: Any) -> DrainingServer:
    """The uvicorn server for ``app``: the WebSocket settings of ``design.md`` section 9
    (``settings.ws_implementation``, ``ws_max_size_bytes``, no per-message deflate) and the
    drain of ``server/drain.py`` with ``settings.shutdown_grace_seconds``.

    ``options`` are more ``uvicorn.Config`` arguments (e.g. ``log_level``); ``port`` 0 picks a
    free port (read it from ``server.servers`` once started).
    """
    config = uvicorn.Config(app, host=host, port=port, ws=settings.ws_implementation,
                            ws_max_size=settings.ws_max_size_bytes,
                            ws_per_message_deflate=False, lifespan="on", **options)
    return DrainingServer(config, settings.shutdown_grace_seconds)


def serve(host: str | None = None, port: int | None = None) -> None:
    """Start uvicorn with the app; ``host``/``port`` override the settings.

    Returns after a graceful shutdown (SIGTERM or SIGINT: the app is drained first, see
    ``server/drain.py``); exits with status 3 when the server could not start.
    """
    settings = Settings()
    configure_logging(settings.log_format, settings.log_level)
    server = make_server(create_app(settings), settings, host=host or settings.host,
                         port=settings.port if port is None else port,
                         log_level=settings.log_level.lower(),
                         log_config=None)  # keep the structlog handlers configured above
    server.run()
    if not server.started:
        sys.exit(STARTUP_FAILURE)
