"""A deploy is a pause for SDK bots: four SDK bots play a Bazaar Blot match on a real
``cardhall serve`` (SQLite file); mid-match the server is stopped (SIGTERM: the drain sends
``table_closed``/``shutdown`` and closes 1012; SIGKILL: the sockets just drop) and started again
on the same port and database. Every bot's session pauses (not closes), its client reconnects
with backoff (through the ``server.draining`` refusals of the draining server and the refused
connections of the stopped one), resumes its seat with its seat token, and the match ends with a
``game_over`` for every seat.

The bots stop deciding after a few moves (a gate) so the stop lands mid-match, whatever the
machine's speed; every wait is bounded.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from clientkit import live_server  # noqa: F401  (puts tests/server on the path)
from procsrv import ProcServer

from cardhall.client import BuiltinBot, Client, TableSession

pytestmark = pytest.mark.slow

ENV = {"CARDHALL_INSECURE_FIXED_SEED": "x", "CARDHALL_TURN_TIMEOUT_SECONDS": "120",
       "CARDHALL_ABANDON_AFTER_SECONDS": "600", "CARDHALL_GC_TUNING": "false",
       "CARDHALL_SHUTDOWN_GRACE_SECONDS": "10"}
MOVES_BEFORE_STOP = 6
WAIT = 60.0


class Shared:
    """What the four bots share: the move count, the gate that holds them, and the pauses."""

    def __init__(self) -> None:
        self.moves = 0
        self.gate = asyncio.Event()
        self.held = asyncio.Event()  # a bot is waiting at the gate: the match is under way


class GatedBot:
    """A rule bot that waits at the gate once ``MOVES_BEFORE_STOP`` moves were made, and
    records its table's pauses and resumes (``on_pause``/``on_resume``, ``docs/bots.md``)."""

    def __init__(self, shared: Shared, seed: int) -> None:
        self.inner = BuiltinBot("bazaar_blot", "rule", seed)
        self.shared = shared
        self.pauses: list[str | None] = []
        self.paused = asyncio.Event()
        self.resumed = asyncio.Event()

    async def choose(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        if self.shared.moves >= MOVES_BEFORE_STOP and not self.shared.gate.is_set():
            self.shared.held.set()
            await self.shared.gate.wait()
        self.shared.moves += 1
        action: dict[str, Any] = self.inner.choose(view, legal)
        return action

    def on_pause(self, session: TableSession) -> None:
        self.pauses.append(session.pause_reason)
        self.paused.set()

    def on_resume(self, session: TableSession) -> None:
        self.resumed.set()


async def _setup(srv: ProcServer) -> tuple[str, list[str]]:
    """Four bot identities and a Blot table (to 51) created by the first; (table id, tokens)."""
    async with srv.http() as http:
        tokens = []
        for i in range(4):
            r = await http.post("/api/players", json={"name": f"sdk-{i}", "bot": True})
            assert r.status_code == 201, r.text
            tokens.append(r.json()["token"])
        r = await http.post("/api/tables", json={"game": "bazaar_blot", "seats": 4,
                                                 "config": {"target_score": 51}},
                            headers={"Authorization": f"Bearer {tokens[0]}"})
        assert r.status_code == 201, r.text
        return r.json()["id"], tokens


@contextlib.asynccontextmanager
async def _clients(srv: ProcServer, tokens: list[str]) -> AsyncIterator[list[Client]]:
    async with contextlib.AsyncExitStack() as stack:
        yield [await stack.enter_async_context(
            Client(srv.ws_url, t, backoff_seconds=0.05, max_backoff_seconds=1.0,
                   max_attempts=100)) for t in tokens]


async def _restart_mid_match(tmp_path: Path, sig: signal.Signals) -> None:
    first = ProcServer(tmp_path, ENV, name="first")
    second = ProcServer(tmp_path, ENV, port=first.port, name="second")
    try:
        await first.start()
        table_id, tokens = await _setup(first)
        shared = Shared()
        bots = [GatedBot(shared, seed) for seed in range(4)]
        async with _clients(first, tokens) as clients:
            sessions = [await c.join(table_id, b, seat=i)
                        for i, (c, b) in enumerate(zip(clients, bots, strict=True))]
            async with asyncio.timeout(WAIT):
                await shared.held.wait()
            tokens_before = [s.seat_token for s in sessions]
            assert all(tokens_before)

            first.kill(sig)
            status = await first.wait(30)
            assert status == (0 if sig == signal.SIGTERM else -signal.SIGKILL), first.log()[-3000:]
            async with asyncio.timeout(WAIT):
                for b in bots:
                    await b.paused.wait()
            expected = "shutdown" if sig == signal.SIGTERM else "disconnected"
            assert [b.pauses for b in bots] == [[expected]] * 4
            assert all(s.paused and s.closed is None for s in sessions)
            if sig == signal.SIGKILL:
                # a bot that lost its seat token resumes as the same player: a new token
                sessions[1].seat_token = None

            await second.start()
            shared.gate.set()
            async with asyncio.timeout(WAIT):
                for b in bots:
                    await b.resumed.wait()
                overs = await asyncio.gather(*(s.next_game_over() for s in sessions))
            assert all(s.resumes == 1 and not s.paused for s in sessions)
            assert all(c.reconnects >= 1 for c in clients)
            if sig == signal.SIGTERM:
                assert [s.seat_token for s in sessions] == tokens_before
            else:
                assert sessions[1].seat_token not in (None, tokens_before[1])
                assert [s.seat_token for s in sessions[::2]] == tokens_before[::2]
        assert len({o.game_id for o in overs}) == 1
        over = overs[0]
        assert over.outcome["reason"] == "target_reached", over.outcome
        assert not any(a.get("timeout") for a in over.history["actions"])
        assert len([a for a in over.history["actions"] if a["seat"] is not None]) >= shared.moves
        assert "restored" in second.log(), second.log()[-3000:]
    finally:
        await first.stop()
        await second.stop()


async def test_sigterm_mid_match_sdk_bots_pause_resume_and_finish(tmp_path: Path) -> None:
    await _restart_mid_match(tmp_path, signal.SIGTERM)


async def test_sigkill_mid_match_sdk_bots_resume_and_finish(tmp_path: Path) -> None:
    await _restart_mid_match(tmp_path, signal.SIGKILL)
