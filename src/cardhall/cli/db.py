"""``cardhall db upgrade``: apply the Alembic migrations, one revision at a time so that a
terminal shows a progress bar over the migrations still to apply."""

from __future__ import annotations

import argparse
import asyncio
import json
from typing import Any

from .output import fail, progress


async def pending(url: str, revision: str) -> list[str]:
    """The revisions ``upgrade`` would apply at ``url`` to reach ``revision``, oldest first.

    Raises what the driver or Alembic raise (a bad URL, an unknown revision, a target below
    the database's revision)."""
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory

    from ..storage.sql import alembic_config, make_engine

    engine = make_engine(url)
    try:
        async with engine.connect() as conn:
            current = await conn.run_sync(
                lambda c: MigrationContext.configure(c).get_current_revision())
    finally:
        await engine.dispose()
    script = ScriptDirectory.from_config(alembic_config())
    steps = script.iterate_revisions(revision, current or "base")
    return [s.revision for s in reversed(list(steps))]


async def _apply(url: str, revision: str, args: argparse.Namespace) -> list[str]:
    from ..storage.sql import upgrade_database

    try:
        steps = await pending(url, revision)
    except Exception:  # let the upgrade itself say what is wrong
        steps = [revision]
    with progress(args, "db upgrade", len(steps), unit="migrations") as advance:
        for step in steps:
            await upgrade_database(url, step)
            advance()
    return steps


def upgrade(args: argparse.Namespace) -> int:
    """Apply the migrations up to ``--revision`` (default head); ``{"upgraded", "applied"}``
    with ``--json``, one line otherwise; exit 1 with ``cli.db_error`` on any failure."""
    from ..config import Settings

    url = args.url or Settings().database_url
    try:
        steps: list[Any] = asyncio.run(_apply(url, args.revision, args))
    except Exception as exc:  # any driver/URL/migration failure: one line, no traceback
        return fail(args, "cli.db_error", f"{type(exc).__name__}: {exc}".splitlines()[0], 1)
    if args.json:
        print(json.dumps({"upgraded": args.revision, "applied": steps}))
    else:
        done = ", ".join(steps) if steps else "none, already there"
        print(f"upgraded to {args.revision}; migrations applied: {done}")
    return 0
