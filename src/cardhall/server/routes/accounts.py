"""``/api/accounts`` and ``/api/sessions``: registered accounts, log-in and revocable tokens
(``docs/rest.md``, "Accounts").

An account is a player identity with a username and an Argon2id password hash
(``server/passwords.py``); every log-in issues a new bearer token (a *session*), listed and
revocable. A guest registering with its own bearer token becomes that account: same id, same
games, same chips at its tables; its guest token becomes one of its sessions.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Request
from pydantic import AfterValidator, BaseModel, ConfigDict, StringConstraints

from ...storage.accounts import (
    AlreadyRegisteredError,
    UsernameConfusableError,
    UsernameTakenError,
    username_key,
)
from ...storage.usernames import normalize_username
from ..deps import (
    HallDep,
    OptionalPlayerDep,
    PasswordsDep,
    PlayerDep,
    SettingsDep,
    StoreDep,
    ThrottleDep,
    TokenDep,
)
from ..errors import ApiError, responses
from ..passwords import password_weakness
from ..quotas import client_address
from ..sockets import end_revoked_sockets
from .players import PlayerName, _printable

router = APIRouter(prefix="/api/accounts", tags=["accounts"])
sessions_router = APIRouter(prefix="/api/sessions", tags=["accounts"])



def _normal_username(username: str) -> str:
    """The NFKC form of a username, still 3-24 characters (NFKC may lengthen or shorten)."""
    normal = normalize_username(username)
    if not 3 <= len(normal) <= 24:
        raise ValueError(f"username must be 3-24 characters in NFKC form, not {len(normal)}")
    return normal


Username = Annotated[str, StringConstraints(strip_whitespace=True, min_length=3, max_length=24),
                     AfterValidator(_printable), AfterValidator(_normal_username)]
"""A login name: 3-24 printable characters after trimming, stored in NFKC form; unique
whatever its case or compatibility form, and refused if it looks like another account's."""
Password = Annotated[str, StringConstraints(min_length=8, max_length=256)]
"""A password: 8-256 characters, taken as sent (not trimmed)."""
BAD_CREDENTIALS = "wrong username or password"
"""The one answer to a wrong password and to an unknown username."""


class AccountCreate(BaseModel):
    """``POST /api/accounts``: the username, the password and, optionally, the display name
    (default: the guest's name when upgrading, else the username)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    username: Username
    password: Password
    name: PlayerName | None = None


class AccountCreated(BaseModel):
    """The account and a new bearer token (shown once; only its hash is stored)."""

    id: str
    username: str
    name: str
    token: str


class Credentials(BaseModel):
    """``POST /api/sessions``: log in."""

    model_config = ConfigDict(extra="forbid", strict=True)

    username: Annotated[str, StringConstraints(min_length=1, max_length=64)]
    password: Annotated[str, StringConstraints(min_length=1, max_length=256)]


class SessionCreated(BaseModel):
    """A new bearer token of the account (shown once)."""

    id: str
    username: str
    token: str


class PasswordChange(BaseModel):
    """``POST /api/accounts/password``: the current password and the new one."""

    model_config = ConfigDict(extra="forbid", strict=True)

    password: Annotated[str, StringConstraints(min_length=1, max_length=256)]
    new_password: Password


class PasswordChanged(BaseModel):
    """``sessions_revoked``: the account's other sessions, revoked by the change."""

    sessions_revoked: int


class SessionPublic(BaseModel):
    """One session (never its token): ``kind`` ``login``, ``register`` or ``guest``."""

    id: str
    kind: str
    created_at: datetime
    current: bool


class SessionList(BaseModel):
    """The caller's sessions, oldest first."""

    items: list[SessionPublic]


class Revoked(BaseModel):
    """How many tokens the call revoked (1)."""

    revoked: int


def check_strength(password: str, settings: SettingsDep, *user_inputs: str) -> None:
    """Refuse a new password zxcvbn scores below ``password_min_score``.

    Raises:
        ApiError: 422 ``account.weak_password`` saying why (``passwords.password_weakness``).
    """
    why = password_weakness(password, user_inputs, settings.password_min_score)
    if why is not None:
        raise ApiError("account.weak_password", why)


@router.post("", status_code=201, responses=responses(
    "request.invalid", "account.weak_password", "account.username_taken",
    "account.username_confusable", "account.not_guest", "auth.invalid_token",
    "auth.banned", "auth.disabled", "rate.limited"),
    openapi_extra={"security": [{}, {"PlayerToken": []}]})
async def register(body: AccountCreate, request: Request, store: StoreDep,
                   passwords: PasswordsDep, guest: OptionalPlayerDep,
                   settings: SettingsDep) -> AccountCreated:
    """Register an account; with a guest's bearer token, upgrade that guest (its id, games
    and chips stay). 422 ``account.weak_password`` (zxcvbn, the username and name count as
    known words), 409 ``account.username_taken`` (any case, any compatibility form), 409
    ``account.username_confusable`` (looks like an existing username), 409
    ``account.not_guest`` (the token is an account's or a bot's)."""
    if guest is not None and (guest.is_bot or guest.username is not None):
        raise ApiError("account.not_guest", f"player {guest.id} is not a guest")
    name = body.name or (guest.name if guest is not None else body.username)
    check_strength(body.password, settings, body.username, name)
    hashed = await passwords.hash(body.password)
    try:
        rec, token = await store.register(name, body.username, hashed,
                                          upgrade=None if guest is None else guest.id)
    except UsernameTakenError as exc:
        raise ApiError("account.username_taken", str(exc)) from exc
    except UsernameConfusableError as exc:
        raise ApiError("account.username_confusable", str(exc)) from exc
    except AlreadyRegisteredError as exc:
        raise ApiError("account.not_guest", str(exc)) from exc
    cache = getattr(request.app.state, "auth_cache", None)
    if guest is not None and cache is not None:  # its name and username changed
        cache.invalidate({guest.id})
    return AccountCreated(id=rec.id, username=body.username, name=rec.name, token=token)


