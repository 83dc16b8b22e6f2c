"""Suite-wide checks.

Every finished game any test saves through a store of this process (memory, SQLite or
PostgreSQL) with a revealed seed (every game a table played; hand-written fixtures have none)
must pass ``cardhall verify`` (``docs/fairness.md``): its chance actions are recomputed from the
revealed seeds at the moment it is saved. A test that saves a tampered history on purpose says
so with ``@pytest.mark.unverified_saves``.

Redis (cluster mode, ``docs/scaling.md``): the ``redis_url`` fixture is the test Redis
(``CARDHALL_TEST_REDIS_URL``, default ``redis://127.0.0.1:6379/0``) and skips the test when it
does not answer; ``redis_prefix`` gives each test key names of its own and deletes them after.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from cardhall.engine.verify import verify_history
from cardhall.storage.interface import GameRecord
from cardhall.storage.memory import MemoryStore
from cardhall.storage.sql import SqlStore

os.environ.setdefault("CARDHALL_GC_TUNING", "false")
"""The collector tuning (``server/gctune.py``) is the tuning of a server process: every app
would freeze this test process's heap every 0.1 s, keeping the whole suite's cyclic garbage
(and any weakly referenced object a test expects ``gc.collect()`` to free) until an hourly
collection that a test never reaches. Its own tests build a :class:`Refreezer` directly, and
the servers the bench starts keep the default."""

REDIS_URL = os.environ.get("CARDHALL_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
"""The Redis the cluster-mode tests use (it keeps nothing they need between tests)."""
REDIS_PING_TIMEOUT_SECONDS = 1.0
"""How long the test Redis may take to answer before its tests are skipped."""

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


def pytest_addoption(parser: pytest.Parser) -> None:
    """``--update-golden``: rewrite the golden playthroughs (``tests/games/test_golden.py``)."""
    parser.addoption("--update-golden", action="store_true", default=False,
                     help="rewrite tests/games/golden/<game>.json from a fresh render")


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


@pytest.fixture(scope="session")
def redis_url() -> str:
    """The test Redis's URL, once it answered a PING within
    :data:`REDIS_PING_TIMEOUT_SECONDS`; skips the test (with the URL and the error) otherwise."""
    import redis

    client = redis.Redis.from_url(REDIS_URL, socket_timeout=REDIS_PING_TIMEOUT_SECONDS,
                                  socket_connect_timeout=REDIS_PING_TIMEOUT_SECONDS)
    try:
        client.ping()
    except redis.RedisError as exc:
        pytest.skip(f"Redis not reachable at {REDIS_URL} ({type(exc).__name__}: {exc}); "
                    "set CARDHALL_TEST_REDIS_URL")
    finally:
        client.close()
    return REDIS_URL


@pytest.fixture
def redis_prefix(redis_url: str) -> Iterator[str]:
    """A key prefix of this test's own (``cardhall-test-<hex>``); every key containing it
    (``<prefix>:...``, and ``{<prefix>:...}`` as the rate limiter's hash tags write them) is
    deleted after the test."""
    import redis

    prefix = f"cardhall-test-{uuid.uuid4().hex[:12]}"
    yield prefix
    client = redis.Redis.from_url(redis_url, socket_timeout=5, socket_connect_timeout=5)
    try:
        keys = list(client.scan_iter(match=f"*{prefix}:*", count=1000))
        if keys:
            client.delete(*keys)
    finally:
        client.close()
