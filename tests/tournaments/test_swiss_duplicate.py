"""End to end: a Bazaar Blot Swiss duplicate of 8 bot teams over 3 rounds (issue 29, "Must show").

Real tables on a real clock with bots that answer at once; the boards' deals are read back
from the saved histories (the store), checked identical at every table of a board, checked
against the board's commitment and revealed seed, and verified by ``cardhall verify``'s
engine check.
"""

from __future__ import annotations

import asyncio
import copy

from tourkit import outcome

from cardhall.config import Settings
from cardhall.engine import commitment
from cardhall.engine.verify import verify_history
from cardhall.storage.memory import MemoryStore
from cardhall.storage.tournaments import MemoryTournaments
from cardhall.tables.manager import TableManager
from cardhall.tournaments import Director, TournamentRequest
from cardhall.tournaments.verify import check_tournament

SETTINGS = Settings(database_url="memory://", bot_delay_seconds=0.0)


def deal_of(history: dict) -> list[list[str]]:
    """The hands of the history's first chance action (the board's deal)."""
    first = history["actions"][0]
    assert first["seat"] is None and first["action"]["type"] == "deal"
    return first["action"]["hands"]


async def _tampering_is_found(doc: dict, store: MemoryStore) -> None:
    """Two cards swapped between two hands of one table's deal: that board fails."""
    histories = {t["game_id"]: await store.get_game(t["game_id"])
                 for r in doc["rounds"] for t in r["tables"]}
    victim = doc["rounds"][1]["tables"][2]
    forged = copy.deepcopy(histories[victim["game_id"]])
    hands = forged["actions"][0]["action"]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    result = check_tournament(doc, {**histories, victim["game_id"]: forged})
    assert not result["verified"]
    bad = [b for r in result["rounds"] for b in r["boards"] if not b["verified"]]
    assert [(b["board"], len(b["problems"])) for b in bad] == [(victim["board"], 2)]
    assert "first deals differ" in bad[0]["problems"][1]
    assert victim["table_id"] in bad[0]["problems"][0]
    texts = [p for r in result["rounds"] for b in r["boards"] for p in b["problems"]]
    assert all("hands" not in t and "card" not in t for t in texts)  # problems name no card


async def test_swiss_duplicate_of_eight_bot_teams_over_three_rounds() -> None:
    store = MemoryStore()
    manager = TableManager(SETTINGS, store)
    await manager.start()
    director = Director(manager, MemoryTournaments())
    try:
        req = TournamentRequest(game="bazaar_blot", format="swiss", rounds=3, boards_per_round=2,
                                duplicate=True, bots=8)
        created = await director.create(req, None)
        assert created["status"] == "running"
        doc, checked = await outcome(director, manager, created["id"], 120)
    finally:
        await director.stop()
        await manager.stop()
    assert doc["status"] == "finished", doc["error"]
    assert checked["verified"] and checked["not_checked"] == []
    assert [len(r["boards"]) for r in checked["rounds"]] == [2, 2, 2]
    assert all(b["tables"] == 4 and b["problems"] == [] for r in checked["rounds"]
               for b in r["boards"])
    await _tampering_is_found(doc, store)
    assert len(doc["rounds"]) == 3
    standings = doc["standings"]
    assert sorted(r["entrant"] for r in standings) == [f"e{i}" for i in range(1, 9)]
    assert [r["rank"] for r in standings] == list(range(1, 9))
    assert sum(r["score"] for r in standings) == 3 * 2 * 2 * 4 * 3  # n(n-1) per side and board
    met: set[frozenset[str]] = set()
    for rnd in doc["rounds"]:
        assert rnd["bye"] is None and len(rnd["pairs"]) == 4
        for home, away in rnd["pairs"]:
            assert frozenset((home, away)) not in met  # no repeat opponents
            met.add(frozenset((home, away)))
        for board in rnd["boards"]:
            seed = bytes.fromhex(board["seed"])  # revealed after the round
            assert commitment(seed) == board["commitment"]
            tables = [t for t in rnd["tables"] if t["board"] == board["board"]]
            assert len(tables) == 4
            deals = []
            for t in tables:
                history = await store.get_game(t["game_id"])
                assert history is not None
                assert history["seed"] == board["seed"]
                assert history["seed_commitment"] == board["commitment"]
                assert history["client_seeds"] == [None] * 4
                assert verify_history(history).verified
                deals.append(deal_of(history))
            assert all(d == deals[0] for d in deals), f"board {board['board']} differs"
            # seats rotate: each pairing's home entrant holds seats 0/2 at half the tables
            homes = [t["seats"][0] == rnd["pairs"][t["pair"]][0] for t in tables]
            assert homes.count(True) == 2