@router.post("/password", responses=responses(
    "request.invalid", "account.weak_password", "auth.bad_credentials",
    "account.not_registered", "auth.missing_token", "auth.invalid_token", "auth.banned",
    "auth.disabled", "rate.limited"))
async def change_password(body: PasswordChange, request: Request, player: PlayerDep,
                          token: TokenDep, store: StoreDep, passwords: PasswordsDep,
                          throttle: ThrottleDep, settings: SettingsDep,
                          hall: HallDep) -> PasswordChanged:
    """Change the caller's password (the current one is checked: 401
    ``auth.bad_credentials``, counted as a failed log-in, 429 ``rate.limited`` when
    throttled; 422 ``account.weak_password``); every other session of the account is
    revoked, and the sockets they opened are closed (``auth.session_revoked``, 4001) on every
    node."""
    if player.username is None:
        raise ApiError("account.not_registered", f"player {player.id} has no account")
    key, address = username_key(player.username), client_address(request.scope)
    await throttle.check(key, address)
    found = await store.credentials(player.username)
    if found is None or not (await passwords.verify(body.password, found[1]))[0]:
        await throttle.failed(key, address)
        raise ApiError("auth.bad_credentials", "wrong password")
    check_strength(body.new_password, settings, player.username, player.name)
    await store.set_password(player.id, await passwords.hash(body.new_password))
    revoked = await store.revoke_sessions(player.id, keep_token=token)
    await end_revoked_sockets(hall, player.id)
    return PasswordChanged(sessions_revoked=revoked)


@sessions_router.post("", responses=responses("request.invalid", "auth.bad_credentials",
                                              "auth.banned", "auth.disabled", "rate.limited"),
                      openapi_extra={"security": [{}]})
async def log_in(body: Credentials, request: Request, store: StoreDep,
                 passwords: PasswordsDep, throttle: ThrottleDep) -> SessionCreated:
    """Log in: a new bearer token. 401 ``auth.bad_credentials`` for a wrong password and for
    an unknown username alike (same answer, same time); 429 ``rate.limited`` past the login
    rate of the address or the failed log-ins of this username from this network
    (``server/loginthrottle.py``: throttled per username and network, never locked)."""
    username = body.username.strip()
    key, address = username_key(username), client_address(request.scope)
    await throttle.check(key, address)
    found = await store.credentials(username)
    if found is None:
        await passwords.verify_unknown(body.password)
    ok, rehash = (False, None) if found is None else await passwords.verify(body.password,
                                                                          found[1])
    if found is None or not ok:
        await throttle.failed(key, address)
        raise ApiError("auth.bad_credentials", BAD_CREDENTIALS, headers={
            "WWW-Authenticate": "Bearer"})
    player = found[0]
    if player.banned:
        raise ApiError("auth.banned", f"player {player.id} is banned")
    if player.disabled:
        raise ApiError("auth.disabled", f"player {player.id} is disabled")
    await throttle.succeeded(key, address)
    if rehash is not None:
        await store.set_password(player.id, rehash)
    token = await store.open_session(player.id, "login")
    return SessionCreated(id=player.id, username=player.username or "", token=token)


@sessions_router.get("", responses=responses("auth.missing_token", "auth.invalid_token",
                                             "auth.banned", "auth.disabled"))
async def list_sessions(player: PlayerDep, token: TokenDep, store: StoreDep) -> SessionList:
    """The caller's sessions (a guest has none: its one token is its identity)."""
    rows = await store.list_sessions(player.id, current_token=token)
    return SessionList(items=[SessionPublic(id=s.id, kind=s.kind, created_at=s.created_at,
                                            current=s.current) for s in rows])


@sessions_router.delete("/current", responses=responses(
    "auth.missing_token", "auth.invalid_token", "auth.banned", "auth.disabled"))
async def log_out(player: PlayerDep, token: TokenDep, store: StoreDep,
                  hall: HallDep) -> Revoked:
    """Revoke the token of this request (log out); the sockets it opened are closed
    (``auth.session_revoked``, 4001). A guest's token is its only way in: revoking it leaves
    that guest unreachable."""
    assert token is not None  # PlayerDep checked it
    revoked = int(await store.revoke_token(token))
    await end_revoked_sockets(hall, player.id)
    return Revoked(revoked=revoked)


@sessions_router.delete("/{session_id}", responses=responses(
    "session.not_found", "auth.missing_token", "auth.invalid_token", "auth.banned",
    "auth.disabled"))
async def revoke(session_id: str, player: PlayerDep, store: StoreDep,
                 hall: HallDep) -> Revoked:
    """Revoke one of the caller's sessions (404 ``session.not_found`` for another's); the
    sockets it opened are closed (``auth.session_revoked``, 4001)."""
    if not await store.revoke_session(player.id, session_id):
        raise ApiError("session.not_found", f"no session {session_id!r} of this player")
    await end_revoked_sockets(hall, player.id)
    return Revoked(revoked=1)
