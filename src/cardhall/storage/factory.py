"""Choose the store from the database URL."""

from __future__ import annotations

from .interface import Store
from .memory import MemoryStore


def make_store(database_url: str, *, schema: str | None = None) -> Store:
    """``memory://`` -> :class:`MemoryStore`; any SQLAlchemy async URL -> ``SqlStore``
    (``schema``: PostgreSQL ``search_path``, see :func:`~cardhall.storage.sql.make_engine`)."""
    if database_url == "memory://":
        return MemoryStore()
    from .sql import SqlStore

    return SqlStore(database_url, schema=schema)
