"""Play again over real WebSockets (``docs/protocol.md``, "Play again"): a Bazaar Blot match to
one point (one deal) between two people and two rule bots, then ``rematch``."""

from __future__ import annotations

import asyncio

import pytest
from livesrv import client, live_server, play_randomly

from cardhall.engine import game_names

pytestmark = pytest.mark.skipif("bazaar_blot" not in game_names(), reason="Blot not in build")


async def test_rematch_seats_the_proposer_and_offers_the_other_player() -> None:
    async with live_server() as live:
        (ana_id, ana), (bob_id, bob), (_, carl) = [await live.player(n)
                                                   for n in ("ana", "bob", "carl")]
        async with live.http as http:
            r = await http.post("/api/tables", json={
                "game": "bazaar_blot", "seats": 4, "config": {"target_score": 1},
                "bots": [{"seat": 2, "kind": "rule"}, {"seat": 3, "kind": "random"}]},
                headers={"Authorization": f"Bearer {ana}"})
            assert r.status_code == 201, r.text
            old = r.json()["id"]
            seats = r.json()["seats"]
            assert [(s["name"], s["bot_level"]) for s in seats[2:]] == [("Cleo", "rule"),
                                                                         ("Dara", "random")]
            async with client(live, ana) as a, client(live, bob) as b, client(live, carl) as c:
                await a.send({"type": "join", "table_id": old, "seat": 0})
                await b.send({"type": "join", "table_id": old, "seat": 1})
                await asyncio.gather(play_randomly(a, old, 1), play_randomly(b, old, 2))
                assert a.states[old]["status"] == "finished"  # sent before game_over

                await c.send({"type": "rematch", "table_id": old, "rid": "x"})
                err = await c.expect("error")
                assert (err["code"], err["request"]["rid"]) == ("rematch.not_a_player", "x")

                await a.send({"type": "rematch", "table_id": old, "rid": "again"})
                ready = await a.expect("rematch_ready")
                new = ready["rematch_table_id"]
                assert ready["table_id"] == old and ready["created"] and new != old
                joined = await a.expect("joined")
                assert (joined["table_id"], joined["role"], joined["rid"]) == (new, "seat",
                                                                                "again")
                offer = await b.expect("rematch_offer")
                assert (offer["rematch_table_id"], offer["by_name"], offer["by_player_id"]) == (
                    new, "ana", ana_id)
                await b.send({"type": "join", "table_id": new})
                assert (await b.expect("joined"))["table_id"] == new
                state = await b.until(lambda m: m["type"] == "state" and m["table_id"] == new
                                      and m["status"] == "playing")
                assert {s["player_id"] for s in state["seats"][:2]} == {ana_id, bob_id}

                await b.send({"type": "rematch", "table_id": old})  # the same new table
                assert (await b.expect("rematch_ready"))["rematch_table_id"] == new
            r = await http.get(f"/api/tables/{new}")
            assert r.json()["config"] == {"target_score": 1}
            assert [s["bot_level"] for s in r.json()["seats"]] == [None, None, "rule", "random"]
