"""Hidden information after the game (``docs/fairness.md`` section 7, ``docs/security.md``):
over many random Palace Poker and Soldier's Bluff games played at a table, no card that stayed
face down to the table (hidden from a spectator by the engine's ``hidden_from(None)`` at every
step) appears in any frame a spectator or a seated player out of the hand receives, its
``game_over`` included; nor in ``GET /api/games/{id}`` or any ``/replay`` step answered to a
guest or to a player of another game. Each player of the game gets the full copy in its
``game_over`` and from ``GET /api/games/{id}?full=1``, and it verifies.

The deals are drawn from the table's own (fixed) seed, so every saved game verifies."""

from __future__ import annotations

import random
from contextlib import AsyncExitStack
from typing import Any

import httpx
import orjson
import pytest
from leakkit import Game, Step, harness, run_table

from cardhall.config import Settings
from cardhall.engine import History, SeededShuffler, game_seed, verify_history
from cardhall.engine.actions import copy_json, sample
from cardhall.engine.history import apply_logged, start_state
from cardhall.server.app import create_app
from cardhall.storage import SeatResult

GAMES = 40
SEED = bytes(range(32))  # leakkit.run_table's server seed


def seeded_game(game: str, index: int) -> tuple[Game, int | None]:
    """A random game whose chance actions are the ones the table's seed draws."""
    rng = random.Random(f"after/{game}/{index}")
    n = rng.randint(2, 4)
    stack = rng.choice([12, 60])
    sit_out = rng.choice([None, rng.randrange(n + 1)])
    config: dict[str, Any] = rng.choice(
        [{}, {"pass_is_fold": True}, {"exchange_exact": True}] if game == "soldiers_bluff"
        else [{}, {"battle_reveal": "public"}, {"structure": "no_limit"}])
    g = Game(game, n, [stack] * n, [], config)
    shuffle = SeededShuffler(game_seed(SEED, [None] * n))
    st = g.new_state()
    while not st.is_over:
        if st.chance_due():
            seat, action = None, st.chance_action(shuffle)
        else:
            seat = rng.choice(st.to_act())
            action = sample(rng.choice(st.legal_actions(seat)), rng)
        st.apply(seat, action)
        g.steps.append(Step(seat, copy_json(action)))
    return g, sit_out


def never_public(doc: dict[str, Any]) -> set[str]:
    history = History.from_json(doc)
    _, state = start_state(history)
    hidden = set(state.hidden_from(None))
    for entry in history.actions:
        apply_logged(state, entry.seat, entry.action)
        hidden &= state.hidden_from(None)
    return hidden


def shown(texts: list[str], secret: set[str]) -> set[str]:
    return {c for c in secret for t in texts if f'"{c}"' in t}


async def app_client(stack: AsyncExitStack) -> httpx.AsyncClient:
    app = create_app(Settings(database_url="memory://", admin_token="adm",
                              rest_rate_limit="1000000/minute"))
    await stack.enter_async_context(app.router.lifespan_context(app))
    return await stack.enter_async_context(httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://test"))


async def check_rest(client: httpx.AsyncClient, full: dict[str, Any], secret: set[str],
                     gid: str) -> int:
    """Save ``full`` (seat 0 held by a fresh player), then read it as a guest, another player
    and that player; returns the replay steps checked."""
    store = client._transport.app.state.store  # type: ignore[attr-defined]
    me, my_token = await store.create_player("me")
    _, other_token = await store.create_player("other")
    doc = copy_json(full)
    doc["seats"][0]["player_id"] = me.id
    await store.save_game(game_id=gid, game=doc["game"], table_id="t", history=doc,
                          outcome=doc["outcome"], started_at=_time(doc["started_at"]),
                          ended_at=_time(doc["ended_at"]),
                          results=[SeatResult(i, s["name"], 0, s.get("player_id"), False)
                                   for i, s in enumerate(doc["seats"])])
    other = {"Authorization": f"Bearer {other_token}"}
    texts = [(await client.get(f"/api/games/{gid}")).text,
             (await client.get(f"/api/games/{gid}", headers=other)).text,
             (await client.get(f"/api/games/{gid}/verify")).text]
    assert orjson.loads(texts[0])["copy"] == "table"
    assert orjson.loads(texts[2])["verified"] is True
    for step in range(len(doc["actions"]) + 1):
        r = await client.get(f"/api/games/{gid}/replay?step={step}", headers=other)
        assert r.status_code == 200 and r.json()["copy"] == "table"
        texts.append(r.text)
    assert not shown(texts, secret), f"{gid}: {sorted(shown(texts, secret))[:4]} leaked"
    assert (await client.get(f"/api/games/{gid}/replay?seat=0")).status_code == 403
    assert (await client.get(f"/api/games/{gid}?full=1")).status_code == 401
    r = await client.get(f"/api/games/{gid}?full=1", headers=other)
    assert r.status_code == 403 and r.json()["error"]["code"] == "game.not_participant"
    mine = await client.get(f"/api/games/{gid}?full=1",
                            headers={"Authorization": f"Bearer {my_token}"})
    assert mine.json() == doc and verify_history(mine.json()).verified
    return len(texts)


def _time(iso: str) -> Any:
    from datetime import datetime
    return datetime.fromisoformat(iso)


@pytest.mark.parametrize("game", ["palace_poker", "soldiers_bluff"])
async def test_no_face_down_card_reaches_a_spectator_or_the_public_after_the_game(
        game: str) -> None:
    hidden_games = checked = 0
    async with AsyncExitStack() as stack:
        client = await app_client(stack)
        for index in range(GAMES):
            g, sit_out = seeded_game(game, index)
            async with harness() as h:
                run = await run_table(h, g, g.steps, sit_out=sit_out)
            over = {name: [orjson.loads(t) for t in c.texts if '"game_over"' in t[:20]]
                    for name, c in run.conns.items()}
            players = [f"s{ts}" for ts in run.table.seat_map]
            full = over[players[0]][0]["history"]
            assert all(over[p][0]["history"] == full for p in players)
            assert verify_history(full).verified, verify_history(full).to_json()
            assert await h.store.get_game(full["id"]) == full  # the store keeps the full copy
            secret = never_public(full)
            hidden_games += bool(secret)
            outsiders = ["spectator"] + ([] if sit_out is None else [f"s{sit_out}"])
            for name in outsiders:
                assert over[name][0]["history"]["copy"] == "table"
                leaked = shown(run.conns[name].texts, secret)
                assert not leaked, f"{game} #{index}: {name} got {sorted(leaked)[:4]}"
            checked += await check_rest(client, full, secret, f"{game}-{index}")
    assert hidden_games > GAMES // 2 and checked > GAMES * 5
