"""The application factory: settings -> store -> table manager -> routers.

Routers live in ``server/routes/`` (one module per resource); the WebSocket endpoint in
``server/ws.py``; request dependencies in ``server/deps.py``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from .. import __version__
from ..config import Settings
from ..engine import game_names
from ..evaluators import install as install_evaluators
from ..storage.factory import make_store
from ..storage.log import TableLog
from ..storage.writer import CLOSE_TIMEOUT_SECONDS, GameWriter
from ..tables.manager import TableManager
from . import gctune, health, ws
from .errors import install_error_handlers
from .limits import BodySizeLimit
from .observability import install_metrics, install_request_id
from .quotas import RateLimits, RestRateLimit, SocketQuota
from .routes import (
    admin,
    admin_bots,
    admin_players,
    asyncapi,
    games,
    lobby,
    players,
    rules_data,
)


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the app from ``settings`` (read from the environment when omitted).

    At start-up the store connects (SQL stores apply Alembic migrations), the game writer
    (``app.state.writer``, which saves finished games in batches), the table log
    (``app.state.log``, SQL stores with ``durable_tables``) and the table manager start (it
    restores the live tables of the log); at shutdown the tables stop first (their logs stay),
    then the log is flushed, then the writer saves what is queued and stops, then the store
    closes.
    """
    settings = settings or Settings()
    install_evaluators()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = make_store(settings.database_url, timeout_seconds=settings.db_timeout_seconds)
        await store.start()
        app.state.store = store
        durable = settings.durable_tables and settings.database_url != "memory://"
        writer = GameWriter(store, max_queued=settings.save_queue_max,
                            max_attempts=None if durable else 6, outbox=durable,
                            db_timeout_seconds=settings.db_timeout_seconds)
        writer.start()
        app.state.writer = writer
        table_log = None
        if durable:
            table_log = TableLog(store, max_backlog=settings.log_backlog_max,
                                 sync_timeout_seconds=settings.log_sync_timeout_seconds,
                                 db_timeout_seconds=settings.db_timeout_seconds)
            table_log.start()
        app.state.log = table_log
        manager = TableManager(settings, store, writer=writer, log=table_log)
        app.state.tables = manager
        await manager.start()
        refreezer = None
        if settings.gc_tuning:
            gctune.tune(settings.gc_threshold0, settings.gc_threshold1)
            refreezer = gctune.Refreezer(settings.gc_freeze_interval_seconds,
                                         settings.gc_full_collect_every)
            refreezer.start()
        try:
            yield
        finally:
            if refreezer is not None:
                await refreezer.stop()
            try:
                await manager.stop()
                if table_log is not None:
                    await table_log.close(timeout=CLOSE_TIMEOUT_SECONDS)
                await writer.close(timeout=CLOSE_TIMEOUT_SECONDS)
            finally:
                await store.close()

    app = FastAPI(title="cardhall", version=__version__, lifespan=lifespan)
    app.state.settings = settings
    app.state.draining = False  # set by server/drain.py on SIGTERM/SIGINT
    app.state.sessions = set()  # open sockets (server/ws.py), closed by the drain
    app.state.socket_quota = SocketQuota(settings.max_sockets_per_player)
    app.state.rate_limits = RateLimits(settings.rate_limit_storage_uri,
                                       rest=settings.rest_rate_limit,
                                       guests=settings.guest_rate_limit)
    install_error_handlers(app)
    app.add_middleware(BodySizeLimit, max_bytes=settings.max_body_bytes)
    # outside the body limit: a client over its rate is refused before its body is read
    app.add_middleware(RestRateLimit, limits=app.state.rate_limits)

    @app.get("/healthz")
    async def healthz() -> dict[str, object]:
        """Liveness: ``{"status": "ok", "version": ..., "games": [...]}``."""
        return {"status": "ok", "version": __version__, "games": game_names()}

    if settings.metrics_enabled:
        install_metrics(app)
    install_request_id(app)  # the outermost middleware: every answer carries X-Request-ID
    _include_routers(app)
    _mount_static(app, settings)
    return app


def _include_routers(app: FastAPI) -> None:
    """Mount the REST routers (readiness, players, games, lobby, rules data, admin) and the
    WebSocket endpoint."""
    for router in (health.router, players.router, games.router, lobby.router, rules_data.router,
                   admin.router, admin_players.router, admin_bots.router, asyncapi.router,
                   ws.router):
        app.include_router(router)


def _mount_static(app: FastAPI, settings: Settings) -> None:
    """Serve the browser client: ``/`` is ``static/index.html``, assets under ``/static``."""
    from fastapi.responses import FileResponse
    from fastapi.staticfiles import StaticFiles

    directory = settings.resolved_static_dir()
    if directory is None:
        return
    app.mount("/static", StaticFiles(directory=directory), name="static")
    index = directory / "index.html"

    @app.get("/", include_in_schema=False)
    async def root() -> FileResponse:
        return FileResponse(index)
