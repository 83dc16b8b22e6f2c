"""Accounts and sessions over REST (``docs/rest.md``, "Accounts"): register, log in, revoke,
upgrade a guest, change and reset passwords, disable; the database keeps no clear password."""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path

import httpx
import pytest

ADMIN = {"Authorization": "Bearer test-admin-token-0123456789"}  # conftest.ADMIN_TOKEN
ClientFactory = Callable[..., Awaitable[httpx.AsyncClient]]
PASSWORD = "correct horse battery"


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def _register(client: httpx.AsyncClient, username: str = "Anna",
                    password: str = PASSWORD, **extra: object) -> dict[str, str]:
    answer = await client.post("/api/accounts", json={"username": username,
                                                      "password": password}, **extra)
    assert answer.status_code == 201, answer.text
    return answer.json()


async def test_register_then_log_in(client: httpx.AsyncClient) -> None:
    made = await _register(client)
    assert made["username"] == "Anna" and made["name"] == "Anna"
    me = (await client.get("/api/players/me", headers=bearer(made["token"]))).json()
    assert me["id"] == made["id"]
    login = await client.post("/api/sessions", json={"username": "ANNA", "password": PASSWORD})
    assert login.status_code == 200 and login.json()["id"] == made["id"]
    assert login.json()["token"] != made["token"]
    again = await client.post("/api/accounts", json={"username": "anna", "password": PASSWORD})
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "account.username_taken"


async def test_a_wrong_password_and_an_unknown_name_get_the_same_401(
        client: httpx.AsyncClient) -> None:
    await _register(client)
    wrong = await client.post("/api/sessions", json={"username": "Anna", "password": "nope"})
    unknown = await client.post("/api/sessions", json={"username": "Zed", "password": "nope"})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json()
    assert wrong.json()["error"]["code"] == "auth.bad_credentials"


@pytest.mark.parametrize("username", ["ab", "x" * 25, "an\u200bna", "bad\nname"])
async def test_usernames_follow_the_name_rules(client: httpx.AsyncClient,
                                               username: str) -> None:
    answer = await client.post("/api/accounts", json={"username": username,
                                                      "password": PASSWORD})
    assert answer.status_code == 422


async def test_a_revoked_token_is_refused(client: httpx.AsyncClient) -> None:
    made = await _register(client)
    second = (await client.post("/api/sessions", json={"username": "anna",
                                                       "password": PASSWORD})).json()["token"]
    listed = (await client.get("/api/sessions", headers=bearer(second))).json()["items"]
    assert [s["kind"] for s in listed] == ["register", "login"]
    assert [s["current"] for s in listed] == [False, True]
    out = await client.delete("/api/sessions/current", headers=bearer(second))
    assert out.status_code == 200 and out.json() == {"revoked": 1}
    refused = await client.get("/api/players/me", headers=bearer(second))
    assert refused.status_code == 401 and refused.json()["error"]["code"] == "auth.invalid_token"
    first = bearer(made["token"])
    [only] = (await client.get("/api/sessions", headers=first)).json()["items"]
    assert (await client.delete(f"/api/sessions/{only['id']}", headers=first)).status_code == 200
    assert (await client.get("/api/players/me", headers=first)).status_code == 401


async def test_a_guest_upgrade_keeps_its_id_and_games(client: httpx.AsyncClient) -> None:
    guest = (await client.post("/api/players", json={"name": "Gus"})).json()
    app = client._transport.app  # type: ignore[attr-defined]
    from cardhall.storage import SeatResult

    await app.state.store.save_game(
        game_id="g1", game="soldiers_bluff", table_id="t", history={},
        outcome={"reason": "showdown", "returns": [5, -5]},
        results=[SeatResult(0, "Gus", 5, guest["id"]), SeatResult(1, "b", -5, None, True)],
        started_at=_now(), ended_at=_now())
    made = await _register(client, "gus_account", headers=bearer(guest["token"]))
    assert made["id"] == guest["id"] and made["name"] == "Gus"
    for token in (guest["token"], made["token"]):
        me = (await client.get("/api/players/me", headers=bearer(token))).json()
        assert me["id"] == guest["id"]
    games = (await client.get("/api/games", params={"player": guest["id"]})).json()["items"]
    assert [g["id"] for g in games] == ["g1"] and games[0]["seats"][0]["mark"] == "win"
    twice = await client.post("/api/accounts", json={"username": "other1", "password": PASSWORD},
                              headers=bearer(made["token"]))
    assert twice.status_code == 409 and twice.json()["error"]["code"] == "account.not_guest"


