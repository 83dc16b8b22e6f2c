"""A round is scored only once every game of it is in the store (``docs/tournaments.md``).

A durable table hands its finished game to the writer only after its log step committed, so
the director can see a table's result before the game is stored. A fresh-clone CI run read
``/verify`` of a just-finished tournament that way and got ``verified: false``. Here the store
answers "no such game" the first times a game is read after it was saved (the late commit),
and the tournament's verify, read the moment its task ends, must still find every game.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

from cardhall.config import Settings
from cardhall.storage.memory import MemoryStore
from cardhall.storage.tournaments import MemoryTournaments
from cardhall.tables.manager import TableManager
from cardhall.tournaments import Director, TournamentRequest


class LateStore(MemoryStore):
    """A store whose games are found only from the third read of each on."""

    def __init__(self) -> None:
        super().__init__()
        self.reads: Counter[str] = Counter()

    async def get_game(self, game_id: str) -> Any:
        self.reads[game_id] += 1
        if self.reads[game_id] <= 2:
            return None
        return await super().get_game(game_id)


async def test_a_finished_tournament_verifies_without_waiting_for_the_writer() -> None:
    store = LateStore()
    manager = TableManager(Settings(database_url="memory://", bot_delay_seconds=0.0), store)
    await manager.start()
    director = Director(manager, MemoryTournaments(), poll_seconds=0.01)
    try:
        req = TournamentRequest(game="bazaar_blot", format="swiss", rounds=1, boards_per_round=1,
                                duplicate=True, bots=4)
        created = await director.create(req, None)
        await asyncio.wait_for(director.wait(created["id"]), 120)
        doc, checked = await director.get(created["id"]), await director.verify(created["id"])
    finally:
        await director.stop()
        await manager.stop()
    assert doc["status"] == "finished", doc["error"]
    assert checked["verified"], checked
    ids = [t["game_id"] for t in doc["rounds"][0]["tables"]]
    assert len(ids) == 2 and all(store.reads[g] >= 3 for g in ids)
