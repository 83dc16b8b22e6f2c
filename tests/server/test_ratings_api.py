"""Ratings, leaderboards, profiles and a player's games as NDJSON over REST (``docs/rest.md``,
"Ratings and profiles"): real finished games (self-play) saved the way tables save them."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import httpx
import pytest

from cardhall.selfplay import play_one
from cardhall.storage import SeatResult

T0 = datetime(2026, 3, 1, 10, 0, tzinfo=UTC)


async def _play(client: httpx.AsyncClient, game_id: str, game: str, ids: list[str | None],
                *, seed: int = 3, minutes: int = 0, bots: frozenset[int] = frozenset()
                ) -> list[int]:
    """Play one game of ``game`` by self-play and save it with ``ids`` in its seats; its
    returns."""
    store = client._transport.app.state.store  # type: ignore[attr-defined]
    rec, violations, _ = play_one(game, len(ids), seed=seed, check=False)
    assert not violations and rec.state.outcome is not None
    returns = list(rec.state.outcome.returns)
    ended = T0 + timedelta(minutes=minutes)
    await store.save_game(
        game_id=game_id, game=game, table_id="t1", history=rec.history.to_json(),
        outcome=rec.state.outcome.to_json(), started_at=ended, ended_at=ended,
        results=[SeatResult(i, f"p{i}", r, pid, i in bots)
                 for i, (pid, r) in enumerate(zip(ids, returns, strict=True))])
    return returns


async def _guest(client: httpx.AsyncClient, name: str) -> str:
    return str((await client.post("/api/players", json={"name": name})).json()["id"])


async def test_a_blot_match_moves_both_teams(client: httpx.AsyncClient) -> None:
    ids = [await _guest(client, n) for n in ("A", "B", "C", "D")]
    returns = await _play(client, "m1", "bazaar_blot", ids)  # type: ignore[arg-type]
    winners = {0, 2} if returns[0] > returns[1] else {1, 3}
    for seat, pid in enumerate(ids):
        [rating] = (await client.get(f"/api/players/{pid}")).json()["ratings"]
        assert rating["game"] == "bazaar_blot" and rating["games"] == 1
        assert (rating["mu"] > 25) == (seat in winners)
        assert rating["wins"] == int(seat in winners)
    board = (await client.get("/api/ratings", params={"game": "bazaar_blot"})).json()
    assert {e["player_id"] for e in board["items"][:2]} == {ids[s] for s in winners}
    assert [e["rank"] for e in board["items"]] == [1, 2, 3, 4]


async def test_a_poker_hand_ranks_its_players_by_chips_won(client: httpx.AsyncClient) -> None:
    ids = [await _guest(client, n) for n in ("A", "B", "C")]
    returns = await _play(client, "h1", "palace_poker", ids, seed=5)  # type: ignore[arg-type]
    mus = [(await client.get(f"/api/players/{pid}")).json()["ratings"][0]["mu"] for pid in ids]
    order = sorted(range(3), key=lambda s: -returns[s])
    assert mus[order[0]] >= mus[order[1]] >= mus[order[2]]
    profile = (await client.get(f"/api/players/{ids[order[0]]}")).json()
    [game] = profile["recent_games"]
    marks = [s["mark"] for s in game["seats"]]
    assert marks == ["win" if r > 0 else "loss" if r < 0 else "draw" for r in returns]


async def test_the_leaderboard_pages_and_lists_bots_apart(client: httpx.AsyncClient) -> None:
    ids = [await _guest(client, f"P{i}") for i in range(5)]
    store = client._transport.app.state.store  # type: ignore[attr-defined]
    bot = (await store.bot_identity("rule-bot")).id
    for i, pid in enumerate(ids):
        for j in range(5 - i):  # P0 wins five hands, P4 one
            await store.save_game(
                game_id=f"g{i}{j}", game="soldiers_bluff", table_id="t", history={},
                outcome={"reason": "showdown", "returns": [10, -10]},
                results=[SeatResult(0, f"P{i}", 10, pid), SeatResult(1, "rule-bot-1", -10, bot,
                                                                     True)],
                started_at=T0, ended_at=T0 + timedelta(minutes=10 * i + j))
    pages, offset = [], 0
    while offset is not None:
        page = (await client.get("/api/ratings", params={
            "game": "soldiers_bluff", "limit": 2, "offset": offset})).json()
        pages.append(page)
        offset = page["next_offset"]
    assert [len(p["items"]) for p in pages] == [2, 2, 1]
    assert [e["player_id"] for p in pages for e in p["items"]] == ids
    assert [e["rank"] for p in pages for e in p["items"]] == [1, 2, 3, 4, 5]
    bots = (await client.get("/api/ratings", params={"game": "soldiers_bluff",
                                                     "bots": "true"})).json()
    assert [(e["player_id"], e["bot"], e["games"]) for e in bots["items"]] == [(bot, True, 15)]
    bad = await client.get("/api/ratings", params={"game": "chess"})
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "engine.unknown_game"


async def test_rating_history_and_games_ndjson(client: httpx.AsyncClient) -> None:
    me, other = await _guest(client, "Me"), await _guest(client, "Other")
    for i in range(3):
        await _play(client, f"s{i}", "soldiers_bluff", [me, other], seed=10 + i, minutes=i)
    history = (await client.get(f"/api/players/{me}/ratings/soldiers_bluff")).json()
    assert [p["game_id"] for p in history["items"]] == ["s0", "s1", "s2"]
    rated = (await client.get(f"/api/players/{me}")).json()["ratings"][0]
    assert history["items"][-1]["rating"] == rated["rating"]
    answer = await client.get(f"/api/players/{me}/games.ndjson")
    assert answer.headers["content-type"].startswith("application/x-ndjson")
    lines = [json.loads(line) for line in answer.text.splitlines()]
    assert [g["id"] for g in lines] == ["s2", "s1", "s0"]
    assert all("history" not in g and "seed" not in json.dumps(g) for g in lines)
    wins = await client.get(f"/api/players/{me}/games.ndjson", params={"result": "win"})
    assert all(g["seats"][0]["mark"] == "win" for g in map(json.loads, wins.text.splitlines()))
    listed = (await client.get("/api/games", params={"player": me, "result": "loss"})).json()
    assert all(g["seats"][0]["mark"] == "loss" for g in listed["items"])


@pytest.mark.parametrize("path", ["/api/players/nobody", "/api/players/nobody/games.ndjson",
                                  "/api/players/nobody/ratings/palace_poker"])
async def test_unknown_players_are_404(client: httpx.AsyncClient, path: str) -> None:
    answer = await client.get(path)
    assert answer.status_code == 404 and answer.json()["error"]["code"] == "player.not_found"
