"""The application factory."""

from __future__ import annotations

from fastapi import FastAPI

from .. import __version__
from ..engine import game_names
from .settings import Settings


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the app from ``settings`` (read from the environment when omitted)."""
    settings = settings or Settings()
    app = FastAPI(title="cardhall", version=__version__)
    app.state.settings = settings

    @app.get("/healthz")
    async def healthz() -> dict[str, object]:
        """Liveness: ``{"status": "ok", "version": ..., "games": [...]}``."""
        return {"status": "ok", "version": __version__, "games": game_names()}

    return app
