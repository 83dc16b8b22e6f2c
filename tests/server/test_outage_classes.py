"""Which exceptions count as "the database cannot answer" (``server/outages.py``)."""

from __future__ import annotations

import errno
import socket
import sqlite3

import pytest
from sqlalchemy import exc as sa

from cardhall.server.outages import store_unavailable


def wrapped(cls: type[sa.DBAPIError], orig: Exception) -> sa.DBAPIError:
    return cls("SELECT 1", {}, orig)


@pytest.mark.parametrize("exc", [
    wrapped(sa.OperationalError, sqlite3.OperationalError("database is locked")),
    wrapped(sa.OperationalError, sqlite3.OperationalError("database or disk is full")),
    wrapped(sa.InterfaceError, Exception("connection is closed")),
    sa.TimeoutError("QueuePool limit of size 5 overflow 10 reached"),
    TimeoutError(),
    ConnectionRefusedError(errno.ECONNREFUSED, "Connect call failed"),
    OSError(errno.EHOSTUNREACH, "No route to host"),
    socket.gaierror(-2, "Name or service not known"),
], ids=lambda e: type(e).__name__)
def test_outages(exc: BaseException) -> None:
    assert store_unavailable(exc)


def test_an_invalidated_connection_is_an_outage_whatever_its_class() -> None:
    e = sa.DBAPIError("SELECT 1", {}, Exception("server closed the connection"),
                      connection_invalidated=True)
    assert store_unavailable(e)


def test_asyncpg_connection_errors_raised_unwrapped_are_outages() -> None:
    import asyncpg

    assert store_unavailable(asyncpg.CannotConnectNowError("the database system is starting up"))
    assert store_unavailable(asyncpg.TooManyConnectionsError("too many clients"))
    assert not store_unavailable(asyncpg.UniqueViolationError("duplicate key"))


@pytest.mark.parametrize("exc", [
    wrapped(sa.IntegrityError, sqlite3.IntegrityError("UNIQUE constraint failed")),
    wrapped(sa.ProgrammingError, Exception("syntax error")),
    wrapped(sa.DataError, Exception("value too long")),
    FileNotFoundError(errno.ENOENT, "no such file"),
    RuntimeError("a bug"),
    ValueError("a bug"),
], ids=lambda e: type(e).__name__)
def test_bugs_are_not_outages(exc: BaseException) -> None:
    assert not store_unavailable(exc)
