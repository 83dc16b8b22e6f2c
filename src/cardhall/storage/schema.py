"""Schema drift: does the database's schema match the SQLAlchemy models after migrating?

A database can be stamped at head and still lack what head describes (a release that shipped a
migration chain later rewritten, a table dropped by hand, a failed manual repair). Alembic's
:func:`~alembic.autogenerate.compare_metadata` finds the difference; :func:`schema_drift` turns
it into short readable lines that ``/readyz`` reports (check ``schema``) and the start-up log
names. ``docs/operations.md`` ("Schema drift") says what to do about each.
"""

from __future__ import annotations

from typing import Any

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy.engine import Connection

from .models import Base

DRIFT_LINES = 20
"""At most this many drift lines are kept (a database missing everything would list hundreds)."""


def _describe(diff: Any) -> str:
    """One line for one of Alembic's diff tuples (or a list of column modifications)."""
    if isinstance(diff, list):  # modifications of one column come grouped
        return "; ".join(_describe(d) for d in diff)
    kind = str(diff[0])
    subject = diff[1] if len(diff) > 1 else None
    name = getattr(subject, "name", None)
    if kind in ("add_table", "remove_table"):
        verb = "missing" if kind == "add_table" else "not in the models"
        return f"table {name} {verb}"
    if kind in ("add_column", "remove_column"):
        verb = "missing" if kind == "add_column" else "not in the models"
        return f"column {diff[2]}.{diff[3].name} {verb}"
    if kind in ("add_index", "remove_index"):
        verb = "missing" if kind == "add_index" else "not in the models"
        return f"index {name} {verb}"
    if kind.startswith("modify_"):
        return f"column {diff[2]}.{diff[3]}: {kind[7:]} differs ({diff[5]!r} vs model {diff[6]!r})"
    return f"{kind} {name or subject!r}"


EXPANSIONS = ("remove_table", "remove_column", "remove_index", "remove_constraint", "remove_fk")
"""Differences that are a newer release's *expansion* (tables, columns, indexes the models do
not know): this release works beside them, so they are not drift. During a rolling deploy the
old nodes run on the schema the new release expanded (``docs/storage.md``, "Expand and
contract")."""


def _expansion(diff: Any) -> bool:
    return not isinstance(diff, list) and str(diff[0]) in EXPANSIONS


def schema_drift(connection: Connection) -> list[str]:
    """What this release's models need that the database on ``connection`` lacks or has
    otherwise, one readable line per difference (``"table chip_balances missing"``), at most
    :data:`DRIFT_LINES`; ``[]`` when the schema serves the models. What the database has beyond
    the models (:data:`EXPANSIONS`) is no drift. Compares types too (``compare_type``). Raises
    what the driver raises."""
    context = MigrationContext.configure(connection, opts={"compare_type": True})
    lines = [_describe(d) for d in compare_metadata(context, Base.metadata)
             if not _expansion(d)]
    if len(lines) > DRIFT_LINES:
        lines = [*lines[:DRIFT_LINES], f"... and {len(lines) - DRIFT_LINES} more"]
    return lines
