"""The tournament store: one contract on memory, SQLite and PostgreSQL (``storage/tournaments.py``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from tests.storage.conftest import postgres_store, sqlite_store

from cardhall.storage.memory import MemoryStore
from cardhall.storage.tournaments import (
    MemoryTournaments,
    SqlTournaments,
    TournamentStore,
    tournament_store,
)


@pytest.fixture(params=["memory", "sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
async def tournaments(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[TournamentStore]:
    if request.param == "memory":
        yield MemoryTournaments()
        return
    stores = sqlite_store(tmp_path) if request.param == "sqlite" else postgres_store()
    async for store in stores:
        kept = tournament_store(store)
        assert isinstance(kept, SqlTournaments)
        yield kept


def doc(tid: str, at: str, status: str = "running") -> dict:
    return {"id": tid, "game": "bazaar_blot", "status": status, "created_by": None,
            "created_at": at, "rounds": [{"round": 1, "scores": {"e1": 2.0}}]}


async def test_saves_replaces_reads_and_lists_newest_first(tournaments: TournamentStore) -> None:
    assert await tournaments.get_tournament("nope") is None
    await tournaments.save_tournament(doc("a", "2026-12-02T10:00:00+00:00"))
    await tournaments.save_tournament(doc("b", "2026-12-02T11:00:00+00:00"))
    assert (await tournaments.get_tournament("a"))["rounds"][0]["scores"] == {"e1": 2.0}
    await tournaments.save_tournament(doc("a", "2026-12-02T10:00:00+00:00", "finished"))
    assert (await tournaments.get_tournament("a"))["status"] == "finished"
    assert [d["id"] for d in await tournaments.list_tournaments()] == ["b", "a"]
    assert [d["id"] for d in await tournaments.list_tournaments(status="running")] == ["b"]
    assert [d["id"] for d in await tournaments.list_tournaments(limit=1)] == ["b"]


async def test_memory_copies_in_and_out() -> None:
    kept = MemoryTournaments()
    mine = doc("a", "2026-12-02T10:00:00+00:00")
    await kept.save_tournament(mine)
    mine["status"] = "changed"
    got = await kept.get_tournament("a")
    assert got is not None and got["status"] == "running"
    got["rounds"].clear()
    assert (await kept.get_tournament("a"))["rounds"]


def test_a_memory_store_keeps_tournaments_in_memory() -> None:
    assert isinstance(tournament_store(MemoryStore()), MemoryTournaments)
