"""End to end (issue 29, "Must show"): a Palace Poker arena with bots runs its window and ends,
and a Soldier's Bluff Swiss duplicate at tables of 4 deals every board identically at every
table that played it (read from the saved histories); a Bazaar Blot duplicate arena of teams
too.

Real tables with bots that answer at once; the arena's window is read on a fake clock the
test moves past its end once tables have finished (bounded waits, no sleep decides anything).
"""

from __future__ import annotations

import asyncio
import copy
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import Any

from tourkit import outcome

from cardhall.config import Settings
from cardhall.engine import commitment
from cardhall.engine.verify import verify_history
from cardhall.storage.memory import MemoryStore
from cardhall.storage.tournaments import MemoryTournaments
from cardhall.tables.manager import TableManager
from cardhall.tournaments import Director, TournamentRequest
from cardhall.tournaments.verify import check_tournament, opening_deal

SETTINGS = Settings(database_url="memory://", bot_delay_seconds=0.0, next_hand_pause_seconds=0.0)


class FakeClock:
    """A wall clock that moves only when the test says."""

    def __init__(self) -> None:
        self.at = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.at


async def _until(check: Any, seconds: float = 60) -> None:
    end = time.monotonic() + seconds
    while not await check():
        assert time.monotonic() < end, "not reached in time"
        await asyncio.sleep(0.02)


async def _same_deals(store: MemoryStore, doc: dict[str, Any], rnd: dict[str, Any]) -> int:
    """Every board's tables: the board's seed and commitment, no client seed, the game
    verifies, and the deal (the chance actions before any seat acts) is the same; returns
    how many boards more than one table played."""
    shared = 0
    for board in rnd["boards"]:
        tables = [t for t in rnd["tables"] if t["board"] == board["board"]]
        if not tables:
            continue
        assert commitment(bytes.fromhex(board["seed"])) == board["commitment"]
        deals = []
        for t in tables:
            history = await store.get_game(t["game_id"])
            assert history is not None
            assert history["seed"] == board["seed"]
            assert history["seed_commitment"] == board["commitment"]
            assert set(history["client_seeds"]) == {None} and history["dealer"] == 0
            assert verify_history(history).verified
            deals.append(opening_deal(history))
        assert deals[0] and all(d == deals[0] for d in deals), f"board {board['board']} differs"
        shared += len(tables) > 1
    return shared


async def test_a_palace_poker_arena_with_bots_runs_its_window_and_ends() -> None:
    store = MemoryStore()
    manager = TableManager(SETTINGS, store)
    await manager.start()
    clock = FakeClock()
    director = Director(manager, MemoryTournaments(), now=clock)
    try:
        req = TournamentRequest(game="palace_poker", format="arena", duration_seconds=600,
                                table_size=4, bots=8, boards=6)
        created = await director.create(req, None)
        tid = created["id"]
        assert created["ends_at"] == (clock.at + timedelta(seconds=600)).isoformat()
        assert all(len(b["commitment"]) == 64 and b["seed"] is None
                   for b in created["rounds"][0]["boards"])

        async def played(n: int) -> bool:
            doc = await director.store.get_tournament(tid)
            assert doc is not None and doc["status"] == "running", doc and doc["error"]
            return sum(t["returns"] is not None for t in doc["rounds"][0]["tables"]) >= n

        await _until(lambda: played(6))  # each entrant seated again, at least twice
        live = await director.get(tid)
        assert live["status"] == "running" and live["standings"] == []
        assert all(b["seed"] is None for b in live["rounds"][0]["boards"])
        finished = [t for t in live["rounds"][0]["tables"] if t["status"] == "finished"]
        assert finished and all(t["returns"] is None for t in finished)  # withheld
        assert {t["table_id"] for t in finished} <= director.withheld
        clock.at += timedelta(seconds=601)  # the window closes
        doc, checked = await outcome(director, manager, tid, 60)
    finally:
        await director.stop()
        await manager.stop()
    assert doc["status"] == "finished", doc["error"]
    rnd = doc["rounds"][0]
    assert rnd["status"] == "finished" and len(rnd["tables"]) >= 6
    ends = datetime.fromisoformat(doc["ends_at"])
    assert all(datetime.fromisoformat(t["seated_at"]) < ends for t in rnd["tables"])
    assert all(t["returns"] is not None and t["game_id"] for t in rnd["tables"])
    assert not director.withheld & {t["table_id"] for t in rnd["tables"]}
    standings = doc["standings"]
    assert sorted(r["entrant"] for r in standings) == [f"e{i}" for i in range(1, 9)]
    assert sum(r["games"] for r in standings) == 4 * len(rnd["tables"])
    # matchpoint shares: each board seat's results share (n/2) points among n results
    assert abs(sum(r["score"] for r in standings) - sum(
        len(res["held"]) / 2 for res in rnd["results"] if res["held"])) < 1e-9
    assert checked["verified"] and checked["not_checked"] == []
    assert await _same_deals(store, doc, rnd) >= 1  # some board compared across tables
    await _forged_palaces_are_found(doc, store)
    for res in rnd["results"]:  # who held the seat's cards, each table's net, side by side
        assert all({"entrant", "table_id", "game_id", "net", "points"} <= set(h) for h in res["held"])


