"""Choose the store from the database URL."""

from __future__ import annotations

from .interface import Store
from .memory import MemoryStore


def make_store(database_url: str) -> Store:
    """``memory://`` -> :class:`MemoryStore`; any SQLAlchemy async URL -> ``SqlStore``."""
    if database_url == "memory://":
        return MemoryStore()
    from .sql import SqlStore

    return SqlStore(database_url)
