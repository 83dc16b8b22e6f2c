"""Soldier's Bluff and Palace Poker at live tables over real WebSockets (issues 4 and 5).

One person's client at seat 0 (silent at its first decision, so the 10-second rule's timeout
action moves it, then playing random legal actions), built-in rule bots in the other seats and a
spectator. The hand ends, nobody was sent a card hidden from it, the hand is saved once with its
seat results, and ``cardhall replay`` re-runs the saved history to the same outcome. The same
match runs against PostgreSQL in a throwaway database when it is reachable.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from livesrv import Audit, Client, client, live_server

from cardhall.bots import RandomPolicy
from cardhall.engine import game_names

ROOT = Path(__file__).resolve().parents[2]
POSTGRES_URL = os.environ.get(
    "CARDHALL_TEST_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
)
POKER = [("soldiers_bluff", 3), ("palace_poker", 4)]


async def _pg(url: str, sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://", 1), timeout=2)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


async def _temp_postgres_database() -> AsyncIterator[str]:
    """A fresh database on the test server (dropped afterwards); skips when unreachable."""
    name = f"cardhall_e2e_{uuid.uuid4().hex[:10]}"
    try:
        await _pg(POSTGRES_URL, f'CREATE DATABASE "{name}"')
    except Exception as exc:
        pytest.skip(f"PostgreSQL not reachable at {POSTGRES_URL} ({type(exc).__name__}: {exc}); "
                    "set CARDHALL_TEST_POSTGRES_URL")
    try:
        yield POSTGRES_URL.rsplit("/", 1)[0] + f"/{name}"
    finally:
        await _pg(POSTGRES_URL, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


async def _database_url(store: str, tmp_path: Path) -> AsyncIterator[str]:
    if store == "memory":
        yield "memory://"
    elif store == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'cardhall.db'}"
    else:
        async for url in _temp_postgres_database():
            yield url


async def _play_seat(c: Client, table_id: str, seed: int) -> tuple[dict[str, Any], bool]:
    """Stay silent at the first decision (the timer must act), then play randomly until the
    first ``game_over``. Returns ``(game_over, had_a_decision)``."""
    rng = random.Random(seed)
    policy = RandomPolicy()
    silent_version: int | None = None
    n = 0
    while True:
        msg = await c.recv()
        if msg["type"] == "game_over":
            return msg, silent_version is not None
        if msg["type"] != "state" or not msg["legal_actions"] or msg["status"] != "playing":
            continue
        if silent_version is None:
            silent_version = msg["version"]
            assert msg["deadline_ms"] is not None and msg["deadline_ms"] > 0
            continue
        n += 1
        action = policy.choose(msg["view"], msg["legal_actions"], rng)
        await c.send({"type": "act", "table_id": table_id, "version": msg["version"],
                      "action_id": f"m{n}", "action": action})


@pytest.mark.parametrize("store", ["memory", "sqlite", "postgres"])
@pytest.mark.parametrize(("game", "seats"), POKER)
async def test_poker_hand_with_bots_timeouts_and_saved_history(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, game: str, seats: int, store: str) -> None:
    if game not in game_names():
        pytest.skip(f"{game} not in this build")
    async for url in _database_url(store, tmp_path):
        await _run_hand(monkeypatch, tmp_path, game, seats, url)


async def _run_hand(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, game: str, seats: int,
                    url: str) -> None:
    async with live_server(database_url=url, turn_timeout_seconds=0.3) as live:
        audit = Audit(live, monkeypatch)
        (pa, ta), (pe, te) = [await live.player(n) for n in ("ana", "eve")]
        bots = [{"seat": s, "kind": "rule"} for s in range(1, seats)]
        async with live.http as http:
            r = await http.get("/api/tables")
            assert r.status_code == 200
            r = await http.post("/api/tables", headers={"Authorization": f"Bearer {ta}"},
                                json={"game": game, "seats": seats, "bots": bots,
                                      "starting_stack": 50, "turn_timeout_seconds": 0.3})
        assert r.status_code == 201, r.text
        tid = r.json()["id"]
        async with client(live, ta) as ana, client(live, te) as eve:
            await eve.send({"type": "join", "table_id": tid, "spectate": True})
            await ana.send({"type": "join", "table_id": tid, "seat": 0})
            (over, had_decision), over_e = await asyncio.gather(
                _play_seat(ana, tid, 7), eve.expect("game_over"))
            assert over["history"]["id"] == over_e["history"]["id"]
            assert audit.violations(pa, ana.frames) == []
            assert audit.violations(pe, eve.frames) == []
        history = over["history"]
        seat0 = 0  # every seat has chips in the first hand, so game seats are table seats
        timeouts = [a for a in history["actions"] if a.get("timeout")]
        if had_decision:
            assert any(a["seat"] == seat0 for a in timeouts), "the timer did not move seat 0"
        assert sum(history["outcome"]["returns"]) == 0, "chips are conserved"
        saved = await live.store.get_game(history["id"])
        assert saved == history
        listed = await live.store.list_games(game=game)
        assert history["id"] in [g.id for g in listed]
        summary = next(g for g in listed if g.id == history["id"])
        assert [s.is_bot for s in summary.seats].count(True) >= seats - 1
        path = tmp_path / "hand.json"
        path.write_text(json.dumps(history))
        out = subprocess.run([sys.executable, "-m", "cardhall", "replay", str(path)],
                             capture_output=True, text=True, timeout=60, cwd=ROOT,
                             env={"PYTHONPATH": str(ROOT / "src")})
        assert out.returncode == 0, out.stderr
        replayed = json.loads(out.stdout)
        assert replayed["finished"] and replayed["outcome"] == history["outcome"]
