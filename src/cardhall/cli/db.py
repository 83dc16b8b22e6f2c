"""``cardhall db``: ``upgrade`` applies the Alembic migrations, one revision at a time so that a
terminal shows a progress bar over the migrations still to apply; ``downgrade`` says what it
would drop and refuses to drop data unless told; ``backup`` and ``restore`` copy a SQLite
database (``docs/operations.md``, "Backup and restore")."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
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


def _url(args: argparse.Namespace) -> str:
    from ..config import Settings

    return str(args.url or Settings().database_url)


def downgrade(args: argparse.Namespace) -> int:
    """Downgrade to ``REVISION`` after planning what it drops (``storage/downgrade.py``): one
    line per dropped table or column with its rows holding data; refused with exit 1 and
    ``cli.data_loss`` when any holds data, unless ``--allow-data-loss``; ``--dry-run`` only
    plans. ``{"target", "dropped": [{"table", "column", "rows"}], "done"}`` with ``--json``."""
    from ..storage.downgrade import DataLossRefused, downgrade_database, plan_downgrade

    url = _url(args)
    try:
        if args.dry_run:
            dropped = asyncio.run(plan_downgrade(url, args.revision))
        else:
            dropped = asyncio.run(downgrade_database(url, args.revision,
                                                     allow_data_loss=args.allow_data_loss))
    except DataLossRefused as exc:
        if not args.json:
            for d in exc.dropped:
                print(f"would drop {d}", file=sys.stderr)
        return fail(args, "cli.data_loss", str(exc), 1)
    except Exception as exc:  # a bad URL or revision, the driver: one line, no traceback
        return fail(args, "cli.db_error", f"{type(exc).__name__}: {exc}".splitlines()[0], 1)
    if args.json:
        print(json.dumps({"target": args.revision, "done": not args.dry_run,
                          "dropped": [{"table": d.table, "column": d.column, "rows": d.rows}
                                      for d in dropped]}))
    else:
        verb = "would drop" if args.dry_run else "dropped"
        for d in dropped:
            print(f"{verb} {d}")
        print(f"{'planned' if args.dry_run else 'downgraded'} to {args.revision}")
    return 0


def backup(args: argparse.Namespace) -> int:
    """Back the SQLite database up into the new file ``FILE`` (``storage/backup.py``), with a
    progress bar over its pages on a terminal; exit 1 with ``cli.backup_error``."""
    from ..storage.backup import BackupError, backup_sqlite, sqlite_path

    url = _url(args)
    try:
        pages = _page_count(sqlite_path(url))
    except BackupError as exc:
        return fail(args, "cli.backup_error", str(exc), 1)
    copied = 0
    with progress(args, "db backup", pages, unit="pages") as advance:
        def step(done: int, total: int) -> None:
            nonlocal copied
            for _ in range(done - copied):
                advance()
            copied = done

        try:
            result = backup_sqlite(url, Path(args.file), progress=step)
        except BackupError as exc:
            return fail(args, "cli.backup_error", str(exc), 1)
    return _report(args, "backed up to", result)


def _page_count(path: Path) -> int | None:
    """Pages of the SQLite file at ``path`` (``None`` when it cannot be read: the backup says
    why)."""
    import sqlite3

    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            return int(db.execute("PRAGMA page_count").fetchone()[0])
    except sqlite3.Error:
        return None


def restore(args: argparse.Namespace) -> int:
    """Put the backup ``FILE`` in place of the SQLite database (servers stopped); the replaced
    file is kept beside it. Exit 1 with ``cli.backup_error``."""
    from ..storage.backup import BackupError, restore_sqlite

    try:
        result = restore_sqlite(Path(args.file), _url(args))
    except BackupError as exc:
        return fail(args, "cli.backup_error", str(exc), 1)
    return _report(args, "restored", result)


def _report(args: argparse.Namespace, verb: str, result: Any) -> int:
    if args.json:
        print(json.dumps({"path": str(result.path), "bytes": result.bytes,
                          "games": result.games, "revision": result.revision}))
    else:
        print(f"{verb} {result.path}: {result.games} games, {result.bytes:,} bytes, "
              f"schema revision {result.revision}")
    return 0


def stamp(args: argparse.Namespace) -> int:
    """Record ``REVISION`` as the database's without running any migration (the runbook's
    schema-drift repair); exit 1 with ``cli.db_error``."""
    from ..storage.sql import stamp_database

    try:
        asyncio.run(stamp_database(_url(args), args.revision))
    except Exception as exc:  # a bad URL or revision: one line, no traceback
        return fail(args, "cli.db_error", f"{type(exc).__name__}: {exc}".splitlines()[0], 1)
    if args.json:
        print(json.dumps({"stamped": args.revision}))
    else:
        print(f"stamped {args.revision} (no migration ran); `cardhall db upgrade` applies "
              "what follows it")
    return 0
