"""The SDK's ``Client.rematch`` (``docs/protocol.md``, "Play again"): a bot finishes a Blot
match to one point against built-in bots, asks for a rematch and plays the new table; a
refused rematch raises the typed error."""

from __future__ import annotations

import asyncio

import pytest
from clientkit import bot_token, live_server, make_table

from cardhall.client import BuiltinBot, Client, ClientError

BLOT = {"game": "bazaar_blot", "seats": 4, "config": {"target_score": 1},
        "bots": [{"seat": s, "kind": "rule"} for s in (1, 2, 3)]}


async def test_rematch_returns_the_new_tables_session_played_by_the_same_bot() -> None:
    async with live_server(turn_timeout_seconds=15.0) as live:
        _, token = await bot_token(live, "again")
        old = await make_table(live, token, **BLOT)
        async with Client(live.ws_url, token) as client:
            session = await client.join(old, BuiltinBot("bazaar_blot", "rule", 1))
            with pytest.raises(ClientError) as refused:
                await client.rematch(old)  # the match has only begun
            assert refused.value.code == "rematch.not_over"
            async with asyncio.timeout(60):
                await session.next_game_over()
                again = await client.rematch(old)
                assert again.table_id != old and again.bot is session.bot
                over = await again.next_game_over()  # the new match, played by the same bot
            assert over.table_id == again.table_id and again.seat == 0
            same = await client.rematch(old)
            assert same is again  # one new table per old one
