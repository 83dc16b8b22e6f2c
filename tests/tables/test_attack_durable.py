"""Attacks on durable tables (``docs/operations.md``, "Durable tables"): corrupted logs at
start-up, requests reaching a closed durable table, restores in awkward moments.

Built on the in-process harness of ``test_durable_restore.py`` (a :class:`MemoryStore` whose
log outlives the manager, a fake clock, a "crash" that cancels the table tasks).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from test_durable_restore import (
    Node,
    crashed_poker_table,
    joined,
    node,
    play,
    players,
    restore_expecting_abort,
    seat_all,
    step,
)

from cardhall.engine.actions import minimal
from cardhall.protocol import messages as p
from cardhall.storage.interface import LogRow
from cardhall.storage.memory import MemoryStore
from cardhall.storage.sql import SqlStore
from cardhall.tables.actor import Table
from cardhall.tables.clock import FakeClock
from cardhall.tables.connections import RecordingConnection
from cardhall.tables.messages import ClientRequest


def _rewrite(store: MemoryStore, table_id: str, kind: str, **data: Any) -> None:
    """Replace the table's first entry of ``kind`` by one with ``data`` (a hand-edited row)."""
    entries = store.log[table_id]
    seq = next(s for s, r in sorted(entries.items()) if r.kind == kind)
    row = entries[seq]
    entries[seq] = LogRow(row.table_id, row.seq, data.pop("new_kind", row.kind),
                          {**row.data, **data})


@pytest.mark.parametrize("corruption", [
    {"new_kind": "bogus"},  # a kind this version does not know
    {"v": "not a number"},  # a version that is no integer
])
async def test_a_corrupted_log_row_is_aborted_not_a_start_up_crash(
        corruption: dict[str, Any]) -> None:
    store, clock = MemoryStore(), FakeClock()
    table_id, game_id = await crashed_poker_table(store, clock)
    _rewrite(store, table_id, "act", **corruption)
    await restore_expecting_abort(store, clock, table_id, game_id)


async def test_a_corrupted_game_entry_does_not_stop_the_server_and_keeps_the_log() -> None:
    """The ``game`` entry's seed is no hex: neither the replay nor the aborted record can be
    built. Start-up goes on (the other tables are restored) and the rows stay for the operator
    (nothing is dropped silently)."""
    store, clock = MemoryStore(), FakeClock()
    table_id, _ = await crashed_poker_table(store, clock)
    other_id, _ = await crashed_poker_table(store, clock)
    _rewrite(store, table_id, "game", seed="zz")
    async with node(store, clock) as n2:
        assert n2.manager.tables_aborted == 1 and n2.manager.get(table_id) is None
        assert n2.manager.tables_restored == 1 and n2.manager.get(other_id) is not None
        await n2.log.flush(5.0)
    assert store.log.get(table_id), "the unrecordable table's log was dropped"


async def test_a_log_row_whose_data_is_no_object_does_not_stop_a_sql_start_up(
        tmp_path: Path) -> None:
    from sqlalchemy import text

    store = SqlStore(f"sqlite+aiosqlite:///{tmp_path / 'cardhall.db'}")
    await store.start()
    try:
        async with store.engine.begin() as conn:
            await conn.execute(text("INSERT INTO table_log (table_id, seq, kind, data) "
                                    "VALUES ('t-bad', 1, 'snapshot', '[1, 2]')"))
        from cardhall.config import Settings
        from cardhall.storage.log import TableLog
        from cardhall.tables.manager import TableManager

        log = TableLog(store)
        log.start()
        manager = TableManager(Settings(database_url="memory://"), store, FakeClock(), log=log)
        await manager.start()
        assert manager.tables_aborted == 1 and manager.get("t-bad") is None
        await manager.stop()
        await log.close(5.0)
    finally:
        await store.close()


async def test_a_join_reaching_a_closed_durable_table_is_answered() -> None:
    """A request posted to a table that has just stopped is answered ``table.not_found``
    (``Table.post``), also when the table logs: the answer is not held for a step that never
    ends."""
    store, clock = MemoryStore(), FakeClock()
    async with node(store, clock) as n:
        conns = await players(store, 2)
        table = await n.manager.create("palace_poker", num_seats=3)
        await seat_all(n, table, conns[:1])
        assert await n.manager.close(table.id, "closed")
        late = conns[1]
        table.post(ClientRequest(late, p.Join(type="join", table_id=table.id)))
        await n.log.flush(5.0)
        errors = [m for m in late.messages if isinstance(m, p.Error)]
        assert [e.code for e in errors] == ["table.not_found"]


