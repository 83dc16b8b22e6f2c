"""The SDK (``cardhall.client``) against a real server: many tables on one connection, sync
and async bots, spectating, refused requests, and reconnect + resume after drops."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from clientkit import bot_token, live_server, make_table

from cardhall.client import BuiltinBot, Client, ClientError, play

BLOT = {"game": "bazaar_blot", "seats": 4, "config": {"target_score": 30}}


def blot_table(kind: str = "random") -> dict[str, Any]:
    return {**BLOT, "bots": [{"seat": s, "kind": kind} for s in (1, 2, 3)]}


class AsyncRule:
    """An async bot: thinks in a worker thread."""

    def __init__(self) -> None:
        self.inner = BuiltinBot("bazaar_blot", "rule", 7)
        self.games: list[Any] = []

    async def choose(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        return await asyncio.to_thread(self.inner.choose, view, legal)

    def on_game_over(self, msg: Any) -> None:
        self.games.append(msg)


async def test_one_connection_plays_two_tables_and_watches_a_third() -> None:
    async with live_server(turn_timeout_seconds=15.0) as live:
        _, token = await bot_token(live, "multi")
        _, other = await bot_token(live, "other")
        t1, t2 = [await make_table(live, token, **blot_table()) for _ in range(2)]
        t3 = await make_table(live, other, **blot_table("rule"))
        async_bot = AsyncRule()
        async with Client(live.ws_url, token) as client, Client(live.ws_url, other) as c3:
            assert client.welcome is not None and client.welcome.name == "multi"
            s1 = await client.join(t1, BuiltinBot("bazaar_blot", "rule", 1))
            s2 = await client.join(t2, async_bot, seat=0)
            watch = await client.join(t3, spectate=True)
            s3 = await c3.join(t3, BuiltinBot("bazaar_blot", "random", 3))
            async with asyncio.timeout(150):
                g1, g2, g3 = await asyncio.gather(s1.next_game_over(), s2.next_game_over(),
                                                  watch.next_game_over())
            assert s1.seat == 0 and s2.seat == 0 and watch.seat is None
            assert s1.moves > 0 and s2.moves > 0 and s3.moves > 0 and watch.moves == 0
            assert async_bot.games == [g2]
            assert (await s3.next_game_over()).game_id == g3.game_id
            for tid in (t1, t2, t3):
                history = live.tables.get(tid).recorder.history.to_json()
                assert not any(a.get("timeout") for a in history["actions"]), tid
            assert g1.game_id != g2.game_id
            assert s1.errors == [] and s2.errors == []


async def test_refused_hello_and_join_raise_typed_errors() -> None:
    async with live_server() as live:
        _, token = await bot_token(live, "b")
        with pytest.raises(ClientError) as info:
            await Client(live.ws_url, "not-a-token").connect()
        assert info.value.code == "auth.invalid_token"
        _, taker = await bot_token(live, "taker")
        tid = await make_table(live, token, **blot_table())
        async with Client(live.ws_url, taker) as a, Client(live.ws_url, token) as b:
            await a.join(tid, None, seat=0)
            with pytest.raises(ClientError) as info:
                await b.join(tid, None, seat=0)
            assert info.value.code == "table.seat_taken"
            with pytest.raises(ClientError) as info:
                await b.join("no-such-table", None)
            assert info.value.code == "table.not_found"
            assert tid not in b.tables


async def test_reconnect_and_resume_after_server_close_and_network_drop() -> None:
    async with live_server(turn_timeout_seconds=5.0) as live:
        bot_id, token = await bot_token(live, "phoenix")
        tid = await make_table(live, token, **{**blot_table("rule"),
                                               "config": {"target_score": 301}})
        table = live.tables.get(tid)
        async with Client(live.ws_url, token, backoff_seconds=0.02) as client:
            session = await client.join(tid, BuiltinBot("bazaar_blot", "rule", 5))
            async with asyncio.timeout(60):
                while session.moves < 3:
                    await asyncio.sleep(0.01)  # polling progress, bounded
                table.seats[0].conn.close(1012)  # the server restarts this socket
                while client.reconnects < 1:
                    await asyncio.sleep(0.01)
                moves = session.moves
                while session.moves < moves + 3:
                    await asyncio.sleep(0.01)
                assert client._ws is not None
                client._ws.transport.abort()  # the network drops
                while client.reconnects < 2:
                    await asyncio.sleep(0.01)
                over = await session.next_game_over()
        assert client.reconnects == 2 and client.close_code is not None
        assert over.outcome["reason"] == "target_reached"
        seats = over.history["seats"]
        assert seats[0]["player_id"] == bot_id and seats[0]["bot"] is True
        actions = table.recorder.history.to_json()["actions"]
        assert sum(1 for a in actions if a.get("timeout")) == 0


async def test_a_game_that_ends_while_disconnected_is_recovered_from_rest() -> None:
    """The reconnect waits 1.5-4.5 s; meanwhile 20 ms timeouts finish the match for us."""
    async with live_server(turn_timeout_seconds=0.02, min_turn_timeout_seconds=0.01) as live:
        _, token = await bot_token(live, "sleeper")
        tid = await make_table(live, token, **blot_table("rule"))
        table = live.tables.get(tid)
        async with Client(live.ws_url, token) as client:
            session = await client.join(tid, BuiltinBot("bazaar_blot", "rule", 5))
            client.backoff_seconds = 3.0
            assert client._ws is not None
            client._ws.transport.abort()
            async with asyncio.timeout(60):
                while table.status != "finished":
                    await asyncio.sleep(0.02)  # polling progress, bounded
                assert client.reconnects == 0, "the match should end while we are away"
                over = await session.next_game_over()
            assert client.reconnects == 1
        assert over.outcome["reason"] == "target_reached" and over.history["seed"]
        assert over.history["id"] == over.game_id
        assert [g.game_id for g in session.games] == [over.game_id]


DEEP = 100_000
"""Chips per seat in the top-up test: far beyond what two rule bots stake in a hand."""


class Bankrupting:
    """A rule bot that, after each hand, empties the built-in opponent's stack on the server
    (test-only, through the table actor) so every next hand needs the house top-up; without
    it the table went back to ``waiting`` and ``play`` never returned."""

    def __init__(self, table: Any) -> None:
        self.inner = BuiltinBot("soldiers_bluff", "rule", 1)
        self.table = table
        self.emptied = 0

    def choose(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        return self.inner.choose(view, legal)

    async def on_game_over(self, msg: Any) -> None:
        def empty(t: Any) -> None:
            if t.status == "between_hands":
                t.seats[1].stack = 0
                t.seats[0].stack = DEEP  # and keeps ours from running out (that ends play())
                self.emptied += 1

        await self.table.call(empty)


async def test_sdk_bot_and_builtin_bot_keep_dealing_poker_hands() -> None:
    """An SDK bot is a client like a person: a 2-seat poker table it shares with a built-in
    rule bot deals hand after hand, even when the built-in bot has lost all its chips (the
    house tops it up), so ``play(..., games=3)`` returns three hands."""
    async with live_server(turn_timeout_seconds=5.0, next_hand_pause_seconds=1.0) as live:
        _, token = await bot_token(live, "sdk-poker")
        # Deep stacks: the SDK seat must not lose everything in one hand, or play() would end
        # (out of chips) before the hook above can refill it.
        tid = await make_table(live, token, game="soldiers_bluff", seats=2, starting_stack=DEEP,
                               bots=[{"seat": 1, "kind": "rule"}])
        bot = Bankrupting(live.tables.get(tid))
        async with asyncio.timeout(60):
            results = await play(live.ws_url, token, tid, bot, games=3)
        assert len({r.game_id for r in results}) == 3 and bot.emptied >= 2
