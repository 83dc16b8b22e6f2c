"""Closing the game writer against a database that hangs: a transaction that never returns
must not hold the server's shutdown forever; what was not saved is counted and logged lost."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

import pytest
from test_writer import record

from cardhall.storage import GameRecord, GameWriter, MemoryStore


class HungStore(MemoryStore):
    """Every ``save_games`` call waits forever (a database that stopped answering)."""

    def __init__(self) -> None:
        super().__init__()
        self.calls = 0

    async def save_games(self, records: Sequence[GameRecord]) -> list[bool]:
        self.calls += 1
        await asyncio.Event().wait()
        return []  # pragma: no cover


async def test_close_gives_up_on_a_hung_database_and_counts_the_loss(
        caplog: pytest.LogCaptureFixture) -> None:
    store = HungStore()
    writer = GameWriter(store, batch_size=2)
    writer.start()
    for i in range(5):
        writer.submit(record(f"g{i}"))
    await asyncio.sleep(0)  # the first batch of 2 is in its (never-ending) transaction
    assert store.calls == 1
    waiter = asyncio.ensure_future(writer.flush())
    with caplog.at_level(logging.ERROR, logger="cardhall.storage.writer"):
        await asyncio.wait_for(writer.close(timeout=0.05), 5)
    assert not writer.running
    assert writer.failed == 5 and writer.saved == 0 and writer.queued == 0
    assert "LOST 2" in caplog.text and "LOST 3" in caplog.text
    await asyncio.wait_for(waiter, 1)  # flush waiters are released, not left hanging


async def test_close_without_timeout_still_saves_everything() -> None:
    store = MemoryStore()
    writer = GameWriter(store, batch_size=2)
    writer.start()
    for i in range(5):
        writer.submit(record(f"g{i}"))
    await writer.close(timeout=5)
    assert writer.saved == 5 and writer.failed == 0 and len(store.games) == 5


class SplitThenHungStore(MemoryStore):
    """A batch holding ``bad`` is refused for that record; a single save of ``hang`` never
    returns (the database stops answering while the writer saves a batch one by one)."""

    def __init__(self, bad: str, hang: str) -> None:
        super().__init__()
        self.bad, self.hang = bad, hang

    async def save_games(self, records: Sequence[GameRecord]) -> list[bool]:
        ids = {r.game_id for r in records}
        if self.bad in ids:
            raise ValueError(f"bad record {self.bad}")
        if ids == {self.hang}:
            await asyncio.Event().wait()
        return await super().save_games(records)


async def test_close_during_a_split_batch_counts_each_record_once() -> None:
    # g0 saved alone, g1 refused alone, g2 hangs: close gives up on g2 and g3 only
    store = SplitThenHungStore(bad="g1", hang="g2")
    writer = GameWriter(store, batch_size=4)
    writer.start()
    for i in range(4):
        writer.submit(record(f"g{i}"))
    for _ in range(20):
        await asyncio.sleep(0)
    assert list(store.games) == ["g0"]
    await asyncio.wait_for(writer.close(timeout=0.05), 5)
    assert writer.saved == 1 and writer.failed == 3 and writer.queued == 0
    assert writer.saved + writer.duplicates + writer.failed == writer.submitted
