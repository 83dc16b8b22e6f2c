"""Choose the store from the database URL."""

from __future__ import annotations

from .interface import Store
from .memory import MemoryStore


def make_store(database_url: str, *, timeout_seconds: float | None = None,
               schema: str | None = None, migrate_on_start: bool = True,
               pool_size: int | None = None, max_overflow: int | None = None,
               pool_timeout_seconds: float = 30.0) -> Store:
    """``memory://`` -> :class:`MemoryStore`; any SQLAlchemy async URL -> ``SqlStore``, whose
    waits on the database are bounded by ``timeout_seconds`` (``None``: the drivers'
    defaults; see :func:`cardhall.storage.sql.make_engine`) and which uses ``schema``
    (PostgreSQL ``search_path``); ``migrate_on_start`` off: its start only checks the schema.
    ``pool_size``/``max_overflow`` (``None``: per back-end) and ``pool_timeout_seconds`` size
    its connection pool (:func:`cardhall.storage.sql.pool_sizes`)."""
    if database_url == "memory://":
        return MemoryStore()
    from sqlalchemy.engine import make_url

    from .sql import SqlStore, pool_sizes

    pool = pool_sizes(make_url(database_url).get_backend_name(), pool_size, max_overflow,
                      pool_timeout_seconds)
    return SqlStore(database_url, timeout_seconds=timeout_seconds, schema=schema,
                    migrate_on_start=migrate_on_start, pool=pool)
