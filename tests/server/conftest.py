"""REST test fixtures: the real app (lifespan run) behind an httpx ``AsyncClient``."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack
from pathlib import Path

import httpx
import pytest

from cardhall.config import Settings
from cardhall.server.app import create_app

GENEROUS_LIMITS: dict[str, object] = {
    "max_live_tables_per_player": 100_000, "max_sockets_per_player": 100_000,
    "max_waiting_tables_per_address": 100_000,
    "max_sockets_per_address": 100_000,
    "rest_rate_limit": "1000000/minute", "guest_rate_limit": "1000000/minute",
    "login_rate_limit": "1000000/minute", "login_failure_rate_limit": "1000000/minute",
    "login_username_failure_rate_limit": "1000000/minute",
    "password_hash_time_cost": 1, "password_hash_memory_kib": 64}
"""Quotas and rates far above what a test does (the quota tests pass their own), and cheap
Argon2id parameters (the account tests check the PHC string, not the cost)."""

ADMIN_TOKEN = "test-admin-token-0123456789"

ClientFactory = Callable[..., Awaitable[httpx.AsyncClient]]


@pytest.fixture(params=["memory", "sqlite"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The REST tests run on the in-memory store and on SQLite."""
    if request.param == "memory":
        return "memory://"
    return f"sqlite+aiosqlite:///{tmp_path / 'api.db'}"


@pytest.fixture
async def make_client(database_url: str) -> AsyncIterator[ClientFactory]:
    """``await make_client(**settings)`` -> a client on a started app (stopped at teardown).
    Settings default to ``database_url``, ``admin_token=ADMIN_TOKEN`` and
    :data:`GENEROUS_LIMITS`."""
    async with AsyncExitStack() as stack:

        async def make(**overrides: object) -> httpx.AsyncClient:
            values: dict[str, object] = {"database_url": database_url,
                                         "admin_token": ADMIN_TOKEN, **GENEROUS_LIMITS,
                                         **overrides}
            app = create_app(Settings(**values))  # type: ignore[arg-type]
            await stack.enter_async_context(app.router.lifespan_context(app))
            transport = httpx.ASGITransport(app=app)
            return await stack.enter_async_context(
                httpx.AsyncClient(transport=transport, base_url="http://test"))

        yield make


@pytest.fixture
async def client(make_client: ClientFactory) -> httpx.AsyncClient:
    """A client on an app with an admin token configured."""
    return await make_client()
