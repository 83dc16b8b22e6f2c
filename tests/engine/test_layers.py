"""The engine and the games import only the standard library (design.md section 1)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "cardhall"
FORBIDDEN_STDLIB = {"asyncio", "time", "random", "socket", "threading", "sqlite3"}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def _files(*parts: str) -> list[Path]:
    return sorted((SRC.joinpath(*parts)).rglob("*.py"))


def test_engine_and_games_use_only_the_standard_library() -> None:
    files = _files("engine") + _files("games")
    assert files
    for path in files:
        for name in _imports(path):
            assert name in sys.stdlib_module_names, f"{path} imports non-stdlib {name!r}"
            assert name not in FORBIDDEN_STDLIB, f"{path} imports {name!r} (no clocks/RNG/IO)"


def test_engine_and_games_do_not_import_upper_layers() -> None:
    for path in _files("engine") + _files("games"):
        text = path.read_text(encoding="utf-8")
        for upper in ("server", "storage", "bots", "selfplay", "cli"):
            assert f"cardhall.{upper}" not in text, f"{path} imports cardhall.{upper}"
            assert f"from ..{upper}" not in text and f"from ...{upper}" not in text, path


def test_the_import_linter_contracts_name_every_registered_game() -> None:
    # The independence and acyclic-siblings contracts list game packages by hand; a game left
    # out of them would pass `make lint` whatever it imports.
    import tomllib

    from cardhall.engine.registry import GAME_MODULES

    root = Path(__file__).resolve().parents[2]
    config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    packages = set(GAME_MODULES.values())
    by_type = {c["type"]: c for c in contracts}
    assert set(by_type["independence"]["modules"]) == packages
    acyclic = {a for c in contracts if c["type"] == "acyclic_siblings" for a in c["ancestors"]}
    assert acyclic == packages | {"cardhall.engine"}  # the engine's own circles too
