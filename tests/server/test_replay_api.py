"""``GET /api/games/{id}/replay``: one step of a finished game, replayed server-side."""

from __future__ import annotations

from datetime import UTC, datetime

import httpx

from cardhall.engine import History, replay
from cardhall.selfplay import play_one
from cardhall.storage import SeatResult

T0 = datetime(2026, 3, 1, 10, 0, tzinfo=UTC)
ADMIN = {"Authorization": "Bearer test-admin-token-0123456789"}


async def _save(client: httpx.AsyncClient, game: str, seats: int) -> History:
    store = client._transport.app.state.store  # type: ignore[attr-defined]
    rec, violations, _ = play_one(game, seats, seed=3, check=False)
    assert not violations
    doc = rec.history.to_json()
    await store.save_game(game_id="r1", game=game, table_id="t1", history=doc,
                          outcome=rec.state.outcome.to_json(), started_at=T0, ended_at=T0,
                          results=[SeatResult(i, f"p{i}", 0, None, True) for i in range(seats)])
    return History.from_json(doc)


async def test_replay_step_matches_engine_replay(client: httpx.AsyncClient) -> None:
    history = await _save(client, "soldiers_bluff", 3)
    steps = len(history.actions)
    body = (await client.get("/api/games/r1/replay?seat=1&step=2&full=1",
                             headers=ADMIN)).json()
    assert body["steps"] == steps and body["step"] == 2 and body["seat"] == 1
    assert body["seats"] == ["p0", "p1", "p2"]
    assert body["view"] == replay(history, upto=2).view(1)
    assert body["action"]["action"] == history.actions[1].action
    assert body["outcome"] is None


async def test_replay_start_end_and_spectator(client: httpx.AsyncClient) -> None:
    history = await _save(client, "bazaar_blot", 4)
    start = (await client.get("/api/games/r1/replay?step=0")).json()
    assert start["action"] is None and start["events"] == [] and start["seat"] is None
    end = (await client.get("/api/games/r1/replay?seat=0&step=100000")).json()
    assert end["step"] == len(history.actions)
    assert end["outcome"] == replay(history).outcome.to_json()  # type: ignore[union-attr]
    assert end["to_act"] == []


async def test_replay_bad_seat_and_unknown_game(client: httpx.AsyncClient) -> None:
    await _save(client, "soldiers_bluff", 2)
    r = await client.get("/api/games/r1/replay?seat=5")
    assert r.status_code == 422 and r.json()["error"]["code"] == "table.bad_seat"
    r = await client.get("/api/games/nope/replay")
    assert r.status_code == 404 and r.json()["error"]["code"] == "game.not_found"


async def test_replay_of_an_abandoned_game_ends_with_the_abandon_step(
        client: httpx.AsyncClient) -> None:
    """A game the table abandoned is stored with the ``abandon`` step last; the route replays
    it to the ``abandoned`` outcome and shows the step's public event."""
    rec, _, _ = play_one("palace_poker", 3, seed=5, check=False, max_steps=4)
    assert not rec.state.is_over
    rec.abandon(t_ms=60_000)
    doc = rec.history.to_json()
    store = client._transport.app.state.store  # type: ignore[attr-defined]
    await store.save_game(game_id="ab1", game="palace_poker", table_id="t1", history=doc,
                          outcome=rec.state.outcome.to_json(), started_at=T0, ended_at=T0,
                          results=[SeatResult(i, f"p{i}", 0, None, True) for i in range(3)])
    steps = len(doc["actions"])
    end = (await client.get(f"/api/games/ab1/replay?seat=0&step={steps}&full=1",
                            headers=ADMIN)).json()
    assert end["action"] == {"seat": None, "action": {"type": "abandon"}, "t_ms": 60_000}
    assert end["outcome"]["reason"] == "abandoned" and end["outcome"]["returns"] == [0, 0, 0]
    assert end["events"] == [{"kind": "abandoned", "returns": [0, 0, 0]}]
    before = (await client.get(f"/api/games/ab1/replay?seat=0&step={steps - 1}&full=1",
                               headers=ADMIN)).json()
    assert before["outcome"] is None and before["to_act"] != []