async def test_a_resumed_round_takes_a_gone_tables_stored_game_and_deals_no_board_twice() -> None:
    """A restart after a table's game was stored but before the director recorded it: the
    resumed director finds the stored game of that table; a table with no stored game is
    dealt again with the same seed."""
    store = MemoryStore()
    manager = TableManager(SETTINGS, store)
    await manager.start()
    kept = MemoryTournaments()
    director = Director(manager, kept)
    try:
        req = TournamentRequest(game="bazaar_blot", rounds=1, boards_per_round=2, bots=2)
        created = await director.create(req, None)
        await asyncio.wait_for(director.wait(created["id"]), 60)
        await manager.writer.flush()
        done = await kept.get_tournament(created["id"])
        assert done is not None and done["status"] == "finished"
        tables = done["rounds"][0]["tables"]
        # as if the director had stopped before recording: one table's game stored, one lost
        rewound = {**copy.deepcopy(done), "id": "rewound", "status": "running", "standings": []}
        rnd = rewound["rounds"][0]
        rnd["status"], rnd["scores"] = "playing", {}
        stored_game = tables[0]["game_id"]
        for t in rnd["tables"]:
            t["game_id"], t["returns"], t["status"] = None, None, "playing"
        rnd["tables"][1]["table_id"] = "no-such-table"
        await kept.save_tournament(rewound)
        await director.start()
        await asyncio.wait_for(director.wait("rewound"), 60)
        await manager.writer.flush()
        doc = await director.get("rewound")
    finally:
        await director.stop()
        await manager.stop()
    assert doc["status"] == "finished", doc["error"]
    again = doc["rounds"][0]["tables"]
    assert again[0]["game_id"] == stored_game and again[0]["returns"] == tables[0]["returns"]
    assert again[1]["table_id"] != "no-such-table" and again[1]["game_id"] != tables[1]["game_id"]
    replayed = await store.get_game(again[1]["game_id"])
    original = await store.get_game(tables[1]["game_id"])
    assert replayed is not None and original is not None
    assert deal_of(replayed) == deal_of(original) and replayed["seed"] == original["seed"]
    assert len(await store.list_games(limit=100)) == 3  # the two boards, one of them twice


async def test_a_knockout_of_four_bot_teams_ends_with_one_and_standings() -> None:
    store = MemoryStore()
    manager = TableManager(SETTINGS, store)
    await manager.start()
    director = Director(manager, MemoryTournaments())
    try:
        req = TournamentRequest(game="bazaar_blot", format="knockout", boards_per_round=1, bots=4)
        created = await director.create(req, None)
        await asyncio.wait_for(director.wait(created["id"]), 60)
        doc = await director.get(created["id"])
    finally:
        await director.stop()
        await manager.stop()
    assert doc["status"] == "finished", doc["error"]
    assert [len(r["pairs"]) for r in doc["rounds"]] == [2, 1]
    assert len(doc["alive"]) == 1
    final = doc["rounds"][1]["pairs"][0]
    assert doc["alive"][0] in final and set(final) <= {e for p in doc["rounds"][0]["pairs"]
                                                     for e in p}
    assert len(doc["standings"]) == 4
