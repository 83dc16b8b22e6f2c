"""Issue 28 (part E, item 4): a table whose match ended leaves the lobby's live list at once
(``hall/local.py``), not when the reaper closes it later."""

from __future__ import annotations

from tablekit import Harness

from cardhall.hall.local import LocalHall


async def test_a_finished_table_leaves_the_live_list_at_once(h: Harness) -> None:
    table = await h.manager.create("toy_duel", num_seats=2, config={"cards_each": 4})
    conns = [await h.player("ana"), await h.player("bob")]
    for i, c in enumerate(conns):
        await h.join(table, c, seat=i)
    hall = LocalHall(h.manager)
    rows, _ = await hall.lobby(None, 50, None)
    assert [r["id"] for r in rows] == [table.id]
    for _ in range(200):
        if table.status != "playing":
            break
        await h.advance(table, 10.01)  # every turn times out: stand-ins finish the match
    assert table.status == "finished" and h.manager.get(table.id) is table  # not reaped yet
    rows, _ = await hall.lobby(None, 50, None)
    assert rows == []
