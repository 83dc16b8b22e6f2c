"""The rules specifications copied into docs/ match the shared ones (when those are present)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"


@pytest.mark.parametrize("name", ["rules/bazaar-blot.md", "rules/soldiers-bluff.md",
                                  "rules/palace-poker.md", "design.md"])
def test_docs_copy_of_the_shared_spec_is_current(name: str) -> None:
    shared = SHARED / name
    if not shared.is_file():
        pytest.skip(f"no shared folder beside the repository ({shared} missing)")
    assert (ROOT / "docs" / name).read_text(encoding="utf-8") == shared.read_text(encoding="utf-8"), (
        f"docs/{name} differs from ../shared/{name}: copy it again")
