from __future__ import annotations

from clientkit import bot_token, live_server, make_table

from cardhall.client import BuiltinBot, Client


async def test_smoke() -> None:
    async with live_server() as live:
        _, tok = await bot_token(live, "sdk")
        tid = await make_table(live, tok, game="bazaar_blot", seats=4, config={"target_score": 20},
                               bots=[{"seat": s, "kind": "random"} for s in (1, 2, 3)])
        async with Client(live.ws_url, tok) as c:
            t = await c.join(tid, BuiltinBot("bazaar_blot", "rule", 1))
            go = await t.next_game_over()
            print(go.outcome, t.moves, t.errors)