async def test_a_resume_by_identity_after_a_restore_gives_the_new_token_to_its_player_only(
        ) -> None:
    store, clock = MemoryStore(), FakeClock()
    async with node(store, clock) as n:
        conns = await players(store, 3)
        table = await n.manager.create("palace_poker", num_seats=3)
        await seat_all(n, table, conns)
        old = [joined(c).seat_token for c in conns]
        await n.crash()
    async with node(store, clock) as n2:
        restored = n2.manager.get(table.id)
        assert restored is not None
        spectator = RecordingConnection((await store.create_player("eve"))[0])
        restored.post(ClientRequest(spectator, p.Join(type="join", table_id=table.id,
                                                      spectate=True)))
        me = RecordingConnection(conns[0].player)
        restored.post(ClientRequest(me, p.Join(type="join", table_id=table.id)))
        await n2.settle(restored)
        token = joined(me).seat_token
        assert joined(me).resumed and token is not None and token != old[0]
        assert token not in repr(spectator.messages)
        # the old token no longer resumes; the new one does (after another restart too)
        thief = RecordingConnection((await store.create_player("mallory"))[0])
        restored.post(ClientRequest(thief, p.Join(type="join", table_id=table.id, seat=0,
                                                  seat_token=old[0])))
        await n2.settle(restored)
        assert [m.code for m in thief.messages if isinstance(m, p.Error)] == \
            ["table.bad_seat_token"]
        await n2.crash()
    async with node(store, clock) as n3:
        again = n3.manager.get(table.id)
        assert again is not None
        back = RecordingConnection(conns[0].player)
        again.post(ClientRequest(back, p.Join(type="join", table_id=table.id, seat_token=token)))
        await n3.settle(again)
        assert joined(back).resumed and joined(back).seat == 0


class FlakyStore(MemoryStore):
    """A store whose table log commits fail while :attr:`down` (an outage)."""

    down = False

    async def write_log(self, batch: Any) -> None:
        if self.down:
            raise ConnectionRefusedError("the database is down")
        await super().write_log(batch)


@pytest.mark.parametrize("unlogged", [1, 2, 3])
async def test_a_state_seen_during_an_outage_is_stale_after_a_crash_and_restore(
        unlogged: int) -> None:
    """Degraded mode sends steps that are not durable; the process dies before they are
    committed. A client still holding such a state must be refused as stale by the restored
    table (its game state is an older one), never have its action applied to it."""
    store, clock = FlakyStore(), FakeClock()
    n = Node(store, clock)
    await n.start()
    conns = await players(store, 3)
    table = await n.manager.create("palace_poker", num_seats=3)
    await seat_all(n, table, conns)
    store.down = True
    for _ in range(unlogged):  # moves during the outage: sent at once, never committed
        await step_unlogged(table, conns)
    assert not n.log.healthy
    seen = {c.player.id: c.states[table.id] for c in conns}
    for task in list(n.manager.tasks.values()):
        task.cancel()
    await asyncio.gather(*n.manager.tasks.values(), return_exceptions=True)
    await n.log.close(0.1)
    await n.manager.writer.close(0.1)
    store.down = False
    async with node(store, clock) as n2:
        restored = n2.manager.get(table.id)
        assert restored is not None
        fresh = [RecordingConnection(c.player) for c in conns]
        await seat_all(n2, restored, fresh, [joined(c).seat_token or "" for c in conns])
        for conn in fresh:  # act on the state seen before the crash, not the resumed one
            state = seen[conn.player.id]
            if state["game_seat"] in state["to_act"] and state["legal_actions"]:
                restored.post(ClientRequest(conn, p.Act(
                    type="act", table_id=table.id, version=state["version"], action_id="late",
                    action=minimal(state["legal_actions"][0]))))
                await n2.settle(restored)
                answers = [m for m in conn.messages[-3:] if isinstance(m, p.Error | p.Accepted)]
                assert [getattr(a, "code", "accepted") for a in answers] == \
                    ["table.stale_version"]
                return
    pytest.fail("no client could act on its pre-crash state")


async def step_unlogged(table: Table, conns: list[RecordingConnection]) -> None:
    """The first seat to act plays its first legal move; waits for the table to handle it
    (the log is down: its frames go out at once)."""
    for conn in conns:
        state = conn.states.get(table.id)
        if state and state["status"] == "playing" and state["game_seat"] in state["to_act"]:
            table.post(ClientRequest(conn, p.Act(type="act", table_id=table.id,
                                                 version=state["version"],
                                                 action_id=f"u{len(conn.frames)}",
                                                 action=minimal(state["legal_actions"][0]))))
            async with asyncio.timeout(5):
                while state["version"] == conn.states[table.id]["version"]:
                    await asyncio.sleep(0)  # yield until the table's frame arrives (bounded)
            return
    pytest.fail("nobody may act")


