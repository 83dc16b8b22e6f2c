"""Seeks REST (``docs/rest.md``, "Seeks"): seek, poll, cancel; typed refusals; quick seat
completes a group of waiting rated seekers."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import httpx

ClientFactory = Callable[..., Awaitable[httpx.AsyncClient]]

PASSWORD = "correct horse battery"
GAME = "soldiers_bluff"


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def _account(client: httpx.AsyncClient, username: str) -> str:
    r = await client.post("/api/accounts", json={"username": username, "password": PASSWORD})
    assert r.status_code == 201, r.text
    token: str = r.json()["token"]
    return token


async def _guest(client: httpx.AsyncClient, name: str = "Gus") -> str:
    r = await client.post("/api/players", json={"name": name})
    assert r.status_code == 201, r.text
    token: str = r.json()["token"]
    return token


async def test_two_rated_seekers_meet_at_one_private_table(make_client: ClientFactory) -> None:
    client = await make_client()
    anna, bert = await _account(client, "anna"), await _account(client, "bert")
    first = await client.post("/api/seeks", json={"game": GAME, "rated": True},
                              headers=bearer(anna))
    assert first.status_code == 201, first.text
    seek = first.json()
    assert (seek["status"], seek["seats"], seek["rating"]) == ("waiting", 2, 1000)
    assert (seek["rating_min"], seek["rating_max"], seek["table_id"]) == (900, 1100, None)
    assert seek["expires_in_ms"] == 300_000
    second = await client.post("/api/seeks", json={"game": GAME, "rated": True},
                               headers=bearer(bert))
    assert second.status_code == 201 and second.json()["status"] == "seated"
    mine = (await client.get(f"/api/seeks/{seek['seek_id']}", headers=bearer(anna))).json()
    assert (mine["status"], mine["seat"], second.json()["seat"]) == ("seated", 0, 1)
    assert mine["table_id"] == second.json()["table_id"]
    assert mine["invite_code"] == second.json()["invite_code"]
    table = (await client.get(f"/api/tables/{mine['table_id']}")).json()
    assert (table["private"], table["num_seats"], table["game"]) == (True, 2, GAME)
    lobby = (await client.get("/api/tables")).json()
    assert all(row["id"] != mine["table_id"] for row in lobby)  # never listed


async def test_refusals_are_typed_and_change_nothing(make_client: ClientFactory) -> None:
    client = await make_client()
    guest, anna = await _guest(client), await _account(client, "anna")
    cases = [({"game": GAME, "rated": True}, guest, 403, "seek.needs_account"),
             ({"game": "chess"}, guest, 422, "engine.unknown_game"),
             ({"game": GAME, "seats": 9}, guest, 422, "engine.invalid_config"),
             ({"game": "bazaar_blot", "seats": 2}, guest, 422, "engine.invalid_config"),
             ({"game": GAME, "colour": "red"}, guest, 422, "request.invalid")]
    for body, token, status, code in cases:
        r = await client.post("/api/seeks", json=body, headers=bearer(token))
        assert (r.status_code, r.json()["error"]["code"]) == (status, code), body
    assert (await client.post("/api/seeks", json={"game": GAME})).status_code == 401
    seek = (await client.post("/api/seeks", json={"game": GAME}, headers=bearer(guest))).json()
    again = await client.post("/api/seeks", json={"game": "palace_poker"}, headers=bearer(guest))
    assert (again.status_code, again.json()["error"]["code"]) == (409, "seek.already_waiting")
    other = await client.get(f"/api/seeks/{seek['seek_id']}", headers=bearer(anna))
    assert (other.status_code, other.json()["error"]["code"]) == (404, "seek.not_found")
    gone = await client.delete(f"/api/seeks/{seek['seek_id']}", headers=bearer(anna))
    assert gone.status_code == 404
    mine = await client.get(f"/api/seeks/{seek['seek_id']}", headers=bearer(guest))
    assert mine.json()["status"] == "waiting"


async def test_cancel_then_seek_again(make_client: ClientFactory) -> None:
    client = await make_client()
    guest = await _guest(client)
    seek = (await client.post("/api/seeks", json={"game": GAME}, headers=bearer(guest))).json()
    for _ in range(2):  # a second cancel answers the same
        r = await client.delete(f"/api/seeks/{seek['seek_id']}", headers=bearer(guest))
        assert r.status_code == 200
        body = r.json()
        assert (body["status"], body["reason"], body["rating_min"]) == ("cancelled", "cancelled",
                                                                        None)
    r = await client.post("/api/seeks", json={"game": GAME}, headers=bearer(guest))
    assert r.status_code == 201 and r.json()["seek_id"] != seek["seek_id"]


async def test_quick_seat_of_an_account_completes_a_waiting_rated_seek(
        make_client: ClientFactory) -> None:
    client = await make_client()
    anna, bert, guest = (await _account(client, "anna"), await _account(client, "bert"),
                         await _guest(client))
    seek = (await client.post("/api/seeks", json={"game": GAME, "rated": True},
                              headers=bearer(anna))).json()
    plain = await client.post("/api/tables/quick-seat", json={"game": GAME},
                              headers=bearer(guest))  # a guest: the free-seat rule
    assert plain.status_code == 200 and "invite_code" not in plain.json()
    quick = await client.post("/api/tables/quick-seat", json={"game": GAME},
                              headers=bearer(bert))
    assert quick.status_code == 200, quick.text
    answer = quick.json()
    mine = (await client.get(f"/api/seeks/{seek['seek_id']}", headers=bearer(anna))).json()
    assert (mine["status"], mine["table_id"], mine["seat"]) == ("seated", answer["table_id"], 1)
    assert (answer["seat"], answer["invite_code"]) == (0, mine["invite_code"])
    assert answer["table"]["private"] is True and answer["table_id"] != plain.json()["table_id"]


async def test_the_app_ticks_a_seek_expires_unmatched(make_client: ClientFactory) -> None:
    client = await make_client(seek_ttl_seconds=0.2, seek_tick_seconds=0.05)
    guest = await _guest(client)
    seek = (await client.post("/api/seeks", json={"game": GAME}, headers=bearer(guest))).json()
    async with asyncio.timeout(10):  # bounded: the pool's tick expires it within a tick
        while True:
            got = (await client.get(f"/api/seeks/{seek['seek_id']}", headers=bearer(guest))).json()
            if got["status"] != "waiting":
                break
            await asyncio.sleep(0.02)
    assert (got["status"], got["expires_in_ms"], got["table_id"]) == ("expired", None, None)
