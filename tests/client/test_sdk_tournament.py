"""The SDK enters a tournament (issue 29: "the SDK can enter a tournament";
``cardhall.client.enter_tournament``, ``docs/bots.md`` "Tournaments"): it joins over REST,
follows the tournament over the socket and plays every seat held for it, itself (no stand-in),
until the tournament ends; a refused entry is a typed ClientError."""

from __future__ import annotations

import asyncio

import pytest
from clientkit import bot_token, live_server

from cardhall.client import BuiltinBot, Client, ClientError, enter_tournament
from cardhall.protocol import messages as p

OPEN = {"game": "bazaar_blot", "format": "swiss", "rounds": 2, "boards_per_round": 1,
        "duplicate": True, "bots": 3, "open": True, "starts_in_seconds": 3600}


async def test_an_sdk_bot_enters_and_plays_a_swiss_to_its_end() -> None:
    async with live_server(turn_timeout_seconds=5.0) as live:
        _oid, org = await live.player("org")
        _bid, token = await bot_token(live, "sdkbot")
        async with live.http as http:
            res = await http.post("/api/tournaments", json=OPEN,
                                  headers={"Authorization": f"Bearer {org}"})
            tid = res.json()["id"]
        async with Client(live.ws_url, token) as client:
            task = asyncio.create_task(enter_tournament(
                client, tid, lambda: BuiltinBot("bazaar_blot", "rule")))
            async with live.http as http:
                for _ in range(200):  # bounded: until the bot is an entrant
                    doc = (await http.get(f"/api/tournaments/{tid}")).json()
                    if len(doc["entrants"]) == 4:
                        break
                    await asyncio.sleep(0.02)
                assert len(doc["entrants"]) == 4
                await http.post(f"/api/tournaments/{tid}/start",
                                headers={"Authorization": f"Bearer {org}"})
            final = await asyncio.wait_for(task, 120)
            with pytest.raises(ClientError) as err:
                await enter_tournament(client, tid, lambda: None)
            assert err.value.code == "tournament.closed"
        assert final["status"] == "finished", final["error"]
        me = final["entrants"][-1]
        mine = [t for r in final["rounds"] for t in r["tables"] if me["id"] in t["seats"]]
        assert len(mine) == 2
        async with live.http as http:
            for t in mine:
                game = (await http.get(f"/api/games/{t['game_id']}")).json()
                assert not game.get("stand_ins")  # the SDK bot played its seat itself


def _follower_conn(director: object, tid: str) -> object:
    """The server side of the socket following ``tid`` (its TournamentFollow's connection)."""
    push = director.watchers[tid][0]  # type: ignore[attr-defined]
    follow = next(c.cell_contents for c in push.__closure__
                  if hasattr(c.cell_contents, "conn"))
    return follow.conn


async def test_the_sdk_follows_again_after_a_reconnect() -> None:
    """Attack29: after the socket dropped (a deploy, a network blip) the SDK reconnected and
    resumed its tables but never sent ``watch_tournament`` again: ``enter_tournament`` waited
    for a push that never came, and stand-ins played every later table."""
    async with live_server(turn_timeout_seconds=5.0) as live:
        _oid, org = await live.player("org")
        _bid, token = await bot_token(live, "sdkbot")
        director = live.app.state.tournaments
        async with live.http as http:
            res = await http.post("/api/tournaments", json={**OPEN, "rounds": 1},
                                  headers={"Authorization": f"Bearer {org}"})
            tid = res.json()["id"]
        async with Client(live.ws_url, token, backoff_seconds=0.1) as client:
            task = asyncio.create_task(enter_tournament(
                client, tid, lambda: BuiltinBot("bazaar_blot", "rule")))
            async with asyncio.timeout(20):  # bounded: until it follows the tournament
                while not director.watchers.get(tid):
                    await asyncio.sleep(0.01)
            _follower_conn(director, tid).close(1012)  # the socket drops
            async with asyncio.timeout(20):  # bounded: until it follows again, or never
                while client.reconnects < 1 or not director.watchers.get(tid):
                    await asyncio.sleep(0.01)
            async with live.http as http:
                await http.post(f"/api/tournaments/{tid}/start",
                                headers={"Authorization": f"Bearer {org}"})
            final = await asyncio.wait_for(task, 120)
        assert final["status"] == "finished", final["error"]
        me = final["entrants"][-1]
        [mine] = [t for r in final["rounds"] for t in r["tables"] if me["id"] in t["seats"]]
        async with live.http as http:
            game = (await http.get(f"/api/games/{mine['game_id']}")).json()
        assert not game.get("stand_ins")  # the SDK bot played its seat itself


async def test_the_sdk_stops_following() -> None:
    """Attack29: the SDK sent ``watch_tournament`` with ``tournament_id: null`` without the
    field (its messages leave out nulls), which the server refuses, so it kept following."""
    async with live_server() as live:
        _oid, org = await live.player("org")
        director = live.app.state.tournaments
        async with live.http as http:
            tid = (await http.post("/api/tournaments", json=OPEN,
                                   headers={"Authorization": f"Bearer {org}"})).json()["id"]
        async with Client(live.ws_url, org) as client:
            await client.send(p.WatchTournament(type="watch_tournament", tournament_id=tid))
            await asyncio.wait_for(client.tournament_updates.get(), 20)
            await client.send(p.WatchTournament(type="watch_tournament", tournament_id=None))
            async with asyncio.timeout(5):  # bounded: until the server stops the follow
                while director.watchers.get(tid):
                    await asyncio.sleep(0.01)


async def test_a_table_gone_before_the_sdk_joins_it_is_skipped() -> None:
    """Attack29: a held table that closed before the SDK's ``join`` reached it (the director
    closed it, a restart) answered ``table.not_found``, and that ClientError ended
    ``enter_tournament``: the bot left the tournament. It skips that table and plays on."""
    async with live_server(turn_timeout_seconds=5.0) as live:
        _oid, org = await live.player("org")
        _bid, token = await bot_token(live, "sdkbot")
        async with live.http as http:
            tid = (await http.post("/api/tournaments", json={**OPEN, "rounds": 1},
                                   headers={"Authorization": f"Bearer {org}"})).json()["id"]
        async with Client(live.ws_url, token) as client:
            join, gone = client.join, []

            async def join_a_closed_table_first(table_id: str, *args: object, **kw: object):
                if not gone:  # the first table closes before the join reaches it
                    gone.append(table_id)
                    await live.tables.close(table_id)
                return await join(table_id, *args, **kw)

            client.join = join_a_closed_table_first  # type: ignore[method-assign]
            task = asyncio.create_task(enter_tournament(
                client, tid, lambda: BuiltinBot("bazaar_blot", "rule")))
            async with live.http as http:
                async with asyncio.timeout(20):  # bounded: until the bot is an entrant
                    while len((await http.get(f"/api/tournaments/{tid}")).json()["entrants"]) < 4:
                        await asyncio.sleep(0.02)
                await http.post(f"/api/tournaments/{tid}/start",
                                headers={"Authorization": f"Bearer {org}"})
            final = await asyncio.wait_for(task, 120)
        assert gone and final["status"] == "finished", final["error"]
        me = final["entrants"][-1]
        [mine] = [t for r in final["rounds"] for t in r["tables"] if me["id"] in t["seats"]]
        assert mine["table_id"] != gone[0]  # the board was dealt again at a new table ...
        async with live.http as http:
            game = (await http.get(f"/api/games/{mine['game_id']}")).json()
        assert not game.get("stand_ins")  # ... which the SDK bot played itself
