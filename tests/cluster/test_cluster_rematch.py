"""Play again in a hall of two nodes (``docs/protocol.md``, "Play again"): the rematch of a
table is made on the node that owns it, a socket of the other node is seated there and its
disconnect reaches the new table."""

from __future__ import annotations

from hallkit import Inbox, hall, until


async def test_a_rematch_is_made_by_the_owner_for_sockets_of_both_nodes(
        redis_url: str, redis_prefix: str) -> None:
    async with hall(redis_url, redis_prefix, 2, stand_in_after_timeouts=0) as (a, b):
        # a Blot match to one point on a; the two people only let their clocks (0.2 s) play
        old = await a.manager.create("bazaar_blot", num_seats=4, config={"target_score": 1},
                                     bots={2: "rule", 3: "rule"}, turn_timeout_seconds=0.2)
        ana, bob = await b.socket("ana"), await a.socket("bob")  # ana's socket is on b
        ana_box, bob_box = Inbox(ana), Inbox(bob)
        await b.send(ana, {"type": "join", "table_id": old.id, "seat": 0})
        await a.send(bob, {"type": "join", "table_id": old.id, "seat": 1})
        await until(lambda: old.status == "finished", timeout=60.0, what="the match's end")

        await b.send(ana, {"type": "rematch", "table_id": old.id, "rid": "again"})
        ready = (await until(lambda: ana_box.got("rematch_ready"), what="rematch_ready"))[0]
        new_id = ready["rematch_table_id"]
        assert ready["created"] and b.manager.get(new_id) is None
        new = a.manager.get(new_id)  # made where the old table runs
        assert new is not None and new.spec.bots == {2: "rule", 3: "rule"}
        await until(lambda: ana_box.got("joined", table_id=new_id), what="ana seated")
        assert new.seats[0].player_id == ana.player.id
        offer = (await until(lambda: bob_box.got("rematch_offer"), what="bob's offer"))[0]
        assert offer["rematch_table_id"] == new_id and offer["by_name"] == "ana"
        await a.send(bob, {"type": "join", "table_id": new_id})
        await until(lambda: new.status == "playing", what="the new match's start")

        # ana's socket closes on b: the new table hears it, though she never sent it a request
        await b.gone(ana)
        await until(lambda: new.seats[0].conn is None, what="the new table told of the disconnect")
