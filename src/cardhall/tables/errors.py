"""The table layer's error family (``docs/design.md``, "Errors").

Every error carries a stable ``code`` that the server answers unchanged (REST: the status of
that code; see ``docs/rest.md``). Refusals of a client's WebSocket request are not exceptions:
the table actor answers them with an ``error`` message (:mod:`cardhall.protocol.errors`).
"""

from __future__ import annotations

from typing import Literal

TableErrorCode = Literal["table.limit", "table.not_found", "table.bad_seat", "store.backlog",
                         "quota.tables", "cluster.unavailable"]
"""The codes of :class:`TableError` subclasses (a subset of the REST codes)."""


class TableError(Exception):
    """Base of the table layer's errors. ``code`` is stable; ``message`` names the value."""

    code: TableErrorCode = "table.not_found"
    retry_after_seconds: int | None = None
    """When set, REST answers with ``Retry-After`` (whole seconds): a hint when to try again."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class TableLimitError(TableError):
    """The server already runs ``max_tables`` tables; no table was created."""

    code: TableErrorCode = "table.limit"


class TableQuotaError(TableError):
    """The player already has ``max_live_tables_per_player`` live tables that they created; no
    table was created (REST: 429 ``quota.tables`` with ``Retry-After``)."""

    code: TableErrorCode = "quota.tables"
    retry_after_seconds: int | None = 60
    """A hint only: a table closes when its game ends and everyone leaves, or when idle."""


class LogBacklogError(TableError):
    """The table log holds more entries than it may buffer (the database is down or slow):
    existing tables go on, new ones are refused until it catches up."""

    code: TableErrorCode = "store.backlog"


class TableNotFoundError(TableError, LookupError):
    """No live table has this id."""

    code: TableErrorCode = "table.not_found"


class TableClosedError(TableNotFoundError):
    """The table closed while the request was on its way (a race, not a server error)."""


class SeatNotFoundError(TableError, LookupError):
    """The table has no seat with this index."""

    code: TableErrorCode = "table.bad_seat"
