"""The arena and tables of N over REST (``docs/rest.md``, "Tournaments"): typed errors for the
new fields, and a restart in the middle of an arena loses nothing (SQLite: the document and
the table log; the window on a clock the test moves)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from contextlib import AsyncExitStack
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
from tests.server.conftest import GENEROUS_LIMITS, database_url, make_client  # noqa: F401
from tests.tournaments.test_rest import guest, until

from cardhall.config import Settings
from cardhall.server.app import create_app

ARENA = {"game": "palace_poker", "format": "arena", "duration_seconds": 600, "table_size": 4,
         "bots": 8, "boards": 4}


async def test_typed_errors_of_tables_of_n_and_the_arena(make_client) -> None:  # noqa: F811
    client = await make_client(bot_delay_seconds=0.0)
    auth = await guest(client)
    blot = {"game": "bazaar_blot", "bots": 4, "rounds": 1}
    for bad in ({**ARENA, "duration_seconds": None}, {**ARENA, "duration_seconds": 5},
                {**ARENA, "duration_seconds": 4 * 3600}, {**ARENA, "table_size": 11},
                {**ARENA, "bots": 3}, {**ARENA, "boards": 0},
                {**blot, "table_size": 4}, {**blot, "duration_seconds": 60},
                {"game": "soldiers_bluff", "table_size": 6, "bots": 8, "rounds": 1},
                {"game": "soldiers_bluff", "table_size": 4, "bots": 8, "rounds": 3},
                {"game": "palace_poker", "format": "knockout", "table_size": 4, "bots": 8},
                {"game": "palace_poker", "format": "knockout", "table_size": 2, "bots": 8}):
        res = await client.post("/api/tournaments", json=bad, headers=auth)
        assert res.status_code == 422 and res.json()["error"]["code"] == "request.invalid", bad
    assert (await client.get("/api/tournaments")).json() == []  # nothing was created


class Clock:
    """The real wall clock plus an offset the test moves (the arena's window)."""

    def __init__(self) -> None:
        self.offset = timedelta()

    def __call__(self) -> datetime:
        return datetime.now(UTC) + self.offset


async def _server(stack: AsyncExitStack, settings: dict[str, Any],
                  clock: Callable[[], datetime]) -> httpx.AsyncClient:
    app = create_app(Settings(**settings))  # type: ignore[arg-type]
    await stack.enter_async_context(app.router.lifespan_context(app))
    app.state.tournaments.now = clock
    return await stack.enter_async_context(
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test"))


async def _rows(client: httpx.AsyncClient) -> list[dict[str, Any]]:
    res = await client.get("/api/tables")
    assert res.status_code == 200, res.text
    return list(res.json())


def _done(doc: dict[str, Any]) -> int:
    return sum(t["status"] == "finished" for t in doc["rounds"][0]["tables"])


async def test_a_restart_in_the_middle_of_an_arena_loses_nothing(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'arena.db'}"
    settings = {"database_url": url, **GENEROUS_LIMITS, "bot_delay_seconds": 0.02,
                "next_hand_pause_seconds": 0.0}
    clock = Clock()
    async with AsyncExitStack() as first:
        client = await _server(first, settings, clock)
        auth = await guest(client)
        res = await client.post("/api/tournaments", json=ARENA, headers=auth)
        assert res.status_code == 201, res.text
        created = res.json()
        before = await until(client, created["id"], lambda d: _done(d) >= 2 and any(
            t["status"] == "playing" for t in d["rounds"][0]["tables"]))
    assert before["status"] == "running"
    async with AsyncExitStack() as second:  # the same database: a restarted server
        client = await _server(second, settings, clock)
        await until(client, created["id"], lambda d: _done(d) >= len(
            before["rounds"][0]["tables"]) + 2)  # seating goes on after the restart
        clock.offset += timedelta(seconds=601)  # the window closes
        doc = await until(client, created["id"], lambda d: d["status"] != "running")
        checked = (await client.get(f"/api/tournaments/{created['id']}/verify")).json()
        games = {t["game_id"]: (await client.get(f"/api/games/{t['game_id']}")).json()
                 for t in doc["rounds"][0]["tables"]}
    assert doc["status"] == "finished", doc["error"]
    rnd, was = doc["rounds"][0], before["rounds"][0]
    assert [b["commitment"] for b in rnd["boards"]] == [b["commitment"] for b in was["boards"]]
    assert rnd["groups"][:len(was["groups"])] == was["groups"]
    for old, new in zip(was["tables"], rnd["tables"], strict=False):  # every table kept
        assert (old["board"], old["seats"]) == (new["board"], new["seats"])
    assert all(t["returns"] is not None and t["game_id"] for t in rnd["tables"])
    commitments = {b["board"]: b["commitment"] for b in rnd["boards"]}
    for t in rnd["tables"]:  # each table dealt its board's committed seed (the table copy
        assert games[t["game_id"]]["seed_commitment"] == commitments[t["board"]]  # has no seed)
    assert checked["verified"], checked  # the stored full copies: seeds and deals alike
    assert len(doc["standings"]) == 8
    assert sum(r["games"] for r in doc["standings"]) == 4 * len(rnd["tables"])


async def test_a_plain_blot_arena_labels_its_tables_and_keeps_live_standings(
        tmp_path: Path) -> None:
    """Without duplicate each arena table draws its own seed (``board`` ``null``, also in the
    lobby's label) and the standings follow every finished table (points by its own sides:
    a win 1, a tie 0.5, a loss 0)."""
    settings = {"database_url": "memory://", **GENEROUS_LIMITS, "bot_delay_seconds": 0.01}
    clock = Clock()
    async with AsyncExitStack() as stack:
        client = await _server(stack, settings, clock)
        auth = await guest(client)
        body = {"game": "bazaar_blot", "format": "arena", "duration_seconds": 600, "bots": 4,
                "duplicate": False}
        created = (await client.post("/api/tournaments", json=body, headers=auth)).json()
        live = await until(client, created["id"], lambda d: _done(d) >= 4 and bool(d["standings"]))
        assert live["status"] == "running"
        assert all(t["board"] is None for t in live["rounds"][0]["tables"])
        end = time.monotonic() + 60
        while not (labels := [r["tournament"] for r in await _rows(client) if r["tournament"]]):
            assert time.monotonic() < end, "no arena table in the lobby"
            await asyncio.sleep(0.01)
        assert all(label["board"] is None and label["round"] == 1 for label in labels)
        clock.offset += timedelta(seconds=601)
        doc = await until(client, created["id"], lambda d: d["status"] != "running")
        listed = (await client.get("/api/tournaments")).json()
    assert listed[0]["kind"] == "arena" and listed[0]["ends_at"] == doc["ends_at"]
    assert "table_size" not in listed[0]  # teams: two a table
    assert doc["status"] == "finished", doc["error"]
    tables = doc["rounds"][0]["tables"]
    assert sum(r["score"] for r in doc["standings"]) == len(tables)  # 1 shared per table
    assert sum(r["games"] for r in doc["standings"]) == 2 * len(tables)
    assert all(b["commitment"] is None for b in doc["rounds"][0]["boards"])
