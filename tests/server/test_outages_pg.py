"""PostgreSQL going away under a running server (through a TCP proxy the test cuts): REST
answers 503 ``store.unavailable`` JSON within the bound, ``/readyz`` turns degraded (200: the
node serves on), and both recover when the database is back."""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
import uuid
from collections.abc import AsyncIterator

import asyncpg
import httpx
import pytest

from cardhall.config import Settings
from cardhall.server.app import create_app
from cardhall.storage.sql import SqlStore

pytestmark = pytest.mark.postgres

URL = os.environ.get("CARDHALL_TEST_POSTGRES_URL",
                     "postgresql+asyncpg://postgres@127.0.0.1:5432/test")
DSN = URL.replace("postgresql+asyncpg://", "postgresql://", 1)
TIMEOUT = 0.5


class Proxy:
    """A TCP proxy to PostgreSQL on a free local port; :meth:`cut` drops every connection and
    refuses new ones until :meth:`restore`."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.port = 0
        self.server: asyncio.Server | None = None
        self.writers: set[asyncio.StreamWriter] = set()

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", self.port)
        self.port = self.server.sockets[0].getsockname()[1]

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection(*self.target)
        self.writers |= {writer, up_writer}

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            with contextlib.suppress(OSError):
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            dst.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    async def cut(self) -> None:
        assert self.server is not None
        self.server.close()
        for w in self.writers:
            w.transport.abort()
        self.writers.clear()

    async def restore(self) -> None:
        await self.start()  # same port


async def _reachable() -> str | None:
    try:
        conn = await asyncpg.connect(DSN, timeout=2)
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"
    await conn.close()
    return None


@pytest.fixture
async def schema() -> AsyncIterator[str]:
    why = await _reachable()
    if why is not None:
        pytest.skip(f"PostgreSQL not reachable at {URL} ({why}); set CARDHALL_TEST_POSTGRES_URL")
    name = f"cardhall_test_{uuid.uuid4().hex[:12]}"
    conn = await asyncpg.connect(DSN, timeout=5)
    try:
        await conn.execute(f'CREATE SCHEMA "{name}"')
        yield name
    finally:
        await conn.execute(f'DROP SCHEMA "{name}" CASCADE')
        await conn.close()


async def test_postgres_cut_under_a_running_server_is_503_then_recovers(schema: str) -> None:
    url = httpx.URL(DSN)
    proxy = Proxy(url.host, url.port or 5432)
    await proxy.start()
    proxied = URL.replace(f"{url.host}:{url.port or 5432}", f"127.0.0.1:{proxy.port}")
    store = SqlStore(proxied, schema=schema, timeout_seconds=TIMEOUT)
    await store.start()
    app = create_app(Settings(database_url="memory://", gc_tuning=False))
    try:
        async with app.router.lifespan_context(app):
            app.state.store = store
            transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
            async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
                assert (await client.post("/api/players", json={"name": "a"})).status_code == 201
                await proxy.cut()
                for _ in range(2):  # the pooled connection is dead, then reconnecting is refused
                    t0 = time.monotonic()
                    r = await client.post("/api/players", json={"name": "b"})
                    assert r.status_code == 503, r.text
                    assert r.json()["error"]["code"] == "store.unavailable"
                    assert time.monotonic() - t0 < TIMEOUT * 5
                r = await client.get("/readyz")
                assert r.status_code == 200 and r.json()["status"] == "degraded", r.text
                await proxy.restore()
                assert (await client.get("/readyz")).json()["status"] == "ready"
                assert (await client.post("/api/players", json={"name": "c"})).status_code == 201
    finally:
        await store.close()
        await proxy.cut()
