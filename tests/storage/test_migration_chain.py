"""Released migrations are never rewritten, and a database a past release mis-stamped is repaired.

Every migration that reached main is pinned here by its revision, its ``down_revision`` and a
digest of its ``upgrade``/``downgrade`` code (docstrings and comments may change; what runs may
not). Changing a released step, or putting a new one in the middle of the chain, fails
:func:`test_released_migrations_are_never_rewritten`: add a new step at the head instead, and pin
it here once it is on main. (Issue 27, case 5: ``b8083cd`` shipped 0006 after 0004; the next
release put 0005 before it, and databases stamped 0006 by ``b8083cd`` never got 0005's tables.)
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
from pathlib import Path
from types import ModuleType

import pytest
from alembic.migration import MigrationContext
from alembic.operations import Operations
from alembic.script import ScriptDirectory
from sqlalchemy import inspect
from sqlalchemy.engine import Connection

from cardhall.storage.sql import MIGRATIONS_DIR, SqlStore, alembic_config, upgrade_connection

RELEASED: dict[str, tuple[str | None, str]] = {
    "0001": (None, "fd4abbd7aaf4a014"),
    "0002": ("0001", "c8141189c238c62b"),
    "0003": ("0002", "8d1d5fe00ad065eb"),
    "0004": ("0003", "51c402c0a893d030"),
    "0005": ("0004", "38e23e8d7ccf9733"),
    "0006": ("0005", "6fef788c8ffd128b"),
    "0007": ("0006", "b51c3ab13913fb45"),
    "0008": ("0007", "cd07dd4a821435d2"),
    "0009": ("0008", "f5552e449b81be21"),
}
"""revision -> (down_revision, first 16 hex digits of :func:`_code_digest`)."""


def _code_digest(path: Path) -> str:
    """SHA-256 of the AST of the module's ``upgrade`` and ``downgrade`` bodies (docstrings out)."""
    tree = ast.parse(path.read_text())
    parts = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name in ("upgrade", "downgrade"):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                body = body[1:]
            parts.append(node.name + ":" + "".join(ast.dump(s) for s in body))
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]


def _scripts() -> ScriptDirectory:
    return ScriptDirectory.from_config(alembic_config())


def test_released_migrations_are_never_rewritten() -> None:
    found = {s.revision: (s.down_revision, _code_digest(Path(s.path)))
             for s in _scripts().walk_revisions()}
    for revision, pinned in RELEASED.items():
        assert found.get(revision) == pinned, (
            f"migration {revision} was released as {pinned} and is now {found.get(revision)}: "
            "never rewrite a released migration, add a new one at the head")


def test_the_chain_is_one_line_from_base_to_head() -> None:
    scripts = _scripts()
    assert len(scripts.get_heads()) == 1
    chain = [s.revision for s in scripts.walk_revisions()][::-1]
    assert chain[: len(RELEASED)] == list(RELEASED), "released steps come first, in order"


def _module(name: str) -> ModuleType:
    path = next((MIGRATIONS_DIR / "versions").glob(f"{name}_*.py"))
    spec = importlib.util.spec_from_file_location(f"migration_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _as_b8083cd_left_it(connection: Connection) -> None:
    """0001-0004, then 0006's steps without 0005, stamped 0006: what ``b8083cd`` left."""
    upgrade_connection(connection, "0004")
    with Operations.context(MigrationContext.configure(connection)):
        _module("0006").upgrade()
    connection.exec_driver_sql("UPDATE alembic_version SET version_num = '0006'")


def _tables(connection: Connection) -> set[str]:
    return set(inspect(connection).get_table_names())


async def _repairs(store: SqlStore) -> None:
    async with store.engine.begin() as conn:
        await conn.run_sync(_as_b8083cd_left_it)
        assert "chip_balances" not in await conn.run_sync(_tables)
    await store.start()
    async with store.engine.connect() as conn:
        assert await conn.run_sync(_tables) >= {"chip_balances", "chip_moves", "sessions"}
    assert store.schema_drift == []
    guest, _ = await store.create_player("Gus")
    assert await store.chip_balance(guest.id, top_up_below=1, top_up_to=1000) == 1000


async def test_a_database_stamped_0006_by_b8083cd_gets_its_chip_tables(tmp_path: Path) -> None:
    store = SqlStore(f"sqlite+aiosqlite:///{tmp_path / 'old.db'}")
    try:
        await _repairs(store)
    finally:
        await store.close()


@pytest.mark.postgres
async def test_postgres_stamped_0006_by_b8083cd_gets_its_chip_tables(
        fresh_pg_schema: str) -> None:
    from tests.storage.conftest import POSTGRES_URL

    store = SqlStore(POSTGRES_URL, schema=fresh_pg_schema)
    try:
        await _repairs(store)
    finally:
        await store.close()


async def test_drift_is_found_at_start_and_reported_not_ready(tmp_path: Path) -> None:
    """A table dropped behind Alembic's back: the store starts, names the drift, and the
    readiness check ``schema`` fails with it."""
    from cardhall.server.health import check_schema

    store = SqlStore(f"sqlite+aiosqlite:///{tmp_path / 'drift.db'}")
    try:
        await store.start()
        assert check_schema(store) == {"ok": True}
        async with store.engine.begin() as conn:
            await conn.exec_driver_sql("DROP TABLE chip_moves")
        await store.start()
        assert store.schema_drift == ["table chip_moves missing",
                                      "index ix_chip_moves_player_id missing"]
        check = check_schema(store)
        assert check["ok"] is False and check["drift"] == store.schema_drift
    finally:
        await store.close()


async def test_a_newer_releases_expansion_is_no_drift(tmp_path: Path) -> None:
    """Expand and contract: a column and a table a newer release added do not take an old
    node out of the balancer during a rolling deploy."""
    store = SqlStore(f"sqlite+aiosqlite:///{tmp_path / 'expanded.db'}")
    try:
        await store.start()
        async with store.engine.begin() as conn:
            await conn.exec_driver_sql("ALTER TABLE players ADD COLUMN nickname VARCHAR(32)")
            await conn.exec_driver_sql("CREATE TABLE leagues (id VARCHAR(64) PRIMARY KEY)")
        await store.start()
        assert store.schema_drift == []
    finally:
        await store.close()


async def test_without_migrate_on_start_a_node_only_checks(tmp_path: Path) -> None:
    """``CARDHALL_MIGRATE_ON_START=false``: a node on an unmigrated database changes nothing and
    reports what is missing; after the one-shot ``db upgrade`` it serves."""
    from cardhall.storage.sql import upgrade_database

    url = f"sqlite+aiosqlite:///{tmp_path / 'oneshot.db'}"
    store = SqlStore(url, migrate_on_start=False)
    try:
        await store.start()
        assert "table games missing" in store.schema_drift
        async with store.engine.connect() as conn:
            assert await conn.run_sync(_tables) == set()
        await upgrade_database(url)
        await store.start()
        assert store.schema_drift == []
    finally:
        await store.close()
