"""Every whole-number field of every game's rules config, at a table (issue 24, row 5).

Property: any integer for any numeric config field is either refused when the table is created
(``engine.invalid_config`` naming the field) or accepted, and then a table of built-in bots
plays a whole deal with it and never closes with an error. Before the bounds, a Blot
``target_score`` of 2**64 + 1 was accepted and the table closed with ``error`` on its first
step (the fan-out's JSON cannot carry the number).
"""

from __future__ import annotations

import dataclasses
import typing
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from cardhall.config import Settings
from cardhall.engine import InvalidConfigError, game_names, get_game
from cardhall.storage.memory import MemoryStore
from cardhall.tables.actor import Table
from cardhall.tables.clock import FakeClock
from cardhall.tables.manager import TableManager


def _numeric_fields() -> list[tuple[str, str]]:
    """``(game, field)`` for every field of a config whose type takes a whole number (found
    from the type hints, so that the list does not depend on the bounds it tests)."""
    out = []
    for game in game_names():
        cls = get_game(game).config_cls
        hints = typing.get_type_hints(cls)
        for f in dataclasses.fields(cls):
            hint = hints[f.name]
            if hint is int or int in typing.get_args(hint):
                out.append((game, f.name))
    return out


NUMERIC = _numeric_fields()
EDGES = [0, 1, -1, 2**31, 2**53 + 1, 2**63 - 1, 2**63, 2**64 + 1, 2**70, -(2**70), 10**400]
"""Integers that break something somewhere: JSON's 53-bit doubles, 64-bit columns, orjson."""
INTEGERS = st.one_of(st.integers(min_value=-3, max_value=12), st.integers(),
                     st.sampled_from(EDGES), st.integers(min_value=0, max_value=1100),
                     st.integers(min_value=990_000, max_value=1_000_010))


def _dealt(table: Table, games_saved: int) -> bool:
    """A whole deal was played: a game was saved (a poker hand), or Blot scored a deal."""
    if games_saved:
        return True
    recorder = table.recorder
    if recorder is None:
        return False
    view: dict[str, Any] = recorder.state.view(None)
    return bool(view.get("deals"))


async def _create_and_deal(game: str, config: dict[str, Any]) -> None:
    """Create a table of bots with ``config`` and play until a deal is over (fake clock).

    Raises:
        InvalidConfigError: the table was refused.
    """
    rules = get_game(game)
    clock, store = FakeClock(), MemoryStore()
    settings_ = Settings(database_url="memory://", bot_delay_seconds=1.0,
                         next_hand_pause_seconds=2.0, turn_timeout_seconds=5.0)
    manager = TableManager(settings_, store, clock)
    await manager.start()
    try:
        cfg = rules.config(config)
        n = min(rules.max_seats, max(rules.min_seats, rules.min_players(cfg)))
        stack = settings_.max_starting_stack if rules.uses_stacks else None
        table = await manager.create(game, config=config, num_seats=n, starting_stack=stack,
                                     bots={s: "rule" for s in range(n)})
        for _ in range(2000):
            await table.inbox.join()
            await manager.writer.flush()
            if _dealt(table, len(store.games)) or table.stopped:
                break
            clock.advance(1.0)
        assert table.status != "closed" or store.games, f"{game} {config}: the table closed"
        assert _dealt(table, len(store.games)), f"{game} {config}: no deal was played"
    finally:
        await manager.stop()


@pytest.mark.parametrize(("game", "field"), NUMERIC)
@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@example(value=2**64 + 1)
@example(value=2**70)
@given(value=INTEGERS)
async def test_any_integer_for_a_numeric_config_field_is_refused_by_name_or_plays_a_deal(
        game: str, field: str, value: int) -> None:
    try:
        await _create_and_deal(game, {field: value})
    except InvalidConfigError as exc:
        assert field in exc.message, exc.message
        assert len(exc.message) < 400
