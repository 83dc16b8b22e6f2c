"""Fixtures of the table-runtime tests (helpers in ``tablekit.py``)."""

from tablekit import h, toy

__all__ = ["h", "toy"]
