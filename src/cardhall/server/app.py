"""The application factory: settings -> store -> table manager -> routers.

Routers live in ``server/routes/`` (one module per resource); the WebSocket endpoint in
``server/ws.py``; request dependencies in ``server/deps.py``.
"""

from __future__ import annotations

from fastapi import FastAPI

from .. import __version__
from ..config import Settings
from ..engine import game_names
from ..evaluators import install as install_evaluators
from . import health, ws
from .apidocs import install_api_docs
from .errors import install_error_handlers
from .health import Liveness
from .lifespan import make_lifespan
from .limits import BodySizeLimit
from .observability import install_metrics, install_request_id
from .quotas import RateLimits, RestRateLimit, SocketQuota
from .routes import (
    admin,
    admin_audit,
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

    Its services (store, game writer, table log, table manager) start and stop with the app's
    lifespan (:mod:`.lifespan`).
    """
    settings = settings or Settings()
    install_evaluators()

    app = FastAPI(title="cardhall", version=__version__, lifespan=make_lifespan(settings),
                  docs_url=None, redoc_url=None)  # served offline: apidocs.py
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

    @app.get("/healthz", response_model=Liveness)
    async def healthz() -> dict[str, object]:
        """Liveness: ``{"status": "ok", "version": ..., "games": [...]}``."""
        return {"status": "ok", "version": __version__, "games": game_names()}

    if settings.metrics_enabled:
        install_metrics(app)
    install_request_id(app)  # the outermost middleware: every answer carries X-Request-ID
    _include_routers(app)
    install_api_docs(app)
    _mount_static(app, settings)
    return app


def _include_routers(app: FastAPI) -> None:
    """Mount the REST routers (readiness, players, games, lobby, rules data, admin) and the
    WebSocket endpoint."""
    for router in (health.router, players.router, games.router, lobby.router, rules_data.router,
                   admin.router, admin_players.router, admin_audit.router, admin_bots.router, asyncapi.router,
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
