"""Shared helpers of the SDK tests: the live server of ``tests/server/livesrv.py``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

from livesrv import LiveServer, live_server

__all__ = ["LiveServer", "bot_token", "live_server", "make_table"]


async def bot_token(live: LiveServer, name: str) -> tuple[str, str]:
    """A bot identity made over REST (``POST /api/players`` with ``bot: true``): (id, token)."""
    async with live.http as http:
        r = await http.post("/api/players", json={"name": name, "bot": True})
        assert r.status_code == 201, r.text
        return r.json()["id"], r.json()["token"]


async def make_table(live: LiveServer, token: str, **body: Any) -> str:
    """Create a table over REST; returns its id."""
    async with live.http as http:
        r = await http.post("/api/tables", json=body, headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 201, r.text
        return str(r.json()["id"])
