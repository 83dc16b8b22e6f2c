"""``GET /api/players/me/tables`` (issue 28, item 1): every live table where the caller holds
a seat, private ones included (with the invite code, to a seat holder only), still listed
while a stand-in plays a seat its holder left; a kicked seat is not listed."""

from __future__ import annotations

from typing import Any

from livesrv import client, live_server


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def _mine(http: Any, token: str) -> list[dict[str, Any]]:
    r = await http.get("/api/players/me/tables", headers=_auth(token))
    assert r.status_code == 200, r.text
    assert r.json()["unreachable"] == []
    return list(r.json()["items"])


async def test_my_tables_lists_private_tables_to_their_seat_holders_only() -> None:
    async with live_server() as live:
        (ana_id, ana), (bob_id, bob), (_cy_id, cy) = [await live.player(n)
                                                     for n in ("ana", "bob", "cy")]
        async with live.http as http:
            assert (await http.get("/api/players/me/tables")).status_code == 401
            r = await http.post("/api/tables", json={"game": "soldiers_bluff", "seats": 2,
                                                     "private": True}, headers=_auth(ana))
            assert r.status_code == 201, r.text
            tid, code = r.json()["id"], r.json()["invite_code"]
            r = await http.post("/api/tables", json={"game": "soldiers_bluff", "seats": 2,
                                                     "bots": [{"seat": 1}]}, headers=_auth(cy))
            public_id = r.json()["id"]
            assert await _mine(http, ana) == []  # created, no seat held yet
            async with client(live, ana) as a, client(live, bob) as b:
                await a.send({"type": "join", "table_id": tid, "seat": 0, "invite_code": code})
                await a.expect("joined")
                await b.send({"type": "join", "table_id": tid, "invite_code": code})
                await b.expect("joined")
                await a.until(lambda m: m["type"] == "state" and m["status"] == "playing")
                [row] = await _mine(http, ana)
                assert row["id"] == tid and row["private"] is True
                assert row["invite_code"] == code and row["my_seats"] == [0]
                assert row["game"] == "soldiers_bluff" and row["status"] == "playing"
                assert [s["name"] for s in row["seats"]] == ["ana", "bob"]
                assert [r["my_seats"] for r in await _mine(http, bob)] == [[1]]
                assert await _mine(http, cy) == []  # not seated there: no code either
                # bob leaves mid-hand: a stand-in plays, the seat is still bob's to take back
                await b.send({"type": "leave", "table_id": tid})
                await b.expect("left")
                [again] = await _mine(http, bob)
                assert again["id"] == tid and again["seats"][1]["stand_in"] is True
                await b.send({"type": "join", "table_id": tid})  # takes the seat back
                await b.until(lambda m: m["type"] == "joined" and m["resumed"])
                # kicked: the seat is no longer bob's way back
                r = await http.post(f"/api/admin/tables/{tid}/kick", json={"seat": 1},
                                    headers=_auth("admin-secret"))
                assert r.status_code == 200 and r.json()["kicked"] is True, r.text
                assert await _mine(http, bob) == []
                assert [r["id"] for r in await _mine(http, ana)] == [tid]
            async with client(live, cy) as c:
                await c.send({"type": "join", "table_id": public_id, "seat": 0})
                await c.expect("joined")
                [pub] = await _mine(http, cy)
                assert pub["private"] is False and pub["invite_code"] is None
            assert ana_id != bob_id
