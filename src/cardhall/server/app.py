"""The application factory: settings -> store -> table manager -> routers.

Routers live in ``server/routes/`` (one module per resource); the WebSocket endpoint in
``server/ws.py``; request dependencies in ``server/deps.py``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI

from .. import __version__
from ..config import Settings
from ..engine import game_names
from ..evaluators import install as install_evaluators
from ..storage.factory import make_store
from .errors import install_error_handlers
from .limits import BodySizeLimit
from .observability import install_metrics


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the app from ``settings`` (read from the environment when omitted).

    At start-up the store connects (SQL stores apply Alembic migrations) and the table manager
    starts; at shutdown every table task is cancelled and the store closed.
    """
    settings = settings or Settings()
    install_evaluators()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = make_store(settings.database_url)
        await store.start()
        app.state.store = store
        manager = _make_manager(settings, store)
        app.state.tables = manager
        if manager is not None:
            await manager.start()
        try:
            yield
        finally:
            if manager is not None:
                await manager.stop()
            await store.close()

    app = FastAPI(title="cardhall", version=__version__, lifespan=lifespan)
    app.state.settings = settings
    install_error_handlers(app)
    app.add_middleware(BodySizeLimit, max_bytes=settings.max_body_bytes)

    @app.get("/healthz")
    async def healthz() -> dict[str, object]:
        """Liveness: ``{"status": "ok", "version": ..., "games": [...]}``."""
        return {"status": "ok", "version": __version__, "games": game_names()}

    if settings.metrics_enabled:
        install_metrics(app)
    _include_routers(app)
    _mount_static(app, settings)
    return app


def _make_manager(settings: Settings, store: Any) -> Any:
    try:
        from ..tables.manager import TableManager
    except ModuleNotFoundError:
        return None
    return TableManager(settings, store)


def _include_routers(app: FastAPI) -> None:
    """Mount every router module present (players, games, lobby, rules data, admin, the
    WebSocket)."""
    import importlib

    modules = ("routes.players", "routes.games", "routes.lobby", "routes.rules_data",
               "routes.admin", "routes.admin_players", "routes.admin_bots", "routes.asyncapi",
               "ws")
    for name in modules:
        module_name = f"cardhall.server.{name}"
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
            continue
        app.include_router(module.router)


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
