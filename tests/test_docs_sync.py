"""The rules specifications copied into docs/ match the shared ones (when those are present),
and no document of the repository points outside it (a user's clone has no ``../shared``).

``docs/design.md`` is the project's own architecture document, so it is not synced."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"


@pytest.mark.parametrize("name", ["rules/bazaar-blot.md", "rules/soldiers-bluff.md",
                                  "rules/palace-poker.md"])
def test_docs_copy_of_the_shared_spec_is_current(name: str) -> None:
    shared = SHARED / name
    if not shared.is_file():
        pytest.skip(f"no shared folder beside the repository ({shared} missing)")
    assert (ROOT / "docs" / name).read_text(encoding="utf-8") == shared.read_text(encoding="utf-8"), (
        f"docs/{name} differs from ../shared/{name}: copy it again")


def test_no_document_links_outside_the_repository() -> None:
    docs = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    synced = {ROOT / "docs" / "rules" / n for n in
              ("bazaar-blot.md", "soldiers-bluff.md", "palace-poker.md")}
    offenders = [str(d.relative_to(ROOT)) for d in docs
                 if d not in synced and "../shared" in d.read_text(encoding="utf-8")]
    assert offenders == [], f"these documents point at ../shared: {offenders}"
