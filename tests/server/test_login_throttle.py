"""Issue 24, row 7: failed log-ins are throttled per username and network, and a username
under attack is slowed for strangers, never locked, so no stranger can lock its owner out
(``server/loginthrottle.py``, ``docs/security.md`` "Log-in throttling"). The public profile
does not show the login name."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack

import httpx
import pytest
from fastapi import FastAPI

from cardhall.config import Settings
from cardhall.server.app import create_app

PASSWORD = "correct horse battery"
OWNER = "198.51.100.7"
ADMIN_TOKEN = "test-admin-token-0123456789"
GENEROUS = {"rest_rate_limit": "1000000/minute", "guest_rate_limit": "1000000/minute",
            "password_hash_time_cost": 1, "password_hash_memory_kib": 64}
"""Generous REST rates and cheap hashing; the log-in rates stay at the server's defaults."""
From = Callable[[str], Awaitable[httpx.AsyncClient]]


def app_of(database_url: str, **settings: object) -> FastAPI:
    return create_app(Settings(database_url=database_url, admin_token=ADMIN_TOKEN,  # type: ignore[arg-type]
                               **{**GENEROUS, **settings}))


@pytest.fixture
async def stack() -> AsyncIterator[AsyncExitStack]:
    async with AsyncExitStack() as s:
        yield s


async def clients_of(stack: AsyncExitStack, app: FastAPI) -> From:
    """A started ``app`` and ``await from_(address)``: a client calling from ``address``."""
    await stack.enter_async_context(app.router.lifespan_context(app))

    async def from_(address: str) -> httpx.AsyncClient:
        transport = httpx.ASGITransport(app=app, client=(address, 4711))
        return await stack.enter_async_context(
            httpx.AsyncClient(transport=transport, base_url="http://test"))

    return from_


async def log_in(http: httpx.AsyncClient, password: str = PASSWORD,
                 username: str = "anna") -> httpx.Response:
    return await http.post("/api/sessions", json={"username": username, "password": password})


async def test_twenty_failures_from_anywhere_do_not_lock_the_owner_out(
        stack: AsyncExitStack, database_url: str) -> None:
    """The attack of the issue: the login name, then 20 failed log-ins of it from 20
    addresses and 20 more from one; the owner's right password still gets in at once."""
    from_ = await clients_of(stack, app_of(database_url))
    owner = await from_(OWNER)
    made = await owner.post("/api/accounts", json={"username": "anna", "password": PASSWORD})
    assert made.status_code == 201
    for i in range(20):
        assert (await log_in(await from_(f"203.0.113.{i + 1}"), "guess")).status_code == 401
    attacker = await from_("192.0.2.66")
    answers = [(await log_in(attacker, f"guess{i}")).status_code for i in range(20)]
    assert answers[:5] == [401] * 5 and set(answers[5:]) == {429}  # that network is slowed
    assert (await log_in(owner)).status_code == 200
    assert (await log_in(await from_("198.51.100.200"))).status_code == 200  # a new address


async def test_a_guarded_username_slows_strangers_and_lets_the_owner_in(
        stack: AsyncExitStack, database_url: str) -> None:
    """Past the per-username cap every network the account never logged in from gets one
    failed try per ten minutes; a network it logged in from is not slowed; nobody is
    locked: a new network's first try with the right password succeeds."""
    from_ = await clients_of(stack, app_of(database_url,
                                           login_username_failure_rate_limit="10/hour"))
    owner = await from_(OWNER)
    await owner.post("/api/accounts", json={"username": "anna", "password": PASSWORD})
    assert (await log_in(owner)).status_code == 200  # the owner's network is now known
    for i in range(10):
        assert (await log_in(await from_(f"203.0.113.{i + 1}"), "guess")).status_code == 401
    stranger = await from_("192.0.2.1")
    assert (await log_in(stranger, "guess")).status_code == 401  # its first try goes through
    slowed = await log_in(stranger, "guess")
    # a sliding-window counter: its Retry-After may be seconds near a window's end (seen: 7)
    assert slowed.status_code == 429 and int(slowed.headers["Retry-After"]) >= 1
    for _ in range(3):  # the owner's known network: its typos are not slowed to 1/10 min
        assert (await log_in(owner, "typo")).status_code == 401
    assert (await log_in(owner)).status_code == 200
    assert (await log_in(await from_("198.51.100.99"))).status_code == 200


