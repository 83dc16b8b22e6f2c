"""Durable tables in process: a table's log rebuilds it after a crash (``docs/operations.md``).

Every test plays the real games with deterministic clients (each acts with the first legal
action its own ``state`` offers) on a fixed seed, over a :class:`MemoryStore` whose table log
outlives the manager. A "crash" cancels every table task without closing anything, so the store
keeps exactly what was committed; a new manager over the same store restores the tables, the
clients resume with their seat tokens, and the game ends with the same history as a run without
the crash.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from cardhall.config import Settings
from cardhall.engine import verify_history
from cardhall.engine.actions import minimal
from cardhall.protocol import messages as p
from cardhall.storage.interface import LogRow
from cardhall.storage.log import TableLog
from cardhall.storage.memory import MemoryStore
from cardhall.tables.actor import Table
from cardhall.tables.clock import FakeClock
from cardhall.tables.connections import RecordingConnection
from cardhall.tables.manager import TableManager
from cardhall.tables.messages import ClientRequest

GAMES = {  # game -> (seats, table options)
    "bazaar_blot": (4, {"config": {"target_score": 51}}),
    "palace_poker": (3, {}),
    "soldiers_bluff": (3, {}),
}


class Node:
    """One server life: a manager and its table log over a shared store and clock."""

    def __init__(self, store: MemoryStore, clock: FakeClock) -> None:
        self.store, self.clock = store, clock
        settings = Settings(database_url="memory://", bot_delay_seconds=0.5,
                            next_hand_pause_seconds=1.0, turn_timeout_seconds=10.0,
                            insecure_fixed_seed="restore-test")
        self.log = TableLog(store)
        self.manager = TableManager(settings, store, clock, log=self.log)

    async def start(self) -> None:
        self.log.start()
        await self.manager.start()

    async def settle(self, table: Table) -> None:
        """Until the table has handled its inbox and its frames are out (bounded by pytest's
        timeout; the log commits in the same loop)."""
        for _ in range(50):
            await table.inbox.join()
            assert await self.log.flush(5.0)
            if table.inbox.empty():
                return

    async def crash(self) -> None:
        """Stop every table as a killed process would: no close, no log entry."""
        await self.log.flush(5.0)
        for task in list(self.manager.tasks.values()):
            task.cancel()
        for task in list(self.manager.tasks.values()):
            with pytest.raises(asyncio.CancelledError):
                await task
        await self.log.close(1.0)
        await self.manager.writer.close(1.0)

    async def stop(self) -> None:
        await self.manager.stop()
        await self.log.close(5.0)


@asynccontextmanager
async def node(store: MemoryStore, clock: FakeClock) -> AsyncIterator[Node]:
    n = Node(store, clock)
    await n.start()
    try:
        yield n
    finally:
        if n.manager.tasks:
            await n.stop()


async def players(store: MemoryStore, n: int) -> list[RecordingConnection]:
    return [RecordingConnection((await store.create_player(f"p{i}"))[0]) for i in range(n)]


def joined(conn: RecordingConnection) -> p.Joined:
    return [m for m in conn.messages if isinstance(m, p.Joined)][-1]


async def step(n: Node, table: Table, conns: list[RecordingConnection]) -> bool:
    """Let the first seat to act make its first legal move; False once the game is over."""
    for i, conn in enumerate(conns):
        state = conn.states.get(table.id)
        if state is None or state["status"] != "playing" or not state["legal_actions"]:
            continue
        if state["seat"] not in state["to_act"]:  # to_act: table seats
            continue
        table.post(ClientRequest(conn, p.Act(type="act", table_id=table.id,
                                             version=state["version"], action_id=f"a{len(conn.frames)}",
                                             action=minimal(state["legal_actions"][0]), seat=i)))
        await n.settle(table)
        refused = [m for m in conn.messages[-3:] if isinstance(m, p.Error)]
        assert not refused, refused
        return True
    return False


async def play(n: Node, table: Table, conns: list[RecordingConnection], *,
               steps: int | None = None) -> None:
    for _ in range(5_000 if steps is None else steps):
        if not await step(n, table, conns):
            return
    assert steps is not None, "the game did not end in 5,000 moves"


async def seat_all(n: Node, table: Table, conns: list[RecordingConnection],
                   tokens: list[str] | None = None) -> None:
    """Seat ``conns[i]`` at seat ``i`` with the client seed ``"client seed i"`` (or resume it
    with ``tokens[i]``: the seat keeps its client seed)."""
    for i, conn in enumerate(conns):
        kw: dict[str, Any] = {"seat": i}
        if tokens is not None:
            kw["seat_token"] = tokens[i]
        else:
            kw["client_seed"] = f"client seed {i}"
        table.post(ClientRequest(conn, p.Join(type="join", table_id=table.id, **kw)))
        await n.settle(table)


def actions(history: dict[str, Any]) -> list[tuple[Any, Any, bool]]:
    return [(a["seat"], a["action"], a.get("timeout", False)) for a in history["actions"]]


def first_history(conns: list[RecordingConnection]) -> dict[str, Any]:
    over = [m for m in conns[0].messages if isinstance(m, p.GameOver)]
    assert over, "the game did not end"
    return over[0].history


async def uninterrupted(game: str) -> dict[str, Any]:
    seats, opts = GAMES[game]
    store, clock = MemoryStore(), FakeClock()
    async with node(store, clock) as n:
        conns = await players(store, seats)
        table = await n.manager.create(game, num_seats=seats, **opts)
        await seat_all(n, table, conns)
        await play(n, table, conns)
        return first_history(conns)


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("crash_at", ["first move", "half way"])
async def test_a_crash_mid_game_is_a_pause(game: str, crash_at: str) -> None:
    expected = await uninterrupted(game)
    moves = sum(1 for a in expected["actions"] if a["seat"] is not None)
    crash_after = 1 if crash_at == "first move" else moves // 2
    seats, opts = GAMES[game]
    store, clock = MemoryStore(), FakeClock()
    async with node(store, clock) as n:
        conns = await players(store, seats)
        table = await n.manager.create(game, num_seats=seats, **opts)
        await seat_all(n, table, conns)
        await play(n, table, conns, steps=crash_after)
        tokens = [joined(c).seat_token for c in conns]
        version_seen = max(c.states[table.id]["version"] for c in conns)
        await n.crash()
    assert store.log[table.id], "nothing was logged"
    assert all(t is not None for t in tokens)
    async with node(store, clock) as n2:
        assert n2.manager.tables_restored == 1
        restored = n2.manager.get(table.id)
        assert restored is not None and restored.status == "playing"
        assert restored.version > version_seen
        assert restored.deadline_ms() == 10_000  # the interrupted decision's full time
        fresh = [RecordingConnection(c.player) for c in conns]
        await seat_all(n2, restored, fresh, [t for t in tokens if t is not None])
        assert all(joined(c).resumed for c in fresh)
        await play(n2, restored, fresh)
        history = first_history(fresh)
    assert actions(history) == actions(expected)
    assert history["outcome"] == expected["outcome"]
    assert history["seed"] == expected["seed"]
    # the restored game dealt from the same server seed and client seeds, and verifies
    assert history["client_seeds"] == expected["client_seeds"] == [
        f"client seed {i}" for i in range(seats)]
    assert verify_history(history).verified


async def test_a_wrong_seat_token_does_not_resume_a_restored_seat() -> None:
    store, clock = MemoryStore(), FakeClock()
    async with node(store, clock) as n:
        conns = await players(store, 3)
        table = await n.manager.create("palace_poker", num_seats=3)
        await seat_all(n, table, conns)
        await n.crash()
    async with node(store, clock) as n2:
        restored = n2.manager.get(table.id)
        assert restored is not None
        stranger = RecordingConnection((await store.create_player("mallory"))[0])
        restored.post(ClientRequest(stranger, p.Join(type="join", table_id=table.id, seat=0,
                                                     seat_token="not-the-token")))
        await n2.settle(restored)
        errors = [m for m in stranger.messages if isinstance(m, p.Error)]
        assert [e.code for e in errors] == ["table.bad_seat_token"]


async def test_the_log_keeps_no_clear_seat_token_and_no_seed_leaves_it() -> None:
    store, clock = MemoryStore(), FakeClock()
    async with node(store, clock) as n:
        conns = await players(store, 3)
        table = await n.manager.create("soldiers_bluff", num_seats=3)
        await seat_all(n, table, conns)
        tokens = [joined(c).seat_token for c in conns]
        seed = table.seed.hex() if table.seed else None
        rows = [r for r in store.log[table.id].values()]
        text = repr([r.data for r in rows])
        assert all(t is not None and t not in text for t in tokens)
        assert seed is not None and seed in text  # server side only
        frames = repr([c.frames for c in conns])
        assert seed not in frames


async def crashed_poker_table(store: MemoryStore, clock: FakeClock) -> tuple[str, str | None]:
    """A 3-seat poker table two moves into its first hand, left in ``store`` by a crash:
    ``(table id, game id)``."""
    async with node(store, clock) as n:
        conns = await players(store, 3)
        table = await n.manager.create("palace_poker", num_seats=3)
        await seat_all(n, table, conns)
        await play(n, table, conns, steps=2)
        game_id = table.game_id
        await n.crash()
    return table.id, game_id


async def restore_expecting_abort(store: MemoryStore, clock: FakeClock, table_id: str,
                                  game_id: str | None) -> dict[str, Any]:
    """Start a node over ``store``: the table is aborted, not restored; its log is gone and its
    game is saved with outcome ``aborted``. Returns that saved history."""
    async with node(store, clock) as n2:  # start-up must not raise
        assert n2.manager.tables_aborted == 1 and n2.manager.get(table_id) is None
        await n2.log.flush(5.0)
        await n2.manager.writer.flush()
    assert table_id not in store.log
    saved = await store.get_game(game_id or "")
    assert saved is not None and saved["outcome"]["reason"] == "aborted"
    return saved


async def test_a_log_that_cannot_be_replayed_is_saved_as_aborted() -> None:
    store, clock = MemoryStore(), FakeClock()
    table_id, game_id = await crashed_poker_table(store, clock)
    entries = store.log[table_id]
    n_acts = sum(1 for r in entries.values() if r.kind == "act")
    last = max(entries)
    bad = entries[last]
    assert bad.kind == "act"
    entries[last] = LogRow(bad.table_id, bad.seq, "act",
                           {**bad.data, "action": {"type": "no-such-action"}})
    saved = await restore_expecting_abort(store, clock, table_id, game_id)
    assert len(saved["actions"]) == n_acts  # the partial history, as logged


async def test_a_closed_table_leaves_no_log_and_a_new_game_compacts_it() -> None:
    store, clock = MemoryStore(), FakeClock()
    async with node(store, clock) as n:
        conns = await players(store, 3)
        table = await n.manager.create("palace_poker", num_seats=3)
        await seat_all(n, table, conns)
        await play(n, table, conns)  # hand 1 ends
        clock.advance(1.0)  # the pause: hand 2 is dealt
        await n.settle(table)
        assert table.hand == 2
        kinds = [r.kind for r in store.log[table.id].values()]
        assert kinds[0] == "snapshot" and kinds.count("game") == 1  # hand 1's entries are gone
        assert await n.manager.close(table.id, "closed")
        await n.log.flush(5.0)
        assert table.id not in store.log
        assert len(store.games) == 1 and store.outbox == {}


async def test_client_seeds_survive_a_crash_between_poker_hands() -> None:
    """A crash in the pause after hand 1: the restored seats keep their client seeds (the
    snapshot logs them), so hand 2 deals from them and its history verifies."""
    store, clock = MemoryStore(), FakeClock()
    async with node(store, clock) as n:
        conns = await players(store, 3)
        table = await n.manager.create("palace_poker", num_seats=3)
        await seat_all(n, table, conns)
        await play(n, table, conns)  # hand 1 ends
        assert table.status == "between_hands"
        tokens = [joined(c).seat_token for c in conns]
        await n.crash()
    async with node(store, clock) as n2:
        restored = n2.manager.get(table.id)
        assert restored is not None and restored.status == "between_hands"
        assert [s.client_seed for s in restored.seats] == [f"client seed {i}" for i in range(3)]
        fresh = [RecordingConnection(c.player) for c in conns]
        await seat_all(n2, restored, fresh, [t for t in tokens if t is not None])
        clock.advance(1.0)  # the pause: hand 2 is dealt
        await n2.settle(restored)
        assert restored.hand == 2
        await play(n2, restored, fresh)
        history = first_history(fresh)
    assert history["client_seeds"] == [f"client seed {i}" for i in range(3)]
    verdict = verify_history(history)
    assert verdict.verified and verdict.chance_actions >= 1


async def test_who_created_a_table_and_when_survive_a_restart() -> None:
    # the per-player table quota counts a restored table for its creator
    store, clock = MemoryStore(), FakeClock()
    async with node(store, clock) as n:
        conns = await players(store, 3)
        table = await n.manager.create("palace_poker", num_seats=3, created_by="p-ana")
        await seat_all(n, table, conns)
        created_at = table.created_at
        assert n.manager.live_tables_created_by("p-ana") == 1
        await n.crash()
    clock.advance(30.0)
    async with node(store, clock) as n2:
        restored = n2.manager.get(table.id)
        assert restored is not None
        assert (restored.created_by, restored.created_at) == ("p-ana", created_at)
        assert restored.last_active_at >= created_at  # the latest activity the log shows
        assert n2.manager.live_tables_created_by("p-ana") == 1
        summary = restored.summary()
        assert summary["created_by"] == "p-ana" and summary["created_at"].endswith("Z")


async def test_an_idle_table_closes_on_time_however_often_the_server_restarts() -> None:
    """Issue 27, case 11: with restarts 20 s apart, idle tables were restored for ever (each
    restore started their time to live again). Now the time it has been idle survives."""
    store, clock = MemoryStore(), FakeClock()
    async with node(store, clock) as n:
        ttl = n.manager.settings.idle_table_ttl_seconds
        table = await n.manager.create("palace_poker", num_seats=3)  # nobody: idle at once
        await n.settle(table)
        assert table.idle_since is not None
        await n.crash()
    restored_at: list[float] = []
    for restart in range(1, int((ttl + 60.0) // 20.0) + 1):
        clock.advance(20.0)
        async with node(store, clock) as n2:
            restored = n2.manager.get(table.id)
            if restored is None:
                break
            restored_at.append(restart * 20.0)
            clock.advance(0.0)  # what is due now fires (a real loop runs it at once)
            await n2.settle(restored)
            task = n2.manager.tasks.get(table.id)
            if task is None or task.done():  # reaped: its log is deleted with it
                await n2.log.flush(5.0)
                continue
            await n2.crash()
    assert restored_at and ttl <= max(restored_at) < ttl + 20.0, (ttl, restored_at)


async def test_a_table_people_left_during_the_downtime_gets_its_full_time() -> None:
    """A table whose players were connected when the server stopped is not idle in its log:
    its time to live starts at the restore, so the players have it all to reconnect."""
    store, clock = MemoryStore(), FakeClock()
    async with node(store, clock) as n:
        ttl = n.manager.settings.idle_table_ttl_seconds
        conns = await players(store, 2)
        table = await n.manager.create("palace_poker", num_seats=3)
        await seat_all(n, table, conns[:2])
        assert table.status == "waiting" and table.idle_since is None
        await n.crash()
    clock.advance(ttl * 2)
    async with node(store, clock) as n2:
        restored = n2.manager.get(table.id)
        assert restored is not None and restored.idle_since == clock.wall()
        clock.advance(ttl - 1.0)
        await n2.settle(restored)
        assert n2.manager.get(table.id) is not None


async def test_last_activity_survives_a_restart() -> None:
    store, clock = MemoryStore(), FakeClock()
    async with node(store, clock) as n:
        conns = await players(store, 3)
        table = await n.manager.create("palace_poker", num_seats=3)
        await seat_all(n, table, conns)
        await play(n, table, conns, steps=3)
        active = table.last_active_at
        await n.crash()
    clock.advance(120.0)
    async with node(store, clock) as n2:
        restored = n2.manager.get(table.id)
        assert restored is not None
        assert abs((restored.last_active_at - active).total_seconds()) < 1.0
