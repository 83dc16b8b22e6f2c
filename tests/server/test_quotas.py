"""Quotas and rate limits over REST (``docs/rest.md``, "Limits"; ``server/quotas.py``).

Each limit is tested at its default: the next request is 429 with the documented body and a
``Retry-After`` in whole seconds, and what it protects is unchanged. The rate windows run on a
fake wall clock (the ``limits`` memory storage reads ``time.time``), so "a minute later" takes
no time.
"""

from __future__ import annotations

import types
from collections.abc import AsyncIterator
from typing import Any

import httpx
import limits.aio.storage.memory
import limits.aio.strategies
import pytest

from cardhall.config import Settings
from cardhall.server import quotas
from cardhall.server.app import create_app

DEFAULTS = {name: Settings.model_fields[name].default for name in (
    "max_live_tables_per_player", "max_sockets_per_player", "rest_rate_limit",
    "guest_rate_limit")}


class Wall:
    """``time.time`` for the ``limits`` library's memory storage and strategies, moved by hand."""

    def __init__(self) -> None:
        self.t = 1_800_000_000.0

    def time(self) -> float:
        return self.t


@pytest.fixture
def wall(monkeypatch: pytest.MonkeyPatch) -> Wall:
    clock = Wall()
    fake = types.SimpleNamespace(time=clock.time)
    for module in (limits.aio.storage.memory, limits.aio.strategies):
        monkeypatch.setattr(module, "time", fake)
    return clock


async def started(stack: Any, address: str = "203.0.113.7", **settings: Any) -> httpx.AsyncClient:
    values = {"database_url": "memory://", "admin_token": "admin-secret", **settings}
    app = create_app(Settings(**values))
    await stack.enter_async_context(app.router.lifespan_context(app))
    transport = httpx.ASGITransport(app=app, client=(address, 4711))
    return await stack.enter_async_context(
        httpx.AsyncClient(transport=transport, base_url="http://test"))


@pytest.fixture
async def stack() -> AsyncIterator[Any]:
    from contextlib import AsyncExitStack

    async with AsyncExitStack() as s:
        yield s


def assert_429(r: httpx.Response, code: str) -> int:
    """The documented 429: ``{"error": {"code", "message"}}`` and ``Retry-After`` seconds."""
    assert r.status_code == 429, r.text
    assert r.headers["content-type"] == "application/json"
    body = r.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}
    assert body["error"]["code"] == code and body["error"]["message"]
    retry = r.headers["Retry-After"]
    assert retry.isdigit() and int(retry) >= 1, retry
    return int(retry)


def test_the_defaults_are_the_documented_ones() -> None:
    assert DEFAULTS == {"max_live_tables_per_player": 5, "max_sockets_per_player": 10,
                        "rest_rate_limit": "120/minute", "guest_rate_limit": "10/minute"}
    assert Settings.model_fields["rate_limit_storage_uri"].default == "memory://"


@pytest.mark.parametrize("rate", ["lots", "10/minute;5/second", ""])
def test_a_rate_that_does_not_parse_is_refused_at_start_up(rate: str) -> None:
    with pytest.raises(ValueError):
        Settings(guest_rate_limit=rate)


async def test_guest_creation_is_10_a_minute_per_address(stack: Any, wall: Wall) -> None:
    http = await started(stack, **DEFAULTS)
    other = await started(stack, "198.51.100.9", **DEFAULTS)
    tokens = []
    for i in range(10):
        r = await http.post("/api/players", json={"name": f"g{i}"})
        assert r.status_code == 201, r.text
        tokens.append(r.json()["token"])
    r = await http.post("/api/players", json={"name": "one too many"})
    retry = assert_429(r, "rate.limited")
    assert retry <= 61 and "guests" in r.json()["error"]["message"]
    assert (await other.post("/api/players", json={"name": "elsewhere"})).status_code == 201
    # reading is not creating: the guest rate is only POST /api/players
    r = await http.get("/api/players/me", headers={"Authorization": f"Bearer {tokens[0]}"})
    assert r.status_code == 200, r.text
    wall.t += retry  # as told: the address may create a guest again
    assert (await http.post("/api/players", json={"name": "later"})).status_code == 201


async def test_rest_requests_are_120_a_minute_per_address_health_and_metrics_exempt(
        stack: Any, wall: Wall) -> None:
    http = await started(stack, **DEFAULTS)
    for _ in range(120):
        assert (await http.get("/api/tables")).status_code == 200
    retry = assert_429(await http.get("/api/tables"), "rate.limited")
    assert retry <= 61
    assert_429(await http.get("/api/no-such-route"), "rate.limited")  # every /api path counts
    for path in ("/healthz", "/readyz", "/metrics", "/openapi.json"):
        assert (await http.get(path)).status_code == 200, path
    wall.t += retry
    assert (await http.get("/api/tables")).status_code == 200


