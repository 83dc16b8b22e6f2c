"""Every game package has the shape of ``docs/design.md`` section 10, checked over every
registered game (a fourth game is held to it at once): the common modules exist, ``__init__``
only re-exports, no module but ``state.py`` imports ``state`` or assigns ``phase``/``outcome``,
and the package's modules import each other without cycles (``TYPE_CHECKING`` imports count;
the import-linter acyclic-siblings contract checks the same in ``make lint``)."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from cardhall.engine import game_names
from cardhall.engine.registry import GAME_MODULES

COMMON = ("__init__", "rules", "config", "cards", "actions", "model", "views", "state")
STATE_ONLY = ("phase", "outcome", "_outcome")


def _package(game: str) -> Path:
    module = importlib.import_module(GAME_MODULES[game])
    assert module.__file__ is not None
    return Path(module.__file__).parent


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def _siblings_imported(path: Path) -> set[str]:
    """Modules of the same package that ``path`` imports, anywhere in it (``TYPE_CHECKING``
    blocks and function bodies included)."""
    out: set[str] = set()
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            out |= {node.module.split(".")[0]} if node.module else {a.name for a in node.names}
    return out


@pytest.mark.parametrize("game", game_names())
def test_the_common_modules_exist_and_init_only_re_exports(game: str) -> None:
    root = _package(game)
    assert sorted(set(COMMON) - {p.stem for p in root.glob("*.py")}) == []
    for node in _tree(root / "__init__.py").body:
        assert isinstance(node, (ast.Import, ast.ImportFrom, ast.Assign, ast.Expr)), (
            f"{game}/__init__.py line {node.lineno} defines something; it only re-exports")


@pytest.mark.parametrize("game", game_names())
def test_only_state_imports_state(game: str) -> None:
    root = _package(game)
    offenders = [p.name for p in root.glob("*.py")
                 if p.stem not in ("state", "__init__", "rules") and "state" in _siblings_imported(p)]
    assert offenders == []


@pytest.mark.parametrize("game", game_names())
def test_no_import_cycle_inside_the_package(game: str) -> None:
    root = _package(game)
    graph = {p.stem: _siblings_imported(p) for p in root.glob("*.py") if p.stem != "__init__"}
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        assert name not in path, f"import cycle in {game}: {' -> '.join((*path, name))}"
        if name not in done:
            for dep in sorted(graph.get(name, set()) & set(graph)):
                visit(dep, (*path, name))
            done.add(name)

    for name in sorted(graph):
        visit(name, ())


@pytest.mark.parametrize("game", game_names())
def test_only_state_changes_the_phase_or_sets_the_outcome(game: str) -> None:
    for path in _package(game).glob("*.py"):
        if path.stem == "state":
            continue
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.Assign):
                targets = node.targets
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
                targets = [node.target]
            else:
                continue
            for target in targets:
                assert not (isinstance(target, ast.Attribute) and target.attr in STATE_ONLY), (
                    f"{game}/{path.name}:{node.lineno} assigns .{target.attr}")
