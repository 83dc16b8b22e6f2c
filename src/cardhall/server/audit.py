"""Admin actions that change something: one structured log line (``cardhall.admin``) and one
stored ``admin_audit`` row each (:class:`Auditor`, listed by ``GET /api/admin/audit``).

``admin_action("table.close", "t1", closed=True)`` logs ``admin table.close t1`` at INFO with
the fields ``who="admin"``, ``action``, ``target`` and the details, which JSON logs carry as
keys (``configure_logging`` adds a record's extra fields) next to the request's
``request_id``. The admin token is shared, so ``who`` is always ``"admin"``.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime
from typing import Annotated, Any

from asgi_correlation_id import correlation_id
from fastapi import Depends, Request

from ..storage.interface import AuditEntry, AuditStore
from .deps import SettingsDep, StoreDep

log = logging.getLogger("cardhall.admin")

AUDIT_FIELDS = ("who", "action", "target")
"""The fields every admin line carries."""


_RESERVED = frozenset(vars(logging.makeLogRecord({}))) | {"message", "asctime"}
"""``LogRecord`` attributes, which ``extra`` may not overwrite."""


def admin_action(action: str, target: str, **details: Any) -> None:
    """Log that the admin did ``action`` (a dotted name such as ``player.ban``) to ``target``
    (an id); ``details`` (JSON-serialisable values) are added as fields (one whose name a log
    record already has, such as ``name``, gets the prefix ``detail_``)."""
    extra = {("detail_" + k if k in _RESERVED else k): v for k, v in details.items()}
    log.info("admin %s %s", action, target,
             extra={**extra, "who": "admin", "action": action, "target": target})


class Auditor:
    """Records admin actions of one request: one log line (:func:`admin_action`) and one
    ``admin_audit`` row (``who="admin"``, the request id, the client address). Storing is
    bounded by ``db_timeout_seconds``: a slow or failing database costs the request at most
    that long, and the failure is logged (the line was written) instead of failing an action
    that already happened."""

    def __init__(self, store: AuditStore, timeout_seconds: float, request_id: str | None,
                 client: str | None) -> None:
        self.store, self.timeout_seconds = store, timeout_seconds
        self.request_id, self.client = request_id, client

    async def record(self, action: str, target: str, **details: Any) -> AuditEntry | None:
        """Log and store that the admin did ``action`` to ``target``; returns the stored row,
        or ``None`` when the store failed or took longer than the bound."""
        admin_action(action, target, **details)
        entry = AuditEntry(action=action, target=target, details=details,
                           at=datetime.now(UTC), request_id=self.request_id,
                           client=self.client)
        try:
            async with asyncio.timeout(self.timeout_seconds):
                return await self.store.add_audit(entry)
        except Exception as exc:  # TimeoutError included: the line above is the record
            log.error("admin %s %s: the audit row was not stored (%s: %s)", action, target,
                      type(exc).__name__, exc)
            return None


def get_auditor(request: Request, store: StoreDep, settings: SettingsDep) -> Auditor:
    """The request's :class:`Auditor` (request id from ``X-Request-ID``'s middleware)."""
    client = request.client.host if request.client is not None else None
    return Auditor(store, settings.db_timeout_seconds, correlation_id.get(), client)


AuditDep = Annotated[Auditor, Depends(get_auditor)]
