"""One structured log line per admin action that changes something (``cardhall.admin``).

``admin_action("table.close", "t1", closed=True)`` logs ``admin table.close t1`` at INFO with
the fields ``who="admin"``, ``action``, ``target`` and the details, which JSON logs carry as
keys (``configure_logging`` adds a record's extra fields) next to the request's
``request_id``. The admin token is shared, so ``who`` is always ``"admin"``.
"""

from __future__ import annotations

import logging
from typing import Any

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
