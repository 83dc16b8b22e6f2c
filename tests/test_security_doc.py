"""``docs/security.md`` names, for each point of the threat model, the test that holds it:
every ``tests/...py::test_name`` it names must be collected by pytest, and every file it links
must exist in the repository."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "security.md"
REF = re.compile(r"`(tests/[\w/]+\.py)::(\w+)`")
PATH = re.compile(r"`((?:docs|src|tests)/[\w/.-]+\.(?:md|py|json))`")


def references() -> set[tuple[str, str]]:
    return set(REF.findall(DOC.read_text(encoding="utf-8")))


def test_the_doc_names_tests() -> None:
    assert len(references()) >= 20


def test_every_test_named_in_security_md_is_collected() -> None:
    refs = references()
    files = sorted({f for f, _ in refs})
    out = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q",
                          "-p", "no:cacheprovider", *files],
                         cwd=ROOT, capture_output=True, text=True, timeout=240)
    collected = {line.split("[", 1)[0] for line in out.stdout.splitlines() if "::" in line}
    missing = sorted(f"{f}::{t}" for f, t in refs if f"{f}::{t}" not in collected)
    assert missing == [], out.stderr[-2000:]


def test_every_file_linked_from_security_md_exists() -> None:
    text = DOC.read_text(encoding="utf-8")
    missing = [p for p in PATH.findall(text) if not (ROOT / p).exists()]
    assert missing == []
