"""A crash is a pause: SIGKILL a real ``cardhall serve`` mid-game, restart it on the same
database, resume every seat with its seat token, and the game ends as it would have without
the kill (``docs/operations.md``).

Both runs use the same fixed seed (``CARDHALL_INSECURE_FIXED_SEED``) and the same deterministic
clients: one driver makes the moves in a fixed order (the lowest seat that may act plays its
``k``-th legal action, ``k`` the number of moves so far) and waits until every client has seen
the step before the next move, so the two histories can be compared action by action. The kill
lands mid Bazaar Blot deal (trick play under way) and mid Palace Poker battle. A SIGTERM instead
drains: every client is told ``table_closed``/``shutdown`` before its socket closes with 1012,
the process exits 0, and the restarted server resumes the table the same way.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import uuid
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from livesrv import Client
from procsrv import ProcServer
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from cardhall.engine.actions import minimal

pytestmark = pytest.mark.slow

POSTGRES_URL = os.environ.get(
    "CARDHALL_TEST_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test")

GAMES: dict[str, tuple[int, dict[str, Any], Callable[[dict[str, Any]], bool]]] = {
    # game -> (seats, table body, "kill now" on a seat's state)
    "bazaar_blot": (4, {"config": {"target_score": 51}},
                    lambda s: s["view"]["phase"] == "play" and bool(s["view"].get("trick"))),
    "palace_poker": (3, {}, lambda s: s["view"]["phase"] == "battle"),
}

ENV = {"CARDHALL_INSECURE_FIXED_SEED": "kill-test", "CARDHALL_TURN_TIMEOUT_SECONDS": "120",
       "CARDHALL_ABANDON_AFTER_SECONDS": "600", "CARDHALL_NEXT_HAND_PAUSE_SECONDS": "600",
       "CARDHALL_GC_TUNING": "false"}


async def _pg(sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(POSTGRES_URL.replace("postgresql+asyncpg://", "postgresql://"),
                                 timeout=3)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@contextlib.asynccontextmanager
async def database(kind: str, tmp_path: Path) -> AsyncIterator[str]:
    """A fresh database URL: a SQLite file, or a PostgreSQL database dropped afterwards."""
    if kind == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'cardhall.db'}"
        return
    name = f"cardhall_kill_{uuid.uuid4().hex[:10]}"
    try:
        await _pg(f'CREATE DATABASE "{name}"')
    except Exception as exc:  # no server here: the PostgreSQL case cannot run
        pytest.skip(f"PostgreSQL not reachable at {POSTGRES_URL} ({type(exc).__name__}: {exc}); "
                    "set CARDHALL_TEST_POSTGRES_URL")
    try:
        yield POSTGRES_URL.rsplit("/", 1)[0] + f"/{name}"
    finally:
        await _pg(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


class Driver:
    """The seated clients of one table and the deterministic move order (module docstring)."""

    def __init__(self, table_id: str, tokens: list[str]) -> None:
        self.table_id, self.tokens = table_id, tokens
        self.clients: list[Client] = []
        self.seat_tokens: list[str] = []
        self.moves = 0
        self._stack = contextlib.AsyncExitStack()

    async def connect(self, srv: ProcServer, *, resume: bool) -> None:
        """Open one socket per seat, ``hello`` and ``join`` (a new seat, or the seat token)."""
        self.clients = []
        for i, token in enumerate(self.tokens):
            ws = await self._stack.enter_async_context(connect(srv.ws_url, max_size=2**22))
            c = Client(ws)
            await c.hello(token)
            join: dict[str, Any] = {"type": "join", "table_id": self.table_id, "seat": i}
            if resume:
                join["seat_token"] = self.seat_tokens[i]
            await c.send(join)
            joined = await c.expect("joined")
            assert joined["resumed"] is resume, joined
            if not resume:
                self.seat_tokens.append(joined["seat_token"])
            self.clients.append(c)
        for c in self.clients:  # the game starts when the last seat is taken
            while (c.states.get(self.table_id) or {}).get("status") != "playing":
                await c.recv()
        await self.sync(max(c.states[self.table_id]["version"] for c in self.clients))

    async def sync(self, version: int) -> None:
        """Wait until every client holds a state of at least ``version``."""
        for c in self.clients:
            while (c.states.get(self.table_id) or {}).get("version", -1) < version:
                await c.recv()

    def state(self, i: int) -> dict[str, Any]:
        return self.clients[i].states[self.table_id]

    async def play(self, stop: Callable[[dict[str, Any]], bool] | None = None) -> dict[str, Any] | None:
        """Make moves until the game ends (returns ``game_over``) or ``stop`` holds for the
        state of the seat to act (returns ``None``)."""
        while True:
            mover = next((i for i in range(len(self.clients))
                          if self.state(i)["status"] == "playing"
                          and self.state(i)["game_seat"] in self.state(i)["to_act"]
                          and self.state(i)["legal_actions"]), None)
            if mover is None:
                return await self.clients[0].expect("game_over")
            state = self.state(mover)
            if stop is not None and stop(state):
                return None
            legal = state["legal_actions"]
            self.moves += 1
            c = self.clients[mover]
            await c.send({"type": "act", "table_id": self.table_id, "version": state["version"],
                          "action_id": f"m{self.moves}",
                          "action": minimal(legal[self.moves % len(legal)])})
            accepted = await c.until(lambda m: m["type"] in ("accepted", "error"))
            assert accepted["type"] == "accepted", accepted
            await self.sync(accepted["version"])

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self._stack.aclose()


async def new_table(srv: ProcServer, game: str, names: list[str]) -> tuple[str, list[str]]:
    seats, body, _ = GAMES[game]
    async with srv.http() as http:
        tokens = []
        for name in names[:seats]:
            r = await http.post("/api/players", json={"name": name})
            assert r.status_code == 201, r.text
            tokens.append(r.json()["token"])
        r = await http.post("/api/tables", json={"game": game, "seats": seats, **body},
                            headers={"Authorization": f"Bearer {tokens[0]}"})
        assert r.status_code == 201, r.text
        return r.json()["id"], tokens


def moves_of(history: dict[str, Any]) -> list[tuple[Any, Any, bool]]:
    return [(a["seat"], a["action"], a.get("timeout", False)) for a in history["actions"]]


async def shutdown_notices(driver: Driver) -> list[tuple[str, int | None]]:
    """What each client got as its server drained: the ``table_closed`` reason, then the close
    code of its socket."""
    out = []
    for c in driver.clients:
        closed = await c.expect("table_closed")
        with pytest.raises(ConnectionClosed):
            while True:
                await c.recv()
        code = c.ws.close_code
        out.append((closed["reason"], code))
    return out


async def run(tmp_path: Path, url: str, game: str, *,
              kill: signal.Signals | None) -> tuple[dict[str, Any], str]:
    """Play one game on a fresh server (stopped by ``kill`` mid-game and restarted on the same
    database, if given); returns ``game_over`` and the server's log."""
    env = {**ENV, "CARDHALL_DATABASE_URL": url}
    srv = ProcServer(tmp_path, env, name="first")
    await srv.start()
    driver = Driver(*await new_table(srv, game, ["ana", "bob", "cy", "dee"]))
    try:
        await driver.connect(srv, resume=False)
        if kill is not None:
            assert await driver.play(stop=GAMES[game][2]) is None, "the kill point never came"
            srv.kill(kill)
            if kill == signal.SIGTERM:  # told before the close, and a clean exit
                assert await shutdown_notices(driver) == [("shutdown", 1012)] * len(driver.tokens)
                assert await srv.wait(15) == 0
            else:
                assert await srv.wait(15) == -signal.SIGKILL
            await driver.close()
            srv = ProcServer(tmp_path, env, port=srv.port, name="second")
            await srv.start()
            await driver.connect(srv, resume=True)
        over = await driver.play()
        assert over is not None
        async with srv.http() as http:  # the finished game is saved (through the outbox)
            for _ in range(200):
                r = await http.get(f"/api/games/{over['game_id']}")
                if r.status_code == 200:
                    break
                await asyncio.sleep(0.05)  # polling the save, bounded by the loop
            assert r.status_code == 200, r.text
        return over, srv.log()
    finally:
        await driver.close()
        await srv.stop()


