"""Helpers shared by the parts of ``make bench`` (``bench/run.py``, ``bench/cluster.py``):
progress lines, arms that fail without stopping the run, ratios and medians, fresh PostgreSQL
databases."""

from __future__ import annotations

import os
import statistics
import sys
import time
from typing import Any


def note(text: str) -> None:
    """Progress on stderr (stdout is the JSON object)."""
    print(f"[bench {time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


async def guarded(errors: list[str], name: str, coro: Any) -> dict[str, Any] | None:
    """Await ``coro``; on an exception record ``name: error`` in ``errors`` and answer None."""
    note(name)
    try:
        return dict(await coro)
    except Exception as e:
        errors.append(f"{name}: {type(e).__name__}: {e}")
        note(f"{name} FAILED: {e}")
        return None


def ratio(a: float | None, b: float | None) -> float | None:
    """``a / b`` rounded to 3 places, ``None`` when either is missing or ``b`` is 0."""
    return round(a / b, 3) if a is not None and b else None


def median_of(results: list[dict[str, Any] | None], *path: str) -> float | None:
    """The median of ``result[path...]`` over the results that have it."""
    values = []
    for r in results:
        for key in path:
            r = None if r is None else r.get(key)
        if r is not None:
            values.append(float(r))  # type: ignore[arg-type]
    return round(statistics.median(values), 2) if values else None


async def postgres_unreachable(url: str) -> str | None:
    """``None`` when PostgreSQL answers at ``url``, else why not."""
    import asyncpg

    try:
        conn = await asyncpg.connect(pg_dsn(url), timeout=2)
    except Exception as exc:
        return f"PostgreSQL not reachable at {url}: {type(exc).__name__}: {exc}"
    await conn.close()
    return None


def pg_dsn(url: str, database: str | None = None) -> str:
    """The asyncpg DSN of a SQLAlchemy URL (on ``database`` when given)."""
    from sqlalchemy.engine import make_url

    u = make_url(url)
    if database is not None:
        u = u.set(database=database)
    return u.set(drivername="postgresql").render_as_string(hide_password=False)


async def pg_arm(url: str, name: str, coro_of: Any) -> dict[str, Any]:
    """Run ``coro_of(database_url)`` on a fresh PostgreSQL database, dropped afterwards (a
    table log left by one arm would be restored by the next server otherwise)."""
    import asyncpg
    from sqlalchemy.engine import make_url

    db = f"cardhall_bench_{os.getpid()}_{name}"
    admin = await asyncpg.connect(pg_dsn(url), timeout=5)
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)')
        await admin.execute(f'CREATE DATABASE "{db}"')
        try:
            arm_url = make_url(url).set(database=db).render_as_string(hide_password=False)
            return dict(await coro_of(arm_url))
        finally:
            await admin.execute(f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)')
    finally:
        await admin.close()
