"""Request dependencies as annotated aliases (``StoreDep``, ``SettingsDep``, ``HallDep``, ``SeeksDep``,
``PlayerDep``, ``OptionalPlayerDep``, ``AdminDep``, ``PasswordsDep``, ``RatesDep``,
``ThrottleDep``, ``TokenDep``) for the REST routers.

``get_store``/``get_settings`` take an ``HTTPConnection`` so they also work in WebSocket
endpoints. Bearer credentials are read with FastAPI's ``HTTPBearer`` so OpenAPI documents them.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.requests import HTTPConnection

from ..config import Settings
from ..hall.local import LocalHall
from ..hall.seekpool import SeekPool
from ..storage.interface import PlayerRecord, Store
from .loginthrottle import LoginThrottle
from .passwords import Passwords
from .quotas import RateLimits
from .security import authenticate, check_admin

player_bearer = HTTPBearer(auto_error=False, scheme_name="PlayerToken",
                           description="The token returned by POST /api/players, "
                           "POST /api/accounts or POST /api/sessions")
_admin_bearer = HTTPBearer(auto_error=False, scheme_name="AdminToken",
                           description="CARDHALL_ADMIN_TOKEN")

Credentials = HTTPAuthorizationCredentials | None


async def get_store(conn: HTTPConnection) -> Store:
    """The app's store (``app.state.store``, set by the lifespan)."""
    store: Store = conn.app.state.store
    return store


async def get_settings(conn: HTTPConnection) -> Settings:
    """The app's settings (``app.state.settings``)."""
    settings: Settings = conn.app.state.settings
    return settings


async def get_hall(conn: HTTPConnection) -> LocalHall:
    """The app's hall (``app.state.hall``: this process's tables, or the cluster's)."""
    hall: LocalHall = conn.app.state.hall
    return hall


async def get_seeks(conn: HTTPConnection) -> SeekPool:
    """The app's seek pool (``app.state.seeks``: this process's seeks)."""
    pool: SeekPool = conn.app.state.seeks
    return pool


async def get_passwords(conn: HTTPConnection) -> Passwords:
    """The app's password hasher (``app.state.passwords``)."""
    passwords: Passwords = conn.app.state.passwords
    return passwords


async def get_rates(conn: HTTPConnection) -> RateLimits:
    """The app's rate limits (``app.state.rate_limits``)."""
    rates: RateLimits = conn.app.state.rate_limits
    return rates


async def get_login_throttle(conn: HTTPConnection) -> LoginThrottle:
    """The app's failed log-in throttle (``app.state.login_throttle``)."""
    throttle: LoginThrottle = conn.app.state.login_throttle
    return throttle


async def bearer_token(creds: Annotated[Credentials, Depends(player_bearer)]) -> str | None:
    """The bearer token sent, if any (not checked)."""
    return None if creds is None else creds.credentials


StoreDep = Annotated[Store, Depends(get_store)]
PasswordsDep = Annotated[Passwords, Depends(get_passwords)]
RatesDep = Annotated[RateLimits, Depends(get_rates)]
ThrottleDep = Annotated[LoginThrottle, Depends(get_login_throttle)]
TokenDep = Annotated[str | None, Depends(bearer_token)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
HallDep = Annotated[LocalHall, Depends(get_hall)]
SeeksDep = Annotated[SeekPool, Depends(get_seeks)]


async def current_player(
    store: StoreDep, creds: Annotated[Credentials, Depends(player_bearer)]
) -> PlayerRecord:
    """The authenticated caller; 401 ``auth.missing_token``/``auth.invalid_token``,
    403 ``auth.banned``."""
    return await authenticate(store, None if creds is None else creds.credentials)


async def optional_player(
    store: StoreDep, creds: Annotated[Credentials, Depends(player_bearer)]
) -> PlayerRecord | None:
    """The caller when a bearer token is sent (checked like :func:`current_player`), else
    ``None``."""
    return None if creds is None else await authenticate(store, creds.credentials)


async def require_admin(
    settings: SettingsDep, creds: Annotated[Credentials, Depends(_admin_bearer)]
) -> None:
    """Admin guard: 503 ``admin.disabled`` when unset, 401 ``admin.invalid_token``."""
    check_admin(settings, None if creds is None else creds.credentials)


PlayerDep = Annotated[PlayerRecord, Depends(current_player)]
OptionalPlayerDep = Annotated[PlayerRecord | None, Depends(optional_player)]
AdminDep = Annotated[None, Depends(require_admin)]