async def test_a_wrong_current_password_counts_as_a_failed_log_in(
        stack: AsyncExitStack, database_url: str) -> None:
    """A stolen token does not give unthrottled guesses through the password change."""
    from_ = await clients_of(stack, app_of(database_url))
    thief = await from_("192.0.2.9")
    made = (await thief.post("/api/accounts", json={"username": "anna",
                                                    "password": PASSWORD})).json()
    headers = {"Authorization": f"Bearer {made['token']}"}
    answers = [(await thief.post("/api/accounts/password", headers=headers, json={
        "password": f"guess{i}", "new_password": "a brand new secret"})).status_code
        for i in range(7)]
    assert answers == [401] * 5 + [429] * 2
    assert (await log_in(await from_(OWNER))).status_code == 200


async def test_the_public_profile_does_not_show_the_login_name(
        stack: AsyncExitStack, database_url: str) -> None:
    from_ = await clients_of(stack, app_of(database_url))
    http = await from_(OWNER)
    made = (await http.post("/api/accounts", json={"username": "anna_login",
                                                   "password": PASSWORD,
                                                   "name": "Anna"})).json()
    profile = await http.get(f"/api/players/{made['id']}")
    assert profile.status_code == 200
    assert "anna_login" not in profile.text and profile.json()["registered"] is True
    guest = (await http.post("/api/players", json={"name": "Gus"})).json()
    assert (await http.get(f"/api/players/{guest['id']}")).json()["registered"] is False


@pytest.mark.parametrize(("address", "network"), [
    ("203.0.113.5", "203.0.113.5"), ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
    ("2001:db8:1:2:ffff::1", "2001:db8:1:2::/64"), ("::ffff:192.0.2.1", "192.0.2.1"),
    ("unknown", "unknown")])
def test_ipv6_addresses_count_by_their_64(address: str, network: str) -> None:
    from cardhall.server.loginthrottle import network_of

    assert network_of(address) == network


async def test_two_nodes_throttle_together_in_redis(
        stack: AsyncExitStack, redis_url: str, redis_prefix: str) -> None:
    """Cluster mode: the failures and the known networks are counted in Redis, so a network
    slowed on one node is slowed on the other, and the owner gets in on either."""
    cluster = {"redis_url": redis_url, "redis_prefix": redis_prefix,
               "login_username_failure_rate_limit": "8/hour"}
    one = await clients_of(stack, app_of("memory://", **cluster))
    two = await clients_of(stack, app_of("memory://", **cluster))
    for node in (one, two):  # each node has its own memory store: one account each
        await (await node(OWNER)).post("/api/accounts", json={"username": "anna",
                                                              "password": PASSWORD})
    assert (await log_in(await one(OWNER))).status_code == 200  # known, through Redis
    attacker_one, attacker_two = await one("192.0.2.66"), await two("192.0.2.66")
    answers = [(await log_in(attacker_one if i % 2 else attacker_two, "x")).status_code
               for i in range(6)]
    assert answers == [401] * 5 + [429]
    for i in range(3):  # 8 failures in all: the username is guarded on both nodes
        assert (await log_in(await two(f"203.0.113.{i + 1}"), "x")).status_code == 401
    assert (await log_in(await two("192.0.2.77"), "x")).status_code == 401
    assert (await log_in(await one("192.0.2.77"), "x")).status_code == 429
    assert (await log_in(await two(OWNER), "typo")).status_code == 401  # known: not slowed
    assert (await log_in(await two(OWNER))).status_code == 200
