"""A misbehaving bot connection (``docs/bots.md`` sections 7 and 10): nonsense gets typed
errors, acting for a table it does not sit at or for another seat is refused, a flood is
rate-limited and then closed with 1008, and no table is disturbed: the bot's own table plays on
(its timer acts for the seat), and another bot's table, played by an SDK client on its own
connection, finishes without a single error or timeout."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from livesrv import Client, LiveServer, client, live_server
from websockets.exceptions import ConnectionClosed

from cardhall.client import BuiltinBot
from cardhall.client import Client as SdkClient

BLOT = {"game": "bazaar_blot", "seats": 4, "config": {"target_score": 30},
        "bots": [{"seat": s, "kind": "rule"} for s in (1, 2, 3)]}


async def new_bot(live: LiveServer, name: str) -> str:
    async with live.http as http:
        r = await http.post("/api/players", json={"name": name, "bot": True})
        return str(r.json()["token"])


async def new_table(live: LiveServer, token: str, **extra: Any) -> str:
    async with live.http as http:
        r = await http.post("/api/tables", json={**BLOT, **extra},
                            headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 201, r.text
        return str(r.json()["id"])


async def usable(c: Client) -> None:
    await c.send({"type": "ping", "nonce": "ok"})
    assert (await c.expect("pong"))["nonce"] == "ok"


async def test_nonsense_and_foreign_acts_get_typed_errors_and_change_nothing() -> None:
    async with live_server(turn_timeout_seconds=30.0) as live:
        rogue, good = await new_bot(live, "rogue"), await new_bot(live, "good")
        t_rogue, t_good = await new_table(live, rogue), await new_table(live, good)
        async with client(live, rogue) as c, client(live, good) as g:
            await c.send({"type": "join", "table_id": t_rogue, "seat": 0})
            await g.send({"type": "join", "table_id": t_good, "seat": 0})
            mine = await c.until(lambda m: m["type"] == "state" and m["status"] == "playing")
            theirs = await g.until(lambda m: m["type"] == "state" and m["status"] == "playing"
                                   and m["to_act"][:1] == [0])  # it waits for g now
            other = live.tables.get(t_good)
            logged = len(other.recorder.history.actions)
            for frame, code in [("nonsense", "protocol.invalid_json"),
                                ('{"type": "fold"}', "protocol.unknown_type"),
                                ('{"type": "act", "table_id": 7}', "protocol.invalid_field")]:
                await c.send(frame)
                assert (await c.expect("error"))["code"] == code
                await usable(c)
            # acting at a table where it holds no seat, with that table's own version
            await c.send({"type": "act", "table_id": t_good, "version": theirs["version"],
                          "action_id": "x", "action": {"type": "pass"}})
            err = await c.expect("error")
            assert (err["code"], err["table_id"]) == ("table.not_seated", t_good)
            assert err["request"] == {"type": "act", "rid": None, "action_id": "x"}
            # acting for another seat of its own table
            await c.send({"type": "act", "table_id": t_rogue, "version": mine["version"],
                          "seat": 1, "action_id": "y", "action": {"type": "pass"}})
            assert (await c.expect("error"))["code"] == "table.not_your_seat"
            # resync of a table it never joined
            await c.send({"type": "resync", "table_id": t_good})
            assert (await c.expect("error"))["code"] == "table.not_joined"
            await usable(c)
            # The good table's built-in bots may still move (an out-of-turn contra), but no move
            # was made for seat 0, whose player is waiting: the rogue's frames changed nothing.
            after = other.recorder.history.actions[logged:]
            assert all(a.seat != 0 for a in after), after


@pytest.mark.timeout(120)
async def test_a_flood_is_rate_limited_then_closed_1008_and_no_table_is_disturbed() -> None:
    async with live_server(turn_timeout_seconds=0.2) as live:
        rogue, good = await new_bot(live, "flooder"), await new_bot(live, "steady")
        t_rogue = await new_table(live, rogue)
        t_good = await new_table(live, good, turn_timeout_seconds=10.0)
        async with SdkClient(live.ws_url, good) as sdk:
            steady = await sdk.join(t_good, BuiltinBot("bazaar_blot", "rule", 1))
            async with client(live, rogue) as c:
                await c.send({"type": "join", "table_id": t_rogue, "seat": 0})
                await c.until(lambda m: m["type"] == "state" and m["status"] == "playing")
                for i in range(400):
                    try:
                        await c.send({"type": "ping", "nonce": i})
                    except ConnectionClosed:
                        break
                codes: list[str] = []
                with pytest.raises(ConnectionClosed) as info:
                    while True:
                        msg = await c.recv()
                        if msg["type"] == "error":
                            codes.append(msg["code"])
                assert info.value.rcvd is not None and info.value.rcvd.code == 1008
                # drops are forgiven at 20/s while the 400 arrive: 200 or a few more
                assert set(codes) == {"protocol.rate_limited"} and 200 <= len(codes) < 260
            async with asyncio.timeout(90):
                over = await steady.next_game_over()
                rogue_table = live.tables.get(t_rogue)
                while rogue_table.status != "finished":
                    await asyncio.sleep(0.05)  # polling progress, bounded
        assert over.outcome["reason"] == "target_reached"
        # (a stale version is normal play: the rule bots may call contra out of turn)
        assert [e.code for e in steady.errors if e.code != "table.stale_version"] == []
        good_actions = live.tables.get(t_good).recorder.history.to_json()["actions"]
        assert not any(a.get("timeout") for a in good_actions)
        # the flooder's seat was kept and played by its timer (then, after three timeouts in
        # a row, by a stand-in: tables/standin.py)
        rogue_actions = rogue_table.recorder.history.to_json()["actions"]
        assert any(a.get("timeout") and a["seat"] == 0 for a in rogue_actions)
        rogue = rogue_table.seats[0]
        assert rogue.bot and (rogue.conn is None or rogue.stand_in == "timeouts")
