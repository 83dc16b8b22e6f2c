"""Requests that reach a table as it closes (abandoned, reaped, closed by an admin) are
answered, never dropped: a client resuming its seat just as the abandon timer fires must
learn that the table is gone instead of waiting forever for ``joined``."""

from __future__ import annotations

from tablekit import Harness

from cardhall.protocol import messages as p
from cardhall.tables.connections import RecordingConnection
from cardhall.tables.messages import ClientRequest, Disconnected

ABANDON_AFTER = 60.0


def answered(conn: RecordingConnection) -> list[str]:
    return [getattr(m, "code", None) or m.type for m in conn.messages]


async def test_a_resume_queued_behind_the_abandon_timer_is_answered(h: Harness) -> None:
    table = await h.manager.create("toy_duel", num_seats=2, config={"cards_each": 4},
                                   turn_timeout_seconds=600.0)
    ana, bob = await h.player("ana"), await h.player("bob")
    await h.join(table, ana, seat=0)
    await h.join(table, bob, seat=1)
    for c in (ana, bob):
        c.closed = True
        table.post(Disconnected(c))
    await h.settle(table)
    h.clock.advance(ABANDON_AFTER)  # the timer posts AbandonExpired ...
    again = RecordingConnection(ana.player)  # ... and ana's new socket resumes right after
    table.post(ClientRequest(again, p.Join(type="join", table_id=table.id, rid="r1")))
    await h.settle(table)
    assert table.stopped
    assert again.messages, "the resume got no answer at all"
    last = again.messages[-1]
    assert last.type in ("error", "table_closed")
    if last.type == "error":
        assert last.code == "table.not_found" and last.request.rid == "r1"


async def test_a_request_posted_to_a_stopped_table_is_answered(h: Harness) -> None:
    """Between the table's task ending and the registry dropping it, the socket handler
    still finds the table and posts to it."""
    table = await h.manager.create("toy_duel", num_seats=2)
    late = await h.player("late")
    await h.manager.close(table.id)
    assert table.stopped
    table.post(ClientRequest(late, p.Join(type="join", table_id=table.id, rid="r2")))
    table.post(ClientRequest(late, p.Resync(type="resync", table_id=table.id)))
    assert answered(late) == ["table.not_found", "table.not_found"]
