"""The table layer's error family (``docs/design.md``, "Errors").

Every error carries a stable ``code`` that the server answers unchanged (REST: the status of
that code; see ``docs/rest.md``). Refusals of a client's WebSocket request are not exceptions:
the table actor answers them with an ``error`` message (:mod:`cardhall.protocol.errors`).
"""

from __future__ import annotations

from typing import Literal

TableErrorCode = Literal["table.limit", "table.not_found", "table.bad_seat", "store.backlog"]
"""The codes of :class:`TableError` subclasses (a subset of the REST codes)."""


class TableError(Exception):
    """Base of the table layer's errors. ``code`` is stable; ``message`` names the value."""

    code: TableErrorCode = "table.not_found"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class TableLimitError(TableError):
    """The server already runs ``max_tables`` tables; no table was created."""

    code: TableErrorCode = "table.limit"


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
