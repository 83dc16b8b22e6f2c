"""The identity cache in steady state (``server/authcache.py``, ``docs/security.md`` "The
identity cache"; issue 26): on a real server, a second ``hello`` of a token reads nothing from
the database, and yet a revocation (every way of it), a ban and a disable take effect at the
very next ``hello``, with no socket of that player open to carry them."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from livesrv import LiveServer, client, live_server
from test_ws_revocation import ADMIN, CHEAP_HASHES, PASSWORD, WAYS, bearer, revoke


class Reads:
    """Counts the store's identity reads of a live server (``player_for_token``,
    ``get_player``)."""

    def __init__(self, live: LiveServer) -> None:
        self.n, store = 0, live.store
        for name in ("player_for_token", "get_player"):
            real = getattr(store, name)

            async def counted(*args: Any, _real: Any = real) -> Any:
                self.n += 1
                return await _real(*args)

            setattr(store, name, counted)


async def _answer(live: LiveServer, token: str) -> dict[str, Any]:
    """The first answer to a ``hello`` with ``token`` on a new socket."""
    async with client(live) as c:
        await c.send({"type": "hello", "token": token})
        return await c.until(lambda m: m["type"] in ("welcome", "error"))


async def _account(http: httpx.AsyncClient) -> tuple[str, str, str]:
    made = await http.post("/api/accounts", json={"username": "anna", "password": PASSWORD})
    assert made.status_code == 201, made.text
    t2 = (await http.post("/api/sessions", json={"username": "anna",
                                                 "password": PASSWORD})).json()["token"]
    return made.json()["id"], made.json()["token"], t2


@pytest.mark.parametrize("way", WAYS)
async def test_a_revoked_token_cached_before_is_refused_at_the_next_hello(way: str) -> None:
    async with live_server(admin_token="admin-secret", **CHEAP_HASHES) as live, \
            live.http as http:
        player_id, t1, t2 = await _account(http)
        assert (await _answer(live, t2))["type"] == "welcome"
        reads = Reads(live)
        assert (await _answer(live, t2))["type"] == "welcome"
        assert reads.n == 0, "the second hello of a token read the database"
        await revoke(http, way, t1, t2, player_id)  # no socket of t2 is open now
        answer = await _answer(live, t2)
        assert (answer["type"], answer.get("code")) == ("error", "auth.invalid_token")


@pytest.mark.parametrize("action", ["ban", "disable"])
async def test_a_ban_or_disable_takes_effect_at_the_next_hello(action: str) -> None:
    async with live_server(admin_token="admin-secret") as live, live.http as http:
        made = (await http.post("/api/players", json={"name": "ana"})).json()
        token = made["token"]
        table = (await http.post("/api/tables", headers=bearer(token), json={
            "game": "soldiers_bluff", "seats": 3, "bots": [{"seat": 1}, {"seat": 2}],
            "turn_timeout_seconds": 60})).json()["id"]
        async with client(live, token) as c:  # cached, and a seat to resume
            await c.send({"type": "join", "table_id": table, "seat": 0})
            await c.expect("joined")
        reads = Reads(live)
        assert (await _answer(live, token))["type"] == "welcome" and reads.n == 0
        async with client(live, token) as c:  # a socket that said hello before the ban
            r = await http.post(f"/api/admin/players/{made['id']}/{action}", headers=ADMIN)
            assert r.status_code == 200, r.text
        answer = await _answer(live, token)
        assert (answer["type"], answer.get("code")) == (
            "error", "auth.banned" if action == "ban" else "auth.invalid_token")


async def test_a_join_while_the_ban_kicks_seats_sees_the_ban() -> None:
    """The ban drops the cached identity before it kicks the player's seats: a join checked
    while the kicks run (they wait for the table log) must be refused. Found by an attack:
    with the cache dropped only after the kicks, joins sent during a ban took 7 new seats."""
    from cardhall.server.authcache import still_allowed

    async with live_server(admin_token="admin-secret") as live, live.http as http:
        made = (await http.post("/api/players", json={"name": "ana"})).json()
        assert (await _answer(live, made["token"]))["type"] == "welcome"  # now cached
        cache, hall = live.app.state.auth_cache, live.app.state.hall
        assert await still_allowed(live.store, made["id"], cache)
        seen: list[bool] = []
        real = hall.kick_player

        async def kick_player(player_id: str, reason: str = "kicked") -> list[str]:
            seen.append(await still_allowed(live.store, player_id, cache))
            return await real(player_id, reason=reason)

        hall.kick_player = kick_player
        r = await http.post(f"/api/admin/players/{made['id']}/ban", headers=ADMIN)
        assert r.status_code == 200, r.text
        assert seen == [False], "a join during the ban's kicks was answered from the cache"
