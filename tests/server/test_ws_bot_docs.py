"""Over a real socket, the server answers as ``docs/protocol.md`` says (issue 25, the bot
author's documents): a ``join`` for a seat outside 0..63 is ``table.bad_seat`` like one the
table does not have, and a player who gave up a seat with ``leave`` mid-game may watch."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from livesrv import Client, client, live_server

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tables"))
from toygame import register


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> None:
    register(monkeypatch)


async def _table(live: object, token: str) -> str:
    async with live.http as http:  # type: ignore[attr-defined]
        r = await http.post("/api/tables", json={"game": "toy_duel", "seats": 2,
                                                 "turn_timeout_seconds": 60},
                            headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


async def _error(c: Client, frame: dict[str, object]) -> dict[str, object]:
    await c.send(frame)
    return await c.expect("error")


async def test_a_seat_outside_the_table_is_bad_seat_at_any_number(toy: None) -> None:
    async with live_server() as live:
        _, ta = await live.player("ana")
        tid = await _table(live, ta)
        async with client(live, ta) as a:
            for seat in (2, 63, 64, 99, -1):
                err = await _error(a, {"type": "join", "table_id": tid, "seat": seat})
                assert err["code"] == "table.bad_seat", (seat, err)
                assert err["table_id"] == tid
            err = await _error(a, {"type": "join", "table_id": tid, "seat": "1"})
            assert err["code"] == "protocol.invalid_field"
            assert [s.taken for s in live.tables.get(tid).seats] == [False, False]


async def test_a_player_who_left_mid_game_may_watch_then_take_the_seat_back(toy: None) -> None:
    async with live_server() as live:
        (_, ta), (_, tb) = [await live.player(n) for n in ("ana", "bob")]
        tid = await _table(live, ta)
        async with client(live, ta) as a, client(live, tb) as b:
            await a.send({"type": "join", "table_id": tid, "seat": 0})
            await b.send({"type": "join", "table_id": tid, "seat": 1})
            await a.until(lambda m: m["type"] == "state" and m["status"] == "playing")
            await a.send({"type": "leave", "table_id": tid})
            await a.expect("left")
            table = live.tables.get(tid)
            assert table.status == "playing" and table.seats[0].stand_in == "left"
            await a.send({"type": "join", "table_id": tid, "spectate": True})
            joined = await a.until(lambda m: m["type"] in ("joined", "error"))
            assert joined["type"] == "joined", joined
            assert joined["role"] == "spectator" and joined["seat"] is None
            st = await a.until(lambda m: m["type"] == "state" and m.get("full"))
            # the holder watches with its own seat's cards (docs/protocol.md), no moves
            assert st["seat"] is None and st["game_seat"] is not None
            assert st["view"]["hand"] and not st.get("legal_actions")
            assert table.seats[0].stand_in == "left"  # watching does not take the seat back
            await a.send({"type": "join", "table_id": tid})
            back = await a.until(lambda m: m["type"] in ("joined", "error"))
            assert back["type"] == "joined" and back["seat"] == 0 and back["resumed"], back
            assert table.seats[0].stand_in is None