async def test_the_rate_is_refused_before_the_body_is_read(stack: Any, wall: Wall) -> None:
    http = await started(stack, **{**DEFAULTS, "rest_rate_limit": "1/minute"})
    assert (await http.get("/api/tables")).status_code == 200
    r = await http.post("/api/players", content=b"{" * 10, headers={"content-type": "application/json"})
    assert_429(r, "rate.limited")  # not 422: nothing of the request was looked at


async def test_live_tables_per_player_is_5(stack: Any) -> None:
    http = await started(stack, **DEFAULTS)
    ana = {"Authorization": f"Bearer {(await http.post('/api/players', json={'name': 'ana'})).json()['token']}"}
    bob = {"Authorization": f"Bearer {(await http.post('/api/players', json={'name': 'bob'})).json()['token']}"}
    me = (await http.get("/api/players/me", headers=ana)).json()["id"]
    ids = []
    for _ in range(5):
        r = await http.post("/api/tables", headers=ana, json={
            "game": "bazaar_blot", "bots": [{"seat": s, "kind": "random"} for s in (1, 2, 3)]})
        assert r.status_code == 201, r.text
        assert r.json()["created_by"] == me
        ids.append(r.json()["id"])
    r = await http.post("/api/tables", headers=ana, json={"game": "soldiers_bluff"})
    assert_429(r, "quota.tables")
    assert "max_live_tables_per_player=5" in r.json()["error"]["message"]
    # quick seat: an open table of the game is still offered; creating one is refused
    r = await http.post("/api/tables/quick-seat", headers=ana, json={"game": "bazaar_blot"})
    assert r.status_code == 200 and r.json()["table_id"] in ids, r.text
    assert_429(await http.post("/api/tables/quick-seat", headers=ana,
                               json={"game": "palace_poker"}), "quota.tables")
    # another player is not affected
    assert (await http.post("/api/tables", headers=bob, json={"game": "soldiers_bluff"})
            ).status_code == 201
    # a closed table frees its place
    admin = {"Authorization": "Bearer admin-secret"}
    closed = (await http.post(f"/api/admin/tables/{ids[0]}/close", headers=admin)).json()
    assert closed["closed"] is True
    r = await http.post("/api/tables", headers=ana, json={"game": "soldiers_bluff"})
    assert r.status_code == 201, r.text


async def test_tables_show_who_created_them_and_when(stack: Any) -> None:
    http = await started(stack)
    token = (await http.post("/api/players", json={"name": "ana"})).json()["token"]
    auth = {"Authorization": f"Bearer {token}"}
    me = (await http.get("/api/players/me", headers=auth)).json()["id"]
    table = (await http.post("/api/tables", headers=auth, json={"game": "soldiers_bluff"})).json()
    assert table["created_by"] == me
    assert table["created_at"].endswith("Z") and table["last_active_at"] >= table["created_at"]
    listed = (await http.get("/api/tables")).json()
    assert [(t["id"], t["created_by"]) for t in listed] == [(table["id"], me)]
    admin = {"Authorization": "Bearer admin-secret"}
    for path in ("/api/admin/tables", f"/api/admin/tables/{table['id']}"):
        body = (await http.get(path, headers=admin)).json()
        one = body[0] if isinstance(body, list) else body
        assert one["created_by"] == me and one["created_at"] == table["created_at"]
        assert "last_active_at" in one


@pytest.mark.parametrize("offset", [0.0, 0.25, 17.5, 30.0, 59.9])
@pytest.mark.parametrize("later", [0.0, 45.0, 61.0, 100.0])
async def test_retry_after_is_when_the_window_lets_one_more_in(
        wall: Wall, offset: float, later: float) -> None:
    # fill the window at some point of it, come back `later`, fill it again: one more hit
    # is refused until Retry-After has passed, and allowed then
    rl = quotas.RateLimits("memory://", rest="120/minute", guests="10/minute")
    wall.t += offset
    for _ in range(10):
        assert await rl.retry_after(rl.guests, "guests", "a") is None
    wall.t += later
    retry = None
    for _ in range(11):
        retry = await rl.retry_after(rl.guests, "guests", "a")
        if retry is not None:
            break
    assert retry is not None and 1 <= retry <= 61
    assert await rl.retry_after(rl.guests, "guests", "a") is not None  # refusals not counted
    wall.t += retry
    assert await rl.retry_after(rl.guests, "guests", "a") is None


async def test_a_failing_rate_storage_lets_requests_through(
        stack: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    http = await started(stack, **{**DEFAULTS, "rest_rate_limit": "1/minute"})

    async def down(*_args: Any, **_kw: Any) -> bool:
        raise ConnectionError("rate storage down")

    monkeypatch.setattr(limits.aio.strategies.SlidingWindowCounterRateLimiter, "hit", down)
    for _ in range(3):
        assert (await http.get("/api/tables")).status_code == 200
    assert "rate limit storage failed" in caplog.text
