"""The table manager with a table log: bot identities reused, failed creations leave nothing,
a full log refuses new tables (``docs/operations.md``)."""

from __future__ import annotations

import pytest

from cardhall.config import Settings
from cardhall.storage.interface import PlayerRecord
from cardhall.storage.log import TableLog
from cardhall.storage.memory import MemoryStore
from cardhall.tables.bots import bot_name
from cardhall.tables.clock import FakeClock
from cardhall.tables.errors import LogBacklogError
from cardhall.tables.manager import TableManager

SETTINGS = Settings(database_url="memory://", bot_delay_seconds=1.0)


async def test_built_in_bots_share_one_identity_per_kind() -> None:
    store = MemoryStore()
    manager = TableManager(SETTINGS, store, FakeClock())
    await manager.start()
    try:
        for _ in range(3):
            await manager.create("palace_poker", num_seats=3, bots={1: "rule", 2: "random"})
        bots = [p for p in store.players.values() if p.is_bot]
        assert sorted(p.name for p in bots) == ["random-bot", "rule-bot"]
        table = manager.list()[0]
        assert [s.name for s in table.seats[1:]] == ["Boris", "Cleo"]
        assert {s.player_id for s in table.seats[1:]} == {p.id for p in bots}
        seats = table.summary()["seats"]
        assert [s["bot_level"] for s in seats] == [None, "rule", "random"]
        assert [s["bot"] for s in seats] == [False, True, True]
    finally:
        await manager.stop()


def test_bot_names_are_readable_per_seat() -> None:
    assert [bot_name(s) for s in (0, 1, 7)] == ["Ada", "Boris", "Hana"]
    assert bot_name(8) == "Ada 2" and bot_name(17) == "Boris 3"


class BrokenBotStore(MemoryStore):
    async def bot_identity(self, name: str) -> PlayerRecord:
        raise ConnectionRefusedError("the database is down")


async def test_a_failed_creation_leaves_no_table() -> None:
    manager = TableManager(SETTINGS, BrokenBotStore(), FakeClock())
    await manager.start()
    try:
        with pytest.raises(ConnectionRefusedError):
            await manager.create("palace_poker", num_seats=3, bots={1: "rule"})
        assert manager.list() == [] and manager.tasks == {}
    finally:
        await manager.stop()


async def test_a_full_log_refuses_new_tables_and_existing_ones_go_on() -> None:
    store = MemoryStore()
    log = TableLog(store, max_backlog=1)
    manager = TableManager(SETTINGS, store, FakeClock(), log=log)
    await manager.start()  # the log task is not started: every append stays in the backlog
    try:
        first = await manager.create("bazaar_blot", num_seats=4,
                                     bots={i: "random" for i in range(4)})
        assert log.full
        with pytest.raises(LogBacklogError) as refused:
            await manager.create("bazaar_blot", num_seats=4)
        assert refused.value.code == "store.backlog"
        assert manager.list() == [first]
    finally:
        await manager.stop()
        await log.close(0.1)
