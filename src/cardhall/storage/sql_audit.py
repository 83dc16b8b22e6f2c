"""The SQL store's admin audit log, ``admin_audit`` (:class:`~.interface.AuditStore`, one role
object of :class:`~cardhall.storage.sql.SqlStore`)."""

from __future__ import annotations

from dataclasses import replace

from sqlalchemy import Table, select

from .interface import AuditEntry
from .models import AdminAudit, as_utc
from .sql_db import SqlRole

AUDIT: Table = AdminAudit.__table__  # type: ignore[assignment]


class SqlAudit(SqlRole):
    """Audit rows."""

    async def add_audit(self, entry: AuditEntry) -> AuditEntry:
        """Insert one admin action (one transaction); returns it with its ``id``."""
        values = {"at": as_utc(entry.at), "who": entry.who, "action": entry.action,
                  "target": entry.target, "request_id": entry.request_id,
                  "client": entry.client, "details": entry.details}
        async with self._writing(), self.engine.begin() as conn:
            result = await conn.execute(AUDIT.insert().returning(AUDIT.c.id), values)
            row_id = result.scalar_one()
        return replace(entry, id=row_id)

    async def list_audit(self, *, limit: int = 100, offset: int = 0, action: str | None = None,
                         target: str | None = None) -> list[AuditEntry]:
        """Admin actions newest first (ties by id, descending), filtered and paginated."""
        query = select(AUDIT)
        if action is not None:
            query = query.where(AUDIT.c.action == action)
        if target is not None:
            query = query.where(AUDIT.c.target == target)
        query = query.order_by(AUDIT.c.at.desc(), AUDIT.c.id.desc()).limit(limit).offset(offset)
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).mappings().all()
        return [AuditEntry(action=r["action"], target=r["target"], details=dict(r["details"]),
                           at=as_utc(r["at"]), who=r["who"], request_id=r["request_id"],
                           client=r["client"], id=r["id"]) for r in rows]
