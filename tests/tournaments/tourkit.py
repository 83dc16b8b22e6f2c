"""Shared steps of the tournament tests that run a director on a real table manager."""

from __future__ import annotations

import asyncio
from contextlib import AsyncExitStack
from typing import Any

import httpx

from cardhall.config import Settings
from cardhall.server.app import create_app
from cardhall.tables.manager import TableManager
from cardhall.tournaments import Director


async def outcome(director: Director, manager: TableManager, tid: str,
                   timeout: float) -> tuple[dict[str, Any], dict[str, Any]]:
    """Wait (at most ``timeout`` seconds) for tournament ``tid`` to end, let the game writer
    save what is left, and answer its document and its verification
    (``GET /api/tournaments/{id}`` and ``/verify``)."""
    await asyncio.wait_for(director.wait(tid), timeout)
    await manager.writer.flush()
    return await director.get(tid), await director.verify(tid)


async def started_client(stack: AsyncExitStack, settings: dict[str, Any]) -> httpx.AsyncClient:
    """An app on ``settings``, started (its lifespan) on ``stack``, and an httpx client on it:
    a server that ``stack``'s exit stops (a restart test opens two on one database)."""
    app = create_app(Settings(**settings))
    await stack.enter_async_context(app.router.lifespan_context(app))
    return await stack.enter_async_context(
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test"))
