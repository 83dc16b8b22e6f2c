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
from cardhall.tables.durable import spec_json
from cardhall.tables.restore import spec_from_json
from cardhall.tables.state import TableSpec


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


def test_a_tables_tournament_label_survives_its_log() -> None:
    """A tournament table's label is in its logged spec, so a restored table (a restart in
    the middle of a round) is still labelled in the lobby; any other table's logged spec is
    as it was (no ``label`` key: the golden log digests stay)."""
    label = {"tournament_id": "t1", "name": "Winter cup", "round": 2, "board": 1}
    logged = spec_json(TableSpec(game="bazaar_blot", num_seats=4, label=label))
    assert spec_from_json(logged).label == label
    plain = spec_json(TableSpec(game="bazaar_blot", num_seats=4))
    assert "label" not in plain and spec_from_json(plain).label is None
