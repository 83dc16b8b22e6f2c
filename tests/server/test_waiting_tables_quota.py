"""Waiting tables per client address (issue 24, row 10; ``docs/rest.md``, "Limits").

Before: guests are cheap (10 a minute per address) and each may keep 5 live tables, so one
address kept some 250 empty tables in the lobby at the default limits. Now the tables created
from one address that still wait for their first game are at most
``CARDHALL_MAX_WAITING_TABLES_PER_ADDRESS`` (20); the next is 429 ``quota.tables``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AsyncExitStack

import httpx
import pytest

from cardhall.config import Settings
from cardhall.server.app import create_app

ADMIN = {"Authorization": "Bearer admin-secret"}
DEFAULT = Settings.model_fields["max_waiting_tables_per_address"].default


@pytest.fixture
async def clients() -> AsyncIterator[tuple[httpx.AsyncClient, httpx.AsyncClient]]:
    """Two clients of one app, from two addresses; rates out of the way."""
    app = create_app(Settings(database_url="memory://", admin_token="admin-secret",
                              rest_rate_limit="1000000/minute",
                              guest_rate_limit="1000000/minute"))
    async with AsyncExitStack() as stack:
        await stack.enter_async_context(app.router.lifespan_context(app))
        out = []
        for address in ("203.0.113.7", "198.51.100.9"):
            transport = httpx.ASGITransport(app=app, client=(address, 4711))
            out.append(await stack.enter_async_context(
                httpx.AsyncClient(transport=transport, base_url="http://test")))
        yield out[0], out[1]


async def _guest(http: httpx.AsyncClient, name: str) -> dict[str, str]:
    r = await http.post("/api/players", json={"name": name})
    return {"Authorization": f"Bearer {r.json()['token']}"}


async def test_one_address_keeps_at_most_20_waiting_tables(
        clients: tuple[httpx.AsyncClient, httpx.AsyncClient]) -> None:
    mine, other = clients
    assert DEFAULT == 20
    body = {"game": "palace_poker", "seats": 10}
    made = []
    for g in range(DEFAULT // 5):  # fresh guests: the per-player quota (5) never bites first
        me = await _guest(mine, f"g{g}")
        for _ in range(5):
            r = await mine.post("/api/tables", headers=me, json=body)
            assert r.status_code == 201, r.text
            made.append(r.json()["id"])
    me = await _guest(mine, "one-more")
    refused = await mine.post("/api/tables", headers=me, json=body)
    assert refused.status_code == 429, refused.text
    error = refused.json()["error"]
    assert error["code"] == "quota.tables" and "max_waiting_tables_per_address" in error["message"]
    assert refused.headers["retry-after"] == "60"
    listed = (await mine.get("/api/tables?limit=100")).json()
    assert [t["id"] for t in listed] == made  # nothing was made
    # another address is not held back
    ok = await other.post("/api/tables", headers=await _guest(other, "b"), json=body)
    assert ok.status_code == 201
    # a table that closes (or starts its game) no longer counts
    closed = await mine.post(f"/api/admin/tables/{made[0]}/close", json={}, headers=ADMIN)
    assert closed.status_code == 200, closed.text
    assert (await mine.post("/api/tables", headers=me, json=body)).status_code == 201
