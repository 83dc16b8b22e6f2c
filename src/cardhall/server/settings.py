"""Server settings (``design.md`` section 8): pydantic-settings, env prefix ``CARDHALL_``."""

from __future__ import annotations

from pathlib import Path

from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Every operator-facing knob. Units are in the names."""

    model_config = SettingsConfigDict(env_prefix="CARDHALL_", extra="ignore")

    database_url: str = "sqlite+aiosqlite:///./cardhall.db"
    """SQLAlchemy async URL; a SQLite file under the working directory by default."""
    host: str = "127.0.0.1"
    port: int = 8000
    admin_token: str | None = None
    """Bearer token for ``/api/admin``; admin routes are disabled while unset."""
    turn_timeout_seconds: float = 10.0
    bot_delay_seconds: float = 0.5
    max_frame_bytes: int = 16_384
    max_body_bytes: int = 65_536
    static_dir: Path | None = None
    """The browser client's folder; by default the repository's ``static/`` next to ``src/``."""

    def resolved_static_dir(self) -> Path | None:
        """``static_dir`` if set, else the repository's ``static/`` if it exists, else ``None``."""
        if self.static_dir is not None:
            return self.static_dir
        guess = Path(__file__).resolve().parents[3] / "static"
        return guess if (guess / "index.html").is_file() else None
