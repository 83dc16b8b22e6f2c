"""Alembic environment for cardhall (async URLs: ``sqlite+aiosqlite``, ``postgresql+asyncpg``).

Two ways in:

* programmatic, from :meth:`cardhall.storage.sql.SqlStore.start`: the caller puts a live sync
  connection in ``config.attributes["connection"]`` and migrations run on it;
* the command line (``alembic upgrade head`` from the repo root, or ``cardhall db upgrade``):
  the URL is ``sqlalchemy.url`` from the config when set, else ``CARDHALL_DATABASE_URL`` /
  the settings default, and an async engine is created here.
"""

from __future__ import annotations

import asyncio
from typing import Any, Literal

from alembic import context
from sqlalchemy.engine import Connection

from cardhall.storage.models import Base, UtcDateTime

config = context.config
target_metadata = Base.metadata


def _url() -> str:
    url = config.get_main_option("sqlalchemy.url")
    if url:
        return url
    from cardhall.config import Settings

    return Settings().database_url


def _render_item(kind: str, obj: Any, autogen_context: Any) -> str | Literal[False]:
    """Autogenerate writes :class:`UtcDateTime` as plain ``sa.DateTime(timezone=True)``."""
    if kind == "type" and isinstance(obj, UtcDateTime):
        return "sa.DateTime(timezone=True)"
    return False


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        compare_type=True,
        render_item=_render_item,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


async def _run_async(url: str) -> None:
    from cardhall.storage.sql import make_engine

    engine = make_engine(url)
    try:
        async with engine.begin() as conn:
            await conn.run_sync(_run)
    finally:
        await engine.dispose()


def run_offline() -> None:
    """``alembic upgrade head --sql``: emit SQL without a database."""
    context.configure(url=_url(), target_metadata=target_metadata, literal_binds=True,
                      render_item=_render_item)
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    """Run on the caller's connection, or on a fresh async engine for the settings URL."""
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
    else:
        asyncio.run(_run_async(_url()))


if context.is_offline_mode():
    run_offline()
else:
    run_online()
