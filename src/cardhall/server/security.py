"""Identity checks (``design.md`` section 7): player bearer tokens and the admin token.

The functions here raise :class:`~cardhall.server.errors.ApiError` and know nothing about
FastAPI's dependency system, so the WebSocket code can call them with a token it received in a
message; ``deps.py`` wires them into REST dependencies.
"""

from __future__ import annotations

import hmac

from ..config import Settings
from ..storage.interface import PlayerRecord, PlayerStore
from .errors import ApiError

BEARER_CHALLENGE = {"WWW-Authenticate": "Bearer"}


async def authenticate(store: PlayerStore, token: str | None) -> PlayerRecord:
    """The player a bearer ``token`` belongs to.

    Raises ``ApiError`` ``auth.missing_token`` (401) when ``token`` is empty or ``None``,
    ``auth.invalid_token`` (401) when no player has it (or it was revoked), ``auth.banned``
    (403) when the player is banned, ``auth.disabled`` (403) when the admin disabled it.
    """
    if not token:
        raise ApiError("auth.missing_token", "expected 'Authorization: Bearer <token>'",
                       headers=BEARER_CHALLENGE)
    player = await store.player_for_token(token)
    if player is None:
        raise ApiError("auth.invalid_token", "unknown or revoked token", headers=BEARER_CHALLENGE)
    if player.banned:
        raise ApiError("auth.banned", f"player {player.id} is banned")
    if player.disabled:
        raise ApiError("auth.disabled", f"player {player.id} is disabled")
    return player


def check_admin(settings: Settings, token: str | None) -> None:
    """Accept ``token`` only if it equals ``settings.admin_token`` (constant-time compare).

    Raises ``ApiError`` ``admin.disabled`` (503) while no admin token is configured, and
    ``admin.invalid_token`` (401) when ``token`` is missing or different.
    """
    expected = settings.admin_token
    if not expected:
        raise ApiError("admin.disabled", "admin routes are disabled: CARDHALL_ADMIN_TOKEN is unset")
    if not token or not hmac.compare_digest(token.encode(), expected.encode()):
        raise ApiError("admin.invalid_token", "missing or wrong admin token",
                       headers=BEARER_CHALLENGE)
