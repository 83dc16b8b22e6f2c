"""Which errors mean "the database cannot answer right now" (REST answers 503
``store.unavailable``, ``errors.py``) as opposed to a bug (500 ``server.error``).

The store's calls are bounded (``CARDHALL_DB_TIMEOUT_SECONDS``: SQLite's busy timeout,
asyncpg's connect and command timeouts, the pool's checkout timeout), so an outage surfaces as
one of these exceptions within that bound instead of a hung request.
"""

from __future__ import annotations

import errno
import socket

from sqlalchemy import exc as sa

NETWORK_ERRNOS = frozenset({
    errno.ECONNREFUSED, errno.ECONNRESET, errno.ECONNABORTED, errno.EHOSTUNREACH,
    errno.ENETUNREACH, errno.ENETDOWN, errno.ETIMEDOUT, errno.EPIPE, errno.ENOTCONN,
})
"""``OSError.errno`` values of a database connection that failed (refused, reset, no route)."""

_PROGRAMMING = (sa.IntegrityError, sa.ProgrammingError, sa.DataError, sa.NotSupportedError)
"""DBAPI errors caused by the statement or the data, not by the database's health."""

_ASYNCPG_OUTAGES = ("PostgresConnectionError", "CannotConnectNowError",
                    "TooManyConnectionsError", "ConnectionDoesNotExistError",
                    "AdminShutdownError", "CrashShutdownError", "QueryCanceledError")
"""asyncpg exception class names that mean the server is unreachable, starting, full or
shutting down, or that a statement was cancelled by a timeout (raised unwrapped by connect)."""


def store_unavailable(exc: BaseException) -> bool:
    """``True`` when ``exc`` says the database could not answer: SQLAlchemy's
    ``OperationalError`` (SQLite ``database is locked``, ``database or disk is full``, a lost
    PostgreSQL connection) and ``InterfaceError``, any DBAPI error that invalidated its
    connection, the pool's checkout ``TimeoutError``, a ``TimeoutError`` (``asyncio``'s too),
    a ``ConnectionError`` or ``OSError`` with a network errno (connection refused, no route,
    DNS failure), and asyncpg's connection-level errors. ``False`` for everything else
    (e.g. ``IntegrityError``: a bug, not an outage)."""
    if isinstance(exc, sa.DBAPIError):
        if exc.connection_invalidated or isinstance(exc, sa.OperationalError | sa.InterfaceError):
            return True
        if isinstance(exc, _PROGRAMMING):
            return False
        return exc.orig is not None and store_unavailable(exc.orig)
    if isinstance(exc, sa.TimeoutError | sa.DisconnectionError):
        return True
    if isinstance(exc, TimeoutError | ConnectionError):
        return True
    if isinstance(exc, OSError):
        return isinstance(exc, socket.gaierror) or exc.errno in NETWORK_ERRNOS
    return any(k.__name__ in _ASYNCPG_OUTAGES and k.__module__.startswith("asyncpg")
               for k in type(exc).__mro__)
