"""Choose the store from the database URL."""

from __future__ import annotations

from .interface import Store
from .memory import MemoryStore


def make_store(database_url: str, *, timeout_seconds: float | None = None,
               schema: str | None = None, migrate_on_start: bool = True) -> Store:
    """``memory://`` -> :class:`MemoryStore`; any SQLAlchemy async URL -> ``SqlStore``, whose
    waits on the database are bounded by ``timeout_seconds`` (``None``: the drivers'
    defaults; see :func:`cardhall.storage.sql.make_engine`) and which uses ``schema``
    (PostgreSQL ``search_path``); ``migrate_on_start`` off: its start only checks the schema."""
    if database_url == "memory://":
        return MemoryStore()
    from .sql import SqlStore

    return SqlStore(database_url, timeout_seconds=timeout_seconds, schema=schema,
                    migrate_on_start=migrate_on_start)
