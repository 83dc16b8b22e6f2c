"""The moderation part of the :class:`Store` contract (``admin_audit``, owned bots), on
MemoryStore, SqlStore/SQLite and SqlStore/PostgreSQL (the fixtures of ``conftest.py``)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from cardhall.storage import Store
from cardhall.storage.interface import AuditEntry

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


async def test_audit_rows_are_stored_and_listed_newest_first(store: Store) -> None:
    first = await store.add_audit(AuditEntry("player.ban", "p1", {"seats_kicked": ["t1:0"]},
                                             T0, request_id="r1", client="10.0.0.1"))
    second = await store.add_audit(AuditEntry("table.kick", "t1", {"seat": 0, "kicked": True},
                                              T0 + timedelta(seconds=1)))
    third = await store.add_audit(AuditEntry("player.ban", "p2", {"ü": "♠"}, T0))  # same time
    assert first.id is not None and second.id is not None and third.id is not None
    assert len({first.id, second.id, third.id}) == 3
    rows = await store.list_audit()
    assert [r.id for r in rows] == [second.id, third.id, first.id]
    assert rows[2] == first and rows[2].at == T0 and rows[2].who == "admin"
    assert rows[2].details == {"seats_kicked": ["t1:0"]} and rows[1].details == {"ü": "♠"}


async def test_audit_rows_filter_and_paginate(store: Store) -> None:
    for i in range(5):
        await store.add_audit(AuditEntry("player.ban" if i % 2 else "table.close", f"x{i % 2}",
                                         {"i": i}, T0 + timedelta(minutes=i)))
    bans = await store.list_audit(action="player.ban")
    assert [r.details["i"] for r in bans] == [3, 1]
    assert [r.details["i"] for r in await store.list_audit(target="x0")] == [4, 2, 0]
    assert await store.list_audit(action="player.ban", target="x0") == []
    page = await store.list_audit(limit=2, offset=1)
    assert [r.details["i"] for r in page] == [3, 2]


async def test_bots_of_lists_the_owners_bots_only(store: Store) -> None:
    ann, _ = await store.create_player("ann")
    bob, _ = await store.create_player("bob")
    b1, _ = await store.create_player("annbot1", is_bot=True, owner_id=ann.id)
    await store.create_player("bobbot", is_bot=True, owner_id=bob.id)
    b2, _ = await store.create_player("annbot2", is_bot=True, owner_id=ann.id)
    assert {b.id for b in await store.bots_of(ann.id)} == {b1.id, b2.id}
    assert await store.bots_of("nobody") == []