async def _forged_palaces_are_found(doc: dict[str, Any], store: MemoryStore) -> None:
    """Two cards swapped between two palaces (the hand's second chance action) at one
    table of a board two tables played: that board's deals differ, and only that board
    fails."""
    rnd = doc["rounds"][0]
    histories = {t["game_id"]: await store.get_game(t["game_id"]) for t in rnd["tables"]}
    boards = Counter(t["board"] for t in rnd["tables"])
    victim = next(t for t in rnd["tables"] if boards[t["board"]] > 1)
    forged = copy.deepcopy(histories[victim["game_id"]])
    deal = forged["actions"][1]["action"]
    assert deal["type"] == "deal_palaces"
    deal["palaces"][0][0], deal["palaces"][1][0] = deal["palaces"][1][0], deal["palaces"][0][0]
    result = check_tournament(doc, {**histories, victim["game_id"]: forged})
    bad = [b for r in result["rounds"] for b in r["boards"] if not b["verified"]]
    assert [b["board"] for b in bad] == [victim["board"]]
    assert "the tables' first deals differ" in bad[0]["problems"]


async def test_a_soldiers_bluff_swiss_duplicate_deals_every_board_alike() -> None:
    store = MemoryStore()
    manager = TableManager(SETTINGS, store)
    await manager.start()
    director = Director(manager, MemoryTournaments())
    try:
        req = TournamentRequest(game="soldiers_bluff", format="swiss", rounds=2, table_size=4,
                                boards_per_round=4, duplicate=True, bots=9)
        created = await director.create(req, None)
        doc, checked = await outcome(director, manager, created["id"], 120)
    finally:
        await director.stop()
        await manager.stop()
    assert doc["status"] == "finished", doc["error"]
    assert doc["table_size"] == 4 and len(doc["rounds"]) == 2
    assert checked["verified"], checked
    byes = Counter(e for r in doc["rounds"] for e in r["byes"])
    assert [len(r["byes"]) for r in doc["rounds"]] == [1, 1] and max(byes.values()) == 1
    for rnd in doc["rounds"]:
        assert await _same_deals(store, doc, rnd) == 4  # each board at both tables
        for g, group in enumerate(rnd["groups"]):  # 4 boards: each entrant holds each seat once
            tables = [t for t in rnd["tables"] if t["group"] == g]
            for e in group:
                assert sorted(t["seats"].index(e) for t in tables) == [0, 1, 2, 3]
        for board in rnd["boards"]:  # a seat's cards are held by different group places
            held = [rnd["groups"][t["group"]].index(t["seats"][0])
                    for t in rnd["tables"] if t["board"] == board["board"]]
            assert len(set(held)) == 2
        assert len(rnd["results"]) == 4 * 4 and all(len(r["held"]) == 2 for r in rnd["results"])
        assert sum(rnd["scores"].values()) == 4 * 4 * 2 + 4 * 1  # 2 per seat and board; the bye
    assert sorted(r["entrant"] for r in doc["standings"]) == [f"e{i}" for i in range(1, 10)]
    await _tampering_is_found(doc, store)


async def _tampering_is_found(doc: dict[str, Any], store: MemoryStore) -> None:
    """Two cards swapped between two hands of one table's deal: that board fails, and only
    that one (``GET /api/tournaments/{id}/verify`` checks poker boards too)."""
    histories = {t["game_id"]: await store.get_game(t["game_id"])
                 for r in doc["rounds"] for t in r["tables"]}
    victim = doc["rounds"][1]["tables"][1]
    forged = copy.deepcopy(histories[victim["game_id"]])
    hands = forged["actions"][0]["action"]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    result = check_tournament(doc, {**histories, victim["game_id"]: forged})
    bad = [(r["round"], b["board"]) for r in result["rounds"] for b in r["boards"]
           if not b["verified"]]
    assert not result["verified"] and bad == [(2, victim["board"])]


async def test_a_blot_duplicate_arena_of_teams_compares_each_board_across_its_tables() -> None:
    store = MemoryStore()
    manager = TableManager(SETTINGS, store)
    await manager.start()
    clock = FakeClock()
    director = Director(manager, MemoryTournaments(), now=clock)
    try:
        req = TournamentRequest(game="bazaar_blot", format="arena", duration_seconds=60,
                                bots=6, boards=3)
        tid = (await director.create(req, None))["id"]

        async def played() -> bool:
            doc = await director.store.get_tournament(tid)
            assert doc is not None and doc["status"] == "running", doc and doc["error"]
            return sum(t["returns"] is not None for t in doc["rounds"][0]["tables"]) >= 9

        await _until(played)
        clock.at += timedelta(seconds=61)
        doc, checked = await outcome(director, manager, tid, 60)
    finally:
        await director.stop()
        await manager.stop()
    assert doc["status"] == "finished", doc["error"]
    rnd = doc["rounds"][0]
    assert all(len(g) == 2 for g in rnd["groups"]) and checked["verified"]
    assert await _same_deals(store, doc, rnd) == 3  # every board at several tables
    for board in rnd["boards"]:  # its two sides held by home teams at alternate tables
        tables = [t for t in rnd["tables"] if t["board"] == board["board"]]
        homes = [t["seats"][0] == rnd["groups"][t["group"]][0] for t in tables]
        assert homes[::2] == [True] * len(homes[::2]) and not any(homes[1::2])
    assert sum(r["games"] for r in doc["standings"]) == 2 * len(rnd["tables"])
