"""Helpers for the table-runtime tests: the toy games, a fake clock, a manager, players, and a
connection that checks every message for hidden cards. Fixtures are in ``conftest.py``."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from toygame import register

from cardhall.config import Settings
from cardhall.engine.inspect import strings_in
from cardhall.protocol import messages as p
from cardhall.storage.memory import MemoryStore
from cardhall.tables.actor import Table
from cardhall.tables.clock import FakeClock
from cardhall.tables.connections import RecordingConnection
from cardhall.tables.manager import TableManager
from cardhall.tables.messages import ClientRequest


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> None:
    register(monkeypatch)


class Harness:
    """A manager on a fake clock with helpers to join, act and wait for the actor (and for the
    game writer to save what the actor handed it)."""

    def __init__(self, manager: TableManager, clock: FakeClock, store: MemoryStore) -> None:
        self.manager, self.clock, self.store = manager, clock, store

    async def player(self, name: str) -> RecordingConnection:
        rec, _ = await self.store.create_player(name)
        return RecordingConnection(rec)

    async def settle(self, table: Table) -> None:
        await table.inbox.join()
        await self.manager.writer.flush()

    async def advance(self, table: Table, seconds: float) -> None:
        self.clock.advance(seconds)
        await self.settle(table)

    async def join(self, table: Table, conn: RecordingConnection, **kw: Any) -> None:
        table.post(ClientRequest(conn, p.Join(type="join", table_id=table.id, **kw)))
        await self.settle(table)

    async def act(self, table: Table, conn: RecordingConnection, action: dict[str, Any], *,
                  version: int | None = None, action_id: str = "a1", **kw: Any) -> None:
        v = table.version if version is None else version
        table.post(ClientRequest(conn, p.Act(type="act", table_id=table.id, version=v,
                                             action_id=action_id, action=action, **kw)))
        await self.settle(table)


@pytest.fixture
async def h(toy: None) -> AsyncIterator[Harness]:
    clock = FakeClock()
    store = MemoryStore()
    settings = Settings(database_url="memory://", bot_delay_seconds=1.0,
                        next_hand_pause_seconds=2.0, turn_timeout_seconds=10.0)
    manager = TableManager(settings, store, clock)
    await manager.start()
    yield Harness(manager, clock, store)
    await manager.stop()


class LeakCheckingConnection(RecordingConnection):
    """Checks every message at the moment it is sent against the table's state then: no card
    in ``hidden_from(its game seat)`` and never the seed before ``game_over``."""

    def __init__(self, player: Any, table: Table) -> None:
        super().__init__(player)
        self.table = table
        self.violations: list[str] = []
        self.checked = 0

    def send(self, msg: Any) -> None:
        super().send(msg)
        t = self.table
        if t.recorder is None or isinstance(msg, p.GameOver):
            return
        seat = t.seat_of(self)
        gs = None if seat is None else t.game_seat(seat.index)
        hidden = t.recorder.state.hidden_from(gs)
        seen = set(strings_in(msg.model_dump()))
        self.checked += 1
        if hidden & seen:
            self.violations.append(f"{msg.type} v{msg.version} shows {sorted(hidden & seen)}")
        if t.seed is not None and t.seed.hex() in seen:
            self.violations.append(f"{msg.type} shows the seed")


