"""The package shape (issue 10): rule modules never import ``state``, only ``state.py`` moves the
phase or sets the outcome, and the package has no import cycle (TYPE_CHECKING imports count)."""

from __future__ import annotations

import ast
from pathlib import Path

import cardhall.games.bazaar_blot as package

ROOT = Path(package.__file__).parent
RULE_MODULES = ("auction", "tricks", "declarations", "scoring")


def _tree(name: str) -> ast.Module:
    return ast.parse((ROOT / f"{name}.py").read_text(encoding="utf-8"))


def _local_imports(name: str) -> set[str]:
    """Sibling modules ``name`` imports (``from .x import``, ``from . import x``), anywhere."""
    out: set[str] = set()
    for node in ast.walk(_tree(name)):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                out.add(node.module.split(".")[0])
            else:
                out.update(alias.name for alias in node.names)
    return out


def test_rule_modules_never_import_state() -> None:
    for name in (*RULE_MODULES, "model", "views", "actions"):
        assert "state" not in _local_imports(name), name


def test_no_import_cycle_in_the_package() -> None:
    modules = [p.stem for p in ROOT.glob("*.py")]
    graph = {m: _local_imports(m) & set(modules) for m in modules}

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        for nxt in graph[start]:
            if nxt == goal or (nxt not in seen and reaches(nxt, goal, seen | {nxt})):
                return True
        return False

    assert [m for m in modules if reaches(m, m, {m})] == []


def test_only_state_changes_the_phase_or_sets_the_outcome() -> None:
    for path in ROOT.glob("*.py"):
        if path.stem == "state":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets = []
            if isinstance(node, ast.Assign):
                targets = node.targets
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
                targets = [node.target]
            for target in targets:
                if isinstance(target, ast.Attribute):
                    assert target.attr not in ("phase", "_outcome", "match_score", "dealer"), (
                        f"{path.name}:{node.lineno} assigns .{target.attr}")
