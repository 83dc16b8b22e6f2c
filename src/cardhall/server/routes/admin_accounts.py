"""``/api/admin/players/{id}/password|disable|enable``: the admin's side of accounts (admin
token required; each action is audited)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends
from pydantic import BaseModel, ConfigDict, StringConstraints

from ..audit import AuditDep
from ..deps import HallDep, PasswordsDep, SettingsDep, StoreDep, require_admin
from ..errors import ApiError, responses
from ..sockets import end_revoked_sockets
from .accounts import check_strength

router = APIRouter(
    prefix="/api/admin", tags=["admin"], dependencies=[Depends(require_admin)],
    responses=responses("admin.disabled", "admin.invalid_token"),
)


class PasswordReset(BaseModel):
    """``POST /api/admin/players/{id}/password``: the account's new password (8-256)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    password: Annotated[str, StringConstraints(min_length=8, max_length=256)]


class PasswordResetResult(BaseModel):
    """The account whose password was set and how many of its sessions were revoked."""

    id: str
    sessions_revoked: int


class DisableResult(BaseModel):
    """The player now (``disabled``), ``changed`` (this call changed it) and the sockets of
    that player this call closed."""

    id: str
    disabled: bool
    changed: bool
    sockets_closed: int


@router.post("/players/{player_id}/password", responses=responses(
    "player.not_found", "account.not_registered", "account.weak_password", "request.invalid"))
async def reset_password(player_id: str, body: PasswordReset, store: StoreDep,
                         passwords: PasswordsDep, audit: AuditDep,
                         settings: SettingsDep, hall: HallDep) -> PasswordResetResult:
    """Set an account's password and revoke every session of it (its guest token included),
    closing their sockets on every node (``auth.session_revoked``, 4001): the owner logs in
    again with the new password. 409 ``account.not_registered`` for a guest or a bot; 422
    ``account.weak_password`` as for a registration."""
    rec = await store.get_player(player_id)
    if rec is None:
        raise ApiError("player.not_found", f"no player {player_id!r}")
    if rec.username is None:
        raise ApiError("account.not_registered", f"player {player_id} has no account")
    check_strength(body.password, settings, rec.username, rec.name)
    if not await store.set_password(player_id, await passwords.hash(body.password)):
        raise ApiError("account.not_registered", f"player {player_id} has no account")
    revoked = await store.revoke_sessions(player_id)
    await end_revoked_sockets(hall, player_id)
    await audit.record("player.password_reset", player_id, sessions_revoked=revoked)
    return PasswordResetResult(id=player_id, sessions_revoked=revoked)


async def _set_disabled(hall: HallDep, store: StoreDep, audit: AuditDep, player_id: str,
                        disabled: bool) -> DisableResult:
    before = await store.get_player(player_id)
    if before is None:
        raise ApiError("player.not_found", f"no player {player_id!r}")
    rec = await store.set_disabled(player_id, disabled)
    assert rec is not None
    # every node's sockets, the way a ban's go (server/sockets.py)
    closed = await hall.close_sockets({player_id}, "banned") if disabled else 0
    changed = before.disabled != disabled
    await audit.record("player.disable" if disabled else "player.enable", player_id,
                       changed=changed, sockets_closed=closed)
    return DisableResult(id=player_id, disabled=rec.disabled, changed=changed,
                         sockets_closed=closed)


@router.post("/players/{player_id}/disable", responses=responses("player.not_found"))
async def disable(player_id: str, hall: HallDep, store: StoreDep,
                  audit: AuditDep) -> DisableResult:
    """Disable a player: its tokens are refused (403 ``auth.disabled``), its log-ins too, and
    its open sockets are closed (4003); its sessions are kept for :func:`enable`. Seats it
    holds play on with a stand-in until they time out, as for a lost connection."""
    return await _set_disabled(hall, store, audit, player_id, True)


@router.post("/players/{player_id}/enable", responses=responses("player.not_found"))
async def enable(player_id: str, hall: HallDep, store: StoreDep,
                 audit: AuditDep) -> DisableResult:
    """Lift :func:`disable` (idempotent: ``changed: false`` when it was not disabled)."""
    return await _set_disabled(hall, store, audit, player_id, False)
