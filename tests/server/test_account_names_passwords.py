"""Issue 24, rows 6 and 11 (names): weak passwords get a typed 422 that says why (zxcvbn);
usernames are stored NFKC, compared case-folded and refused when they look like another
account's (the confusable skeleton); display names and usernames hold no control, bidi or
invisible character (``docs/security.md``, "Account names and passwords")."""

from __future__ import annotations

import httpx
import pytest

ADMIN = {"Authorization": "Bearer test-admin-token-0123456789"}  # conftest.ADMIN_TOKEN
STRONG = "correct horse battery"


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def _register(client: httpx.AsyncClient, username: str,
                    password: str = STRONG) -> httpx.Response:
    return await client.post("/api/accounts", json={"username": username,
                                                    "password": password})


@pytest.mark.parametrize("password", ["password", "12345678", " " * 8,
                                      "gwendolyngwendolyn"])
async def test_a_weak_password_gets_a_typed_422_that_says_why(
        client: httpx.AsyncClient, password: str) -> None:
    """The attacker's four: two top-10 passwords, eight spaces, the username twice."""
    answer = await _register(client, "gwendolyn", password)
    assert answer.status_code == 422, answer.text
    error = answer.json()["error"]
    assert error["code"] == "account.weak_password"
    assert "strength" in error["message"] and "of 4" in error["message"]
    assert len(error["message"]) > len("password too easy to guess (strength 0 of 4, at "
                                       "least 3 needed)")  # zxcvbn's reason follows
    assert (await client.post("/api/sessions", json={"username": "gwendolyn",
                                                     "password": password})).status_code == 401


async def test_password_change_and_admin_reset_check_the_strength_too(
        client: httpx.AsyncClient) -> None:
    made = (await _register(client, "gwendolyn")).json()
    change = await client.post("/api/accounts/password", headers=bearer(made["token"]),
                               json={"password": STRONG, "new_password": "12345678"})
    assert change.status_code == 422, change.text
    assert change.json()["error"]["code"] == "account.weak_password"
    reset = await client.post(f"/api/admin/players/{made['id']}/password", headers=ADMIN,
                              json={"password": "gwendolyn1"})
    assert reset.status_code == 422, reset.text
    assert reset.json()["error"]["code"] == "account.weak_password"
    login = await client.post("/api/sessions", json={"username": "gwendolyn",
                                                     "password": STRONG})
    assert login.status_code == 200  # neither refused change touched the password


async def test_a_fullwidth_twin_is_the_same_username(client: httpx.AsyncClient) -> None:
    """NFKC: ``ａnna`` (U+FF41) is ``anna``; a log-in by either form finds the account."""
    assert (await _register(client, "anna")).status_code == 201
    twin = await _register(client, "\uff41nna")
    assert twin.status_code == 409, twin.text
    assert twin.json()["error"]["code"] == "account.username_taken"
    login = await client.post("/api/sessions", json={"username": "\uff41NNA",
                                                     "password": STRONG})
    assert login.status_code == 200 and login.json()["username"] == "anna"


@pytest.mark.parametrize("twin", ["\u0430nna", "\u0410NNA", "\u0430nn\u0430"])
async def test_a_cyrillic_twin_of_an_existing_username_is_refused(
        client: httpx.AsyncClient, twin: str) -> None:
    assert (await _register(client, "anna")).status_code == 201
    answer = await _register(client, twin)
    assert answer.status_code == 409, answer.text
    assert answer.json()["error"]["code"] == "account.username_confusable"


@pytest.mark.parametrize("twin", ["anna\u2800", "\u2800anna", "an\u2800na"])
async def test_a_blank_braille_twin_of_an_existing_username_is_refused(
        client: httpx.AsyncClient, twin: str) -> None:
    """U+2800 BRAILLE PATTERN BLANK draws nothing, is no white space (``strip`` keeps it)
    and has a skeleton of its own: before, ``anna`` followed by it got 201, an account
    showing as ``anna``."""
    assert (await _register(client, "anna")).status_code == 201
    answer = await _register(client, twin)
    assert answer.status_code == 422, answer.text
    assert "U+2800" in answer.json()["error"]["message"]


async def test_a_username_is_stored_in_its_nfkc_form(client: httpx.AsyncClient) -> None:
    made = await _register(client, "\uff22\uff4f\uff42\uff42\uff59")  # fullwidth Bobby
    assert made.status_code == 201 and made.json()["username"] == "Bobby"


BAD_CHARACTERS = ["\u0000", "\u202e", "\u2066", "\u200f", "\u2028", "\u2029", "\u3164",
                  "\u115f", "\ufe0f", "\U000e0100", "\u2800"]
"""NUL, RIGHT-TO-LEFT OVERRIDE, LEFT-TO-RIGHT ISOLATE, RIGHT-TO-LEFT MARK, LINE and
PARAGRAPH SEPARATOR, the HANGUL FILLERs, a VARIATION SELECTOR and a supplementary one, the
BRAILLE PATTERN BLANK (a symbol, not default-ignorable, but it draws nothing)."""


@pytest.mark.parametrize("bad", BAD_CHARACTERS, ids=[f"U+{ord(c):04X}" for c in BAD_CHARACTERS])
async def test_names_and_usernames_refuse_control_bidi_and_invisible_characters(
        client: httpx.AsyncClient, bad: str) -> None:
    name = f"ev{bad}il"
    answers = [
        await client.post("/api/players", json={"name": name}),
        await client.post("/api/admin/bots", json={"name": name}, headers=ADMIN),
        await client.post("/api/accounts", json={"username": name, "password": STRONG}),
        await client.post("/api/accounts", json={"username": "evil_one", "password": STRONG,
                                                 "name": name}),
    ]
    for answer in answers:
        assert answer.status_code == 422, answer.text
        assert answer.json()["error"]["code"] == "request.invalid"
        assert f"U+{ord(bad):04X}" in answer.json()["error"]["message"]