async def test_a_poker_table_killed_between_hands_deals_the_next_hand_with_its_stacks() -> None:
    store, clock = MemoryStore(), FakeClock()
    async with node(store, clock) as n:
        conns = await players(store, 3)
        table = await n.manager.create("palace_poker", num_seats=3)
        await seat_all(n, table, conns)
        await play(n, table, conns)
        assert table.status == "between_hands"
        stacks = [s.stack for s in table.seats]
        tokens = [joined(c).seat_token or "" for c in conns]
        await n.crash()
    async with node(store, clock) as n2:
        restored = n2.manager.get(table.id)
        assert restored is not None and restored.status == "between_hands"
        assert [s.stack for s in restored.seats] == stacks
        clock.advance(1.0)  # the pause: nobody is connected, so it waits
        await n2.settle(restored)
        assert restored.status == "waiting" and restored.hand == 1
        fresh = [RecordingConnection(c.player) for c in conns]
        await seat_all(n2, restored, fresh, tokens)
        assert restored.status == "playing" and restored.hand == 2
        assert len(store.games) == 1 and store.outbox == {}


async def test_built_in_bots_play_on_after_a_restore_and_a_leaving_seat_stays_leaving() -> None:
    store, clock = MemoryStore(), FakeClock()
    async with node(store, clock) as n:
        conns = await players(store, 2)
        table = await n.manager.create("palace_poker", num_seats=3, bots={2: "rule"})
        await seat_all(n, table, conns)
        assert table.status == "playing"
        table.post(ClientRequest(conns[1], p.Leave(type="leave", table_id=table.id)))
        await n.settle(table)
        assert table.seats[1].leaving
        token = joined(conns[0]).seat_token or ""
        await n.crash()
    async with node(store, clock) as n2:
        restored = n2.manager.get(table.id)
        assert restored is not None and restored.seats[1].leaving
        assert restored.seats[2].conn is not None  # the bot took its seat again
        me = RecordingConnection(conns[0].player)
        restored.post(ClientRequest(me, p.Join(type="join", table_id=table.id,
                                               seat_token=token)))
        await n2.settle(restored)
        for _ in range(500):  # the human plays, the bot and the leaving seat's timer answer
            if any(isinstance(m, p.GameOver) for m in me.messages):
                break
            if not await step(n2, restored, [me]):
                clock.advance(10.0)
                await n2.settle(restored)
        assert any(isinstance(m, p.GameOver) for m in me.messages)
        assert not restored.seats[1].taken  # freed when its game ended


async def test_a_finished_blot_table_is_restored_finished_and_its_game_saved_once() -> None:
    store, clock = MemoryStore(), FakeClock()
    async with node(store, clock) as n:
        conns = await players(store, 4)
        table = await n.manager.create("bazaar_blot", num_seats=4,
                                       config={"target_score": 51})
        await seat_all(n, table, conns)
        await play(n, table, conns)
        assert table.status == "finished"
        await n.crash()
    async with node(store, clock) as n2:
        restored = n2.manager.get(table.id)
        assert restored is not None and restored.status == "finished"
        await n2.manager.writer.flush()
        assert len(store.games) == 1 and store.outbox == {}
        clock.advance(301.0)  # finished tables are reaped when idle: the log goes
        await n2.settle(restored)
        await n2.log.flush(5.0)
    assert table.id not in store.log


async def test_a_restore_killed_at_once_restores_again() -> None:
    store, clock = MemoryStore(), FakeClock()
    async with node(store, clock) as n:
        conns = await players(store, 3)
        table = await n.manager.create("soldiers_bluff", num_seats=3)
        await seat_all(n, table, conns)
        await play(n, table, conns, steps=3)
        tokens = [joined(c).seat_token or "" for c in conns]
        await n.crash()
    versions = []
    for _ in range(2):
        async with node(store, clock) as again:
            restored = again.manager.get(table.id)
            assert restored is not None and restored.status == "playing"
            versions.append(restored.version)
            await again.crash()
    async with node(store, clock) as last:
        restored = last.manager.get(table.id)
        assert restored is not None
        fresh = [RecordingConnection(c.player) for c in conns]
        await seat_all(last, restored, fresh, tokens)
        await play(last, restored, fresh)
        assert any(isinstance(m, p.GameOver) for m in fresh[0].messages)
    assert versions[0] == versions[1]
