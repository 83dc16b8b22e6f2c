"""``cardhall serve``: run the app under uvicorn."""

from __future__ import annotations

import uvicorn

from .app import create_app
from .settings import Settings


def serve(host: str | None = None, port: int | None = None) -> None:
    """Start uvicorn with the app; ``host``/``port`` override the settings."""
    settings = Settings()
    uvicorn.run(
        create_app(settings),
        host=host or settings.host,
        port=port or settings.port,
        ws_max_size=settings.max_frame_bytes,
        log_level="info",
    )
