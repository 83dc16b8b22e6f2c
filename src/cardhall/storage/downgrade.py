"""A downgrade that says what it would drop, and refuses to drop data unless told so.

Alembic's ``downgrade`` runs a revision's ``downgrade()`` whatever the tables hold: from 0006 to
0005 it drops every account, session and rating; to ``base`` every game. :func:`plan_downgrade`
runs the downgrade on a throw-away copy (SQLite: the online backup API into a temporary file;
PostgreSQL: inside a transaction that is rolled back, its DDL being transactional) and compares
the tables and columns before and after with their row counts. :func:`downgrade_database`
(``cardhall db downgrade``) refuses with :class:`DataLossRefused` when anything dropped holds a
row, unless ``allow_data_loss`` is set.
"""

from __future__ import annotations

import dataclasses
import sqlite3
import tempfile
from pathlib import Path

from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection, make_url

from .sql import downgrade_connection, make_engine


@dataclasses.dataclass(frozen=True, slots=True)
class Dropped:
    """One table or column the downgrade removes, with the rows that hold data in it.

    ``column`` is ``None`` for a whole table; ``rows`` counts the table's rows (a table) or the
    rows whose value is neither null nor the column's server default (a column)."""

    table: str
    column: str | None
    rows: int

    def __str__(self) -> str:
        what = f"table {self.table}" if self.column is None else \
            f"column {self.table}.{self.column}"
        return f"{what} ({self.rows} row{'s' if self.rows != 1 else ''} with data)"


class DataLossRefused(Exception):
    """The downgrade would drop tables or columns that hold data; ``dropped`` lists them."""

    def __init__(self, target: str, dropped: list[Dropped]) -> None:
        self.target = target
        self.dropped = dropped
        lost = [d for d in dropped if d.rows]
        super().__init__(
            f"downgrading to {target} would drop " + "; ".join(map(str, lost))
            + ": refused (pass --allow-data-loss to drop them)")


def _shape(connection: Connection) -> dict[str, dict[str, int]]:
    """``{table: {"": rows, column: non-null rows, ...}}`` for every table but Alembic's."""
    shape: dict[str, dict[str, int]] = {}
    inspector = inspect(connection)
    for table in inspector.get_table_names():
        if table == "alembic_version":
            continue
        quoted = connection.dialect.identifier_preparer.quote
        counts = {"": int(connection.execute(
            text(f"SELECT COUNT(*) FROM {quoted(table)}")).scalar_one())}
        for column in inspector.get_columns(table):
            name = column["name"]
            where = f"{quoted(name)} IS NOT NULL"
            if column.get("default") is not None:  # a value left at the default is no data
                where += f" AND {quoted(name)} <> ({column['default']})"
            counts[name] = int(connection.execute(text(
                f"SELECT COUNT(*) FROM {quoted(table)} WHERE {where}")).scalar_one()) \
                if counts[""] else 0
        shape[table] = counts
    return shape


def _dropped(before: dict[str, dict[str, int]],
             after: dict[str, dict[str, int]]) -> list[Dropped]:
    dropped: list[Dropped] = []
    for table, counts in before.items():
        if table not in after:
            dropped.append(Dropped(table, None, counts[""]))
            continue
        dropped.extend(Dropped(table, column, rows) for column, rows in counts.items()
                       if column and column not in after[table])
    return dropped


def _plan_on(connection: Connection, target: str) -> list[Dropped]:
    before = _shape(connection)
    downgrade_connection(connection, target)
    return _dropped(before, _shape(connection))


async def plan_downgrade(url: str, target: str, *, schema: str | None = None) -> list[Dropped]:
    """What downgrading the database at ``url`` to revision ``target`` would drop (every table
    and column, with its rows holding data), without changing the database. Raises what Alembic
    raises for an unknown revision, and ``ValueError`` for a back-end other than SQLite or
    PostgreSQL. ``schema``: PostgreSQL only, as in :func:`~cardhall.storage.sql.make_engine`."""
    parsed = make_url(url)
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        with tempfile.TemporaryDirectory() as folder:
            copy = Path(folder) / "plan.db"
            with sqlite3.connect(parsed.database or ":memory:") as source, \
                    sqlite3.connect(copy) as target_db:
                source.backup(target_db)
            engine = make_engine(f"sqlite+aiosqlite:///{copy}")
            try:
                async with engine.begin() as conn:
                    return await conn.run_sync(_plan_on, target)
            finally:
                await engine.dispose()
    if backend != "postgresql":
        raise ValueError(f"downgrade supports SQLite and PostgreSQL, not {backend!r}")
    engine = make_engine(url, schema=schema)
    try:
        async with engine.connect() as conn:
            transaction = await conn.begin()
            try:
                return await conn.run_sync(_plan_on, target)
            finally:
                await transaction.rollback()
    finally:
        await engine.dispose()


async def downgrade_database(url: str, target: str, *, allow_data_loss: bool = False,
                             schema: str | None = None) -> list[Dropped]:
    """Downgrade the database at ``url`` to ``target`` (``cardhall db downgrade``) and return
    what was dropped. Plans first (:func:`plan_downgrade`).

    Raises:
        DataLossRefused: something dropped holds data and ``allow_data_loss`` is false; the
            database is unchanged.
    """
    dropped = await plan_downgrade(url, target, schema=schema)
    if any(d.rows for d in dropped) and not allow_data_loss:
        raise DataLossRefused(target, dropped)
    engine = make_engine(url, schema=schema)
    try:
        async with engine.begin() as conn:
            await conn.run_sync(downgrade_connection, target)
    finally:
        await engine.dispose()
    return dropped
