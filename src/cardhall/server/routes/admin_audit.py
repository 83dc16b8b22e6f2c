"""``GET /api/admin/audit``: the stored admin audit log, newest first (admin token required)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query
from pydantic import BaseModel

from ...storage.interface import AuditEntry
from ..deps import StoreDep, require_admin
from ..errors import responses
from .games import MAX_OFFSET

router = APIRouter(
    prefix="/api/admin", tags=["admin"], dependencies=[Depends(require_admin)],
    responses=responses("admin.disabled", "admin.invalid_token"),
)


class AuditPublic(BaseModel):
    """One admin action: ``who`` is ``"admin"`` (the token is shared), with the request id
    and the client address that identify the request."""

    id: int
    at: datetime
    who: str
    action: str
    target: str
    request_id: str | None
    client: str | None
    details: dict[str, Any]

    @classmethod
    def of(cls, entry: AuditEntry) -> AuditPublic:
        """The wire form of a stored entry."""
        assert entry.id is not None
        return cls(id=entry.id, at=entry.at, who=entry.who, action=entry.action,
                   target=entry.target, request_id=entry.request_id, client=entry.client,
                   details=entry.details)


class AuditPage(BaseModel):
    """One page of admin actions, newest first; ``next_offset`` is ``None`` on the last page."""

    items: list[AuditPublic]
    limit: int
    offset: int
    next_offset: int | None


@router.get("/audit")
async def list_audit(
    store: StoreDep,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
    offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0,
    action: Annotated[str | None, Query(max_length=32)] = None,
    target: Annotated[str | None, Query(max_length=128)] = None,
) -> AuditPage:
    """Stored admin actions, newest first, filtered by exact ``action`` (e.g. ``player.ban``)
    and ``target`` (a player or table id)."""
    rows = await store.list_audit(limit=limit + 1, offset=offset, action=action, target=target)
    more = len(rows) > limit
    return AuditPage(items=[AuditPublic.of(r) for r in rows[:limit]], limit=limit,
                     offset=offset, next_offset=offset + limit if more else None)
