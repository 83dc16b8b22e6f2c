"""Test helpers for cluster mode (``docs/scaling.md``): N ``cardhall serve`` nodes sharing one
PostgreSQL database and one Redis under a key prefix of the test's own.

    async with cluster(tmp_path, 3) as (nodes, url):
        ...  # nodes[0].base_url; url: the shared database

Skips (with the reason) where Redis or PostgreSQL is absent. The prefix's keys are deleted
afterwards; the database is dropped.
"""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from procsrv import ProcServer
from test_durable_process import ENV, database

REDIS_URL = os.environ.get("CARDHALL_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
LEASE_SECONDS = 2.0
ADMIN = {"Authorization": "Bearer admin-secret"}


async def redis_or_skip(url: str = REDIS_URL) -> None:
    """Skip the test unless Redis answers at ``url``."""
    from redis.asyncio import Redis

    client = Redis.from_url(url, socket_connect_timeout=2)
    try:
        await client.ping()
    except Exception as exc:
        pytest.skip(f"Redis not reachable at {url} ({type(exc).__name__}: {exc}); "
                    "set CARDHALL_TEST_REDIS_URL")
    finally:
        await client.aclose()


async def drop_prefix(prefix: str, url: str = REDIS_URL) -> None:
    from redis.asyncio import Redis

    client = Redis.from_url(url)
    try:
        keys = [k async for k in client.scan_iter(match=f"{prefix}:*")]
        if keys:
            await client.delete(*keys)
    finally:
        await client.aclose()


def node_env(url: str, prefix: str, node: str, **extra: str) -> dict[str, str]:
    return {**ENV, "CARDHALL_DATABASE_URL": url, "CARDHALL_REDIS_URL": REDIS_URL,
            "CARDHALL_REDIS_PREFIX": prefix, "CARDHALL_NODE_ID": node,
            "CARDHALL_LEASE_SECONDS": str(LEASE_SECONDS), **extra}


@contextlib.asynccontextmanager
async def cluster(tmp_path: Path, n: int, **extra: str) -> AsyncIterator[tuple[list[ProcServer],
                                                                                str]]:
    """``n`` started nodes named ``a``, ``b``, ... (``extra``: more ``CARDHALL_*`` settings)."""
    await redis_or_skip()
    prefix = f"cardhall-test-{uuid.uuid4().hex[:8]}"
    async with database("postgresql", tmp_path) as url, contextlib.AsyncExitStack() as stack:
        stack.push_async_callback(drop_prefix, prefix)
        nodes = [ProcServer(tmp_path, node_env(url, prefix, chr(97 + i), **extra),
                            name=chr(97 + i)) for i in range(n)]
        for node in nodes:
            await node.start()
            stack.push_async_callback(node.stop)
        yield nodes, url


async def guest(node: ProcServer, name: str) -> str:
    async with node.http() as http:
        r = await http.post("/api/players", json={"name": name})
        assert r.status_code == 201, r.text
        token: str = r.json()["token"]
        return token


async def post(node: ProcServer, path: str, body: dict[str, Any], token: str | None = None,
               headers: dict[str, str] | None = None) -> Any:
    async with node.http() as http:
        auth = {"Authorization": f"Bearer {token}"} if token else {}
        return await http.post(path, json=body, headers={**auth, **(headers or {})})


async def get(node: ProcServer, path: str, headers: dict[str, str] | None = None) -> Any:
    async with node.http() as http:
        return await http.get(path, headers=headers)
