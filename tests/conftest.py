"""Suite-wide checks.

Every finished game any test saves through a store of this process (memory, SQLite or
PostgreSQL) with a revealed seed (every game a table played; hand-written fixtures have none)
must pass ``cardhall verify`` (``docs/fairness.md``): its chance actions are recomputed from the
revealed seeds at the moment it is saved. A test that saves a tampered history on purpose says
so with ``@pytest.mark.unverified_saves``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from cardhall.engine.verify import verify_history
from cardhall.storage.interface import GameRecord
from cardhall.storage.memory import MemoryStore
from cardhall.storage.sql import SqlStore

NOT_VERIFIABLE = {"aborted"}
"""Outcome reasons of histories that are partial by design (a log that could not be replayed)."""


def _check(records: Sequence[GameRecord], bad: list[str]) -> None:
    for r in records:
        if r.outcome.get("reason") in NOT_VERIFIABLE or "seed" not in r.history:
            continue  # partial by design, or a hand-written fixture (no seed to check)
        try:
            verdict = verify_history(r.history)
        except Exception as exc:  # an unreadable history fails the test too
            bad.append(f"{r.game_id} ({r.game}): {type(exc).__name__}: {exc}")
            continue
        if not verdict.verified:
            bad.append(f"{r.game_id} ({r.game}): {verdict.to_json()['mismatches'][:3]}")


@pytest.fixture(autouse=True)
def every_saved_game_verifies(request: pytest.FixtureRequest,
                              monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Fail the test if a game it saved does not verify (module docstring)."""
    if request.node.get_closest_marker("unverified_saves") is not None:
        yield
        return
    bad: list[str] = []
    for cls in (MemoryStore, SqlStore):
        original = cls.save_games

        async def save_games(self: Any, records: Sequence[GameRecord], *args: Any,
                             _original: Any = original, **kwargs: Any) -> list[bool]:
            _check(records, bad)
            return await _original(self, records, *args, **kwargs)  # type: ignore[no-any-return]

        monkeypatch.setattr(cls, "save_games", save_games)
    yield
    assert not bad, f"saved games that do not verify: {bad[:5]}"
