"""Fencing (``docs/scaling.md``): a node whose table was taken over can never append to the
table's log again, and the new owner goes on from what was committed.

Two managers ("nodes") share one store. Node A runs a table under lease epoch 1; node B claims
the table (epoch 2) as a failover would, while A still runs it (a long pause, a partition). A's
next step is refused whole: nothing of it reaches the log, the outbox or any client, and A
stops the table. B restores it from the log and the game goes on to the end.
"""

from __future__ import annotations

from test_durable_restore import GAMES, Node, first_history, joined, play, players, seat_all

from cardhall.engine.actions import minimal
from cardhall.protocol import messages as p
from cardhall.storage.memory import MemoryStore
from cardhall.tables.clock import FakeClock
from cardhall.tables.connections import RecordingConnection
from cardhall.tables.messages import ClientRequest


class Leases:
    """The :class:`~cardhall.tables.ownership.Ownership` of one node, over the store alone."""

    def __init__(self, store: MemoryStore, node: str) -> None:
        self.store, self.node = store, node
        self.released_tables: list[tuple[str, bool]] = []

    async def claim(self, table_id: str) -> int:
        return await self.store.claim_table(table_id, self.node)

    def released(self, table_id: str, *, closed: bool) -> None:
        self.released_tables.append((table_id, closed))


async def test_a_node_whose_lease_was_taken_cannot_append_to_the_log() -> None:
    seats, opts = GAMES["bazaar_blot"]
    store, clock = MemoryStore(), FakeClock()
    a = Node(store, clock)
    a.manager.ownership = leases_a = Leases(store, "a")
    await a.start()
    conns = await players(store, seats)
    table = await a.manager.create("bazaar_blot", num_seats=seats, **opts)
    assert table.lease_epoch == 1
    await seat_all(a, table, conns)
    await play(a, table, conns, steps=5)
    logged = dict(store.log[table.id])
    seen = [len(c.frames) for c in conns]
    tokens = [joined(c).seat_token for c in conns]

    epoch_b = await store.claim_table(table.id, "b")  # node B takes the table over
    assert epoch_b == 2
    mover = next(i for i, c in enumerate(conns)
                 if c.states[table.id]["game_seat"] in c.states[table.id]["to_act"])
    state = conns[mover].states[table.id]
    table.post(ClientRequest(conns[mover], p.Act(
        type="act", table_id=table.id, version=state["version"], action_id="after-takeover",
        action=minimal(state["legal_actions"][0]), seat=mover)))
    task = a.manager.tasks[table.id]
    await table.inbox.join()
    await a.log.flush(5.0)
    await task  # the table stops (bounded by pytest's timeout)

    assert store.log[table.id] == logged, "the fenced node appended to the log"
    assert store.outbox == {}
    assert [len(c.frames) for c in conns] == seen, "a fenced step's frames went out"
    assert table.fenced_out and table.stopped
    assert a.log.fenced == 1
    assert leases_a.released_tables == [(table.id, False)]  # stopped, its log kept for B

    b = Node(store, clock)
    await b.start()
    restored = await b.manager.restore_table(table.id, epoch_b)
    assert restored is not None and restored.lease_epoch == 2
    fresh = [RecordingConnection(c.player) for c in conns]
    await seat_all(b, restored, fresh, [t for t in tokens if t is not None])
    await play(b, restored, fresh)
    assert first_history(fresh)["outcome"] is not None
    await b.stop()
    await a.stop()
