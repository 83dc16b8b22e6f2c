"""``cardhall serve``: run the app under uvicorn."""

from __future__ import annotations

import uvicorn

from ..config import Settings
from .app import create_app
from .observability import configure_logging


def serve(host: str | None = None, port: int | None = None) -> None:
    """Start uvicorn with the app; ``host``/``port`` override the settings."""
    settings = Settings()
    configure_logging(settings.log_format, settings.log_level)
    uvicorn.run(
        create_app(settings),
        host=host or settings.host,
        port=port or settings.port,
        ws=settings.ws_implementation,
        ws_max_size=settings.ws_max_size_bytes,
        ws_per_message_deflate=False,
        log_level=settings.log_level.lower(),
        log_config=None,  # keep the structlog handlers configured above
    )
