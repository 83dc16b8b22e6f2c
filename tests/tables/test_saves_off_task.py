"""A finished game is handed to the game writer; the table never waits for the database."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from cardhall.config import Settings
from cardhall.storage import GameRecord, GameWriter, MemoryStore
from cardhall.tables.actor import Table
from cardhall.tables.clock import FakeClock
from cardhall.tables.manager import TableManager


class StuckStore(MemoryStore):
    """A database that does not answer until ``gate`` is set."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = asyncio.Event()

    async def save_games(self, records: Sequence[GameRecord]) -> list[bool]:
        await self.gate.wait()
        return await super().save_games(records)


async def bots_play_a_game(store: MemoryStore, writer: GameWriter | None = None
                           ) -> tuple[TableManager, Table]:
    """A started manager on a fake clock whose three-bot toy table has played its game."""
    clock = FakeClock()
    manager = TableManager(Settings(database_url="memory://", bot_delay_seconds=1.0),
                           store, clock, writer=writer)
    await manager.start()
    table = await manager.create("toy_duel", num_seats=3,
                                 bots={0: "random", 1: "random", 2: "random"})
    for _ in range(20):
        clock.advance(1.0)
        await table.inbox.join()
    return manager, table


async def test_a_table_finishes_and_goes_on_while_the_database_hangs(toy: None) -> None:
    store = StuckStore()
    writer = GameWriter(store)
    writer.start()
    manager, table = await bots_play_a_game(store, writer)
    assert table.status == "finished" and table.games_saved == 1
    assert writer.queued == 1 and store.games == {}  # handed over, not saved yet
    store.gate.set()
    await writer.flush()
    (summary, history), = store.games.values()
    assert summary.table_id == table.id and history["id"] == summary.id
    assert writer.saved == 1
    await manager.stop()
    await writer.close()


async def test_a_manager_without_a_writer_owns_one_and_flushes_it_on_stop(toy: None) -> None:
    store = MemoryStore()
    manager, table = await bots_play_a_game(store)
    assert table.status == "finished"
    await manager.stop()
    assert len(store.games) == 1 and not manager.writer.running


async def test_the_games_saved_counter_keeps_games_of_closed_tables(toy: None) -> None:
    store = MemoryStore()
    manager, table = await bots_play_a_game(store)
    assert table.status == "finished" and manager.stats()["games_saved"] == 1
    await manager.close(table.id)
    await asyncio.wait_for(manager.tasks.get(table.id) or asyncio.sleep(0), 2)
    await asyncio.sleep(0)  # the task's done callback removes the table
    assert manager.get(table.id) is None
    assert manager.stats()["games_saved"] == 1  # a counter: it never goes down
    await manager.stop()
