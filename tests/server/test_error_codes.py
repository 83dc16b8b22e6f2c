"""Every REST error code raised in the server is in the one code table (errors.ERROR_STATUS)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardhall.server.errors import ERROR_STATUS, ApiError

SERVER = Path(__file__).resolve().parents[2] / "src" / "cardhall" / "server"


def test_raised_codes_are_registered() -> None:
    used: set[str] = set()
    for path in SERVER.rglob("*.py"):
        used |= set(re.findall(r'ApiError\(\s*"([a-z_.]+)"', path.read_text(encoding="utf-8")))
    assert used, "no ApiError raise found"
    assert used <= set(ERROR_STATUS), used - set(ERROR_STATUS)


def test_codes_are_namespaced_and_statuses_are_errors() -> None:
    for code, status in ERROR_STATUS.items():
        assert re.fullmatch(r"[a-z_]+\.[a-z_]+", code), code
        assert 400 <= status < 600, code


def test_unknown_code_is_a_programming_error() -> None:
    with pytest.raises(KeyError):
        ApiError("no.such_code", "x")