async def test_steps_by_trick_round_and_battle(client: httpx.AsyncClient) -> None:
    """``GET /api/games/{id}/steps``: Blot stops after each of its 8 tricks (plus the
    auction's contract and the scoring), Soldier's Bluff after each betting round, Palace
    Poker at its battles and the hand's end; the last stop is the last step."""
    from cardhall.engine import apply_logged, filter_events
    from cardhall.engine.history import start_state

    for game, seats, unit in (("bazaar_blot", 4, "trick"), ("soldiers_bluff", 3, "round"),
                              ("palace_poker", 3, "battle")):
        history = await _save_as(client, game, seats, f"u-{game}")
        body = (await client.get(f"/api/games/u-{game}/steps")).json()
        assert body["unit"] == unit and body["steps"] == len(history.actions)
        assert body["stops"] == sorted(set(body["stops"])) and body["stops"][-1] == body["steps"]
        _, state = start_state(history)
        kinds_at = {}
        for k, entry in enumerate(history.actions, start=1):
            kinds_at[k] = {e["kind"] for e in
                           filter_events(apply_logged(state, entry.seat, entry.action), None)}
        if game == "bazaar_blot":
            tricks = [k for k in body["stops"] if "trick_won" in kinds_at[k]]
            assert len(tricks) >= 8
    missing = await client.get("/api/games/nope/steps")
    assert missing.status_code == 404


async def _save_as(client: httpx.AsyncClient, game: str, seats: int, game_id: str) -> History:
    store = client._transport.app.state.store  # type: ignore[attr-defined]
    rec, violations, _ = play_one(game, seats, seed=3, check=False)
    assert not violations
    doc = rec.history.to_json()
    await store.save_game(game_id=game_id, game=game, table_id="t1", history=doc,
                          outcome=rec.state.outcome.to_json(), started_at=T0, ended_at=T0,
                          results=[SeatResult(i, f"p{i}", 0, None, True) for i in range(seats)])
    return History.from_json(doc)


async def test_open_hands_are_for_the_game_s_players_and_the_admin(
        client: httpx.AsyncClient) -> None:
    """The open-hands perspective shows every seat's cards only to a player of that game and
    to the admin; a guest or another player gets the table's view of them: every card the
    spectator's view does not show at that step is ``??``."""
    store = client._transport.app.state.store  # type: ignore[attr-defined]
    mine = (await client.post("/api/players", json={"name": "Ann"})).json()
    other = (await client.post("/api/players", json={"name": "Bob"})).json()
    rec, _, _ = play_one("palace_poker", 3, seed=3, check=False)
    doc = rec.history.to_json()
    doc["seats"][0]["player_id"] = mine["id"]
    await store.save_game(game_id="oh", game="palace_poker", table_id="t1", history=doc,
                          outcome=rec.state.outcome.to_json(), started_at=T0, ended_at=T0,
                          results=[SeatResult(i, f"p{i}", 0, mine["id"] if i == 0 else None)
                                   for i in range(3)])
    history = History.from_json(doc)
    step = 3
    state = replay(history, upto=step)
    for token in (mine["token"], "test-admin-token-0123456789"):
        body = (await client.get(f"/api/games/oh/hands?step={step}",
                                 headers={"Authorization": f"Bearer {token}"})).json()
        assert body["copy"] == "full" and len(body["hands"]) == 3
        for hand in body["hands"]:
            assert hand["cards"]["palace"] == state.view(hand["seat"])["palace"]
    public = set(_strings(state.view(None)))
    for headers in ({}, {"Authorization": f"Bearer {other['token']}"}):
        body = (await client.get(f"/api/games/oh/hands?step={step}", headers=headers)).json()
        assert body["copy"] == "table" and len(body["hands"]) == 3
        for hand in body["hands"]:
            palace = hand["cards"]["palace"]
            assert len(palace) == len(state.view(hand["seat"])["palace"])
            assert all(c == "??" or c in public for c in palace)
        assert any(c == "??" for hand in body["hands"] for c in hand["cards"]["palace"])
    bad = await client.get("/api/games/oh/hands", headers={"Authorization": "Bearer nope"})
    assert bad.status_code == 401


def _strings(obj: object) -> list[str]:
    if isinstance(obj, str):
        return [obj]
    if isinstance(obj, dict):
        return [s for v in obj.values() for s in _strings(v)]
    if isinstance(obj, list):
        return [s for v in obj for s in _strings(v)]
    return []
