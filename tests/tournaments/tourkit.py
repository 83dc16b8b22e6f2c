"""Shared steps of the tournament tests that run a director on a real table manager."""

from __future__ import annotations

import asyncio
from typing import Any

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
