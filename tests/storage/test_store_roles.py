"""The storage contract's shape (``storage/interface.py``, ``composed.py``): ``Store`` is its
roles and nothing more, each store's role objects answer their role's methods, and no class in
``src/`` is built from more than two base classes (issue 25; ``tables/`` is counted by its own
test)."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

from cardhall.storage import interface
from cardhall.storage.memory import MemoryStore
from cardhall.storage.sql import SqlStore

ROLES = {"players": interface.PlayerStore, "audit": interface.AuditStore,
         "archive": interface.GameArchive, "ratings": interface.RatingStore,
         "log": interface.TableLogStore, "chips": interface.ChipStore}
SRC = Path(__file__).resolve().parents[2] / "src" / "cardhall"
EXEMPT_BASES = {"Protocol", "Generic", "Enum", "IntEnum", "StrEnum", "Exception", "BaseException"}


def _methods(proto: type) -> set[str]:
    return {n for n, v in vars(proto).items() if inspect.iscoroutinefunction(v)}


def test_the_store_is_its_roles_and_the_lifecycle() -> None:
    roles = set().union(*(_methods(p) for p in ROLES.values()))
    assert sum(len(_methods(p)) for p in ROLES.values()) == len(roles)  # no method in two roles
    every = set().union(*(_methods(b) for b in interface.Store.__mro__ if b is not object))
    assert every == roles | {"start", "close", "ping"}


def test_each_role_object_answers_its_roles_methods(tmp_path: Path) -> None:
    sql = SqlStore(f"sqlite+aiosqlite:///{tmp_path / 'r.db'}")
    for store in (MemoryStore(), sql):
        for field, proto in ROLES.items():
            role = getattr(store.roles, field)
            missing = {m for m in _methods(proto) if not callable(getattr(role, m, None))}
            assert not missing, (type(store).__name__, field, missing)


def _bases(node: ast.ClassDef) -> list[str]:
    names = [ast.unparse(b).split("[")[0].rsplit(".", 1)[-1] for b in node.bases]
    if "Protocol" in names:  # a protocol made of protocols (``Store``) is exempt
        return []
    return [n for n in names if n not in EXEMPT_BASES and not n.endswith("Error")]


def test_no_class_outside_tables_has_more_than_two_base_classes() -> None:
    wide = []
    for path in sorted(SRC.rglob("*.py")):
        if "tables" in path.relative_to(SRC).parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef) and len(_bases(node)) > 2:
                wide.append(f"{path.relative_to(SRC)}: {node.name}{tuple(_bases(node))}")
    assert not wide