def _now():  # type: ignore[no-untyped-def]
    from datetime import UTC, datetime

    return datetime.now(UTC)


async def test_password_change_revokes_the_other_sessions(client: httpx.AsyncClient) -> None:
    made = await _register(client)
    other = (await client.post("/api/sessions", json={"username": "anna",
                                                      "password": PASSWORD})).json()["token"]
    me = bearer(made["token"])
    bad = await client.post("/api/accounts/password", headers=me,
                            json={"password": "wrong", "new_password": "new password 1"})
    assert bad.status_code == 401 and bad.json()["error"]["code"] == "auth.bad_credentials"
    ok = await client.post("/api/accounts/password", headers=me,
                           json={"password": PASSWORD, "new_password": "new password 1"})
    assert ok.json() == {"sessions_revoked": 1}
    assert (await client.get("/api/players/me", headers=bearer(other))).status_code == 401
    assert (await client.get("/api/players/me", headers=me)).status_code == 200
    old = await client.post("/api/sessions", json={"username": "anna", "password": PASSWORD})
    assert old.status_code == 401
    new = await client.post("/api/sessions", json={"username": "anna",
                                                   "password": "new password 1"})
    assert new.status_code == 200


async def test_admin_resets_a_password_and_disables_an_account(
        client: httpx.AsyncClient) -> None:
    made = await _register(client)
    reset = await client.post(f"/api/admin/players/{made['id']}/password", headers=ADMIN,
                              json={"password": "from the admin"})
    assert reset.json() == {"id": made["id"], "sessions_revoked": 1}
    assert (await client.get("/api/players/me", headers=bearer(made["token"]))).status_code == 401
    login = await client.post("/api/sessions", json={"username": "anna",
                                                     "password": "from the admin"})
    token = bearer(login.json()["token"])
    off = await client.post(f"/api/admin/players/{made['id']}/disable", headers=ADMIN)
    assert off.json()["disabled"] and off.json()["changed"]
    refused = await client.get("/api/players/me", headers=token)
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "auth.disabled"
    again = await client.post("/api/sessions", json={"username": "anna",
                                                     "password": "from the admin"})
    assert again.status_code == 403
    await client.post(f"/api/admin/players/{made['id']}/enable", headers=ADMIN)
    assert (await client.get("/api/players/me", headers=token)).status_code == 200
    guest = (await client.post("/api/players", json={"name": "Gus"})).json()
    no = await client.post(f"/api/admin/players/{guest['id']}/password", headers=ADMIN,
                           json={"password": "whatever1"})
    assert no.status_code == 409 and no.json()["error"]["code"] == "account.not_registered"
    audit = (await client.get("/api/admin/audit", headers=ADMIN)).json()["items"]
    assert {"player.password_reset", "player.disable", "player.enable"} <= {
        a["action"] for a in audit}


async def test_login_attempts_are_rate_limited(make_client: ClientFactory) -> None:
    client = await make_client(login_rate_limit="3/minute",
                               login_failure_rate_limit="2/minute")
    await _register(client)  # counts as one of the address's 3
    for _ in range(2):
        wrong = await client.post("/api/sessions", json={"username": "anna", "password": "x"})
        assert wrong.status_code == 401
    limited = await client.post("/api/sessions", json={"username": "anna",
                                                       "password": PASSWORD})
    assert limited.status_code == 429 and int(limited.headers["Retry-After"]) >= 1
    again = await client.post("/api/sessions", json={"username": "other", "password": "x"})
    assert again.status_code == 429  # the address's rate now


async def test_the_database_holds_no_clear_password(tmp_path: Path,
                                                    make_client: ClientFactory) -> None:
    db = tmp_path / "accounts.db"
    client = await make_client(database_url=f"sqlite+aiosqlite:///{db}")
    made = await _register(client)
    login = (await client.post("/api/sessions", json={"username": "anna",
                                                      "password": PASSWORD})).json()
    with sqlite3.connect(db) as conn:
        dump = "\n".join(conn.iterdump())
        [stored] = conn.execute("SELECT password_hash FROM players WHERE id = ?",
                                (made["id"],)).fetchone()
    assert PASSWORD not in dump
    assert made["token"] not in dump and login["token"] not in dump
    assert stored.startswith("$argon2id$")