@pytest.mark.parametrize(("sig", "db", "game"), [
    (signal.SIGKILL, "sqlite", "bazaar_blot"), (signal.SIGKILL, "sqlite", "palace_poker"),
    (signal.SIGKILL, "postgresql", "bazaar_blot"), (signal.SIGKILL, "postgresql", "palace_poker"),
    (signal.SIGTERM, "sqlite", "bazaar_blot"), (signal.SIGTERM, "postgresql", "palace_poker"),
], ids=lambda v: v.name if isinstance(v, signal.Signals) else v)
async def test_a_killed_or_stopped_server_restarts_and_finishes_the_same_game(
        tmp_path: Path, sig: signal.Signals, db: str, game: str) -> None:
    async with database(db, tmp_path / "a") as url_a:
        (tmp_path / "a").mkdir(exist_ok=True)
        expected, _ = await run(tmp_path / "a", url_a, game, kill=None)
    async with database(db, tmp_path / "b") as url_b:
        (tmp_path / "b").mkdir(exist_ok=True)
        over, log = await run(tmp_path / "b", url_b, game, kill=sig)
    assert "restored" in log, log[-3000:]
    history = over["history"]
    assert moves_of(history) == moves_of(expected["history"])
    assert history["outcome"] == expected["history"]["outcome"]
    assert history["seed"] == expected["history"]["seed"]
