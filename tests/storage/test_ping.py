"""``ping()`` on every store: answers when the database does, raises within its bound when not."""

from __future__ import annotations

import asyncio
import socket

import pytest

from cardhall.storage import Store
from cardhall.storage.sql import SqlStore


async def test_ping_answers_on_a_started_store(store: Store) -> None:
    await asyncio.wait_for(store.ping(), timeout=5)  # type: ignore[attr-defined]


async def test_ping_raises_for_a_refused_postgresql_connection() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    dead = SqlStore(f"postgresql+asyncpg://postgres@127.0.0.1:{port}/test", timeout_seconds=0.5)
    try:
        with pytest.raises(OSError):
            await asyncio.wait_for(dead.ping(), timeout=5)
    finally:
        await dead.close()


async def test_ping_is_bounded_by_the_store_timeout() -> None:
    """A server that accepts the TCP connection and never answers: ``TimeoutError`` after
    ``timeout_seconds``, not a hang."""
    silent = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
    port = silent.sockets[0].getsockname()[1]
    dead = SqlStore(f"postgresql+asyncpg://postgres@127.0.0.1:{port}/test", timeout_seconds=0.3)
    try:
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(dead.ping(), timeout=5)
    finally:
        await dead.close()
        silent.close()
