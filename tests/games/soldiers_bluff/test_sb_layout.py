"""The package shape of issue 10: rule modules never import the state, and the modules of the
package import each other without cycles (``TYPE_CHECKING`` imports included)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[3] / "src" / "cardhall" / "games" / "soldiers_bluff"
RULE_MODULES = ("dealing", "betting", "showdown", "ranking", "model", "views", "actions", "cards")


def _local_imports(name: str) -> set[str]:
    """The sibling modules ``name`` imports (``from .x import``, ``from . import x``)."""
    tree = ast.parse((PACKAGE / f"{name}.py").read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                out.add(node.module.split(".")[0])
            else:
                out |= {a.name for a in node.names}
    return out


def _graph() -> dict[str, set[str]]:
    return {p.stem: _local_imports(p.stem) for p in PACKAGE.glob("*.py") if p.stem != "__init__"}


def test_rule_modules_never_import_the_state() -> None:
    graph = _graph()
    for name in RULE_MODULES:
        assert "state" not in graph[name], f"{name}.py imports state"


def test_the_package_has_no_import_cycle() -> None:
    graph = _graph()
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        assert name not in path, f"import cycle: {' -> '.join((*path, name))}"
        if name in done:
            return
        for dep in graph.get(name, ()):
            visit(dep, (*path, name))
        done.add(name)

    for name in graph:
        visit(name, ())
