"""Issue 24, row 9, over a real socket and REST: a player's own bot identity (house-funded)
folding to its owner at a chip table minted chips (1000 -> 1069 in 40 s), and the bot's
``GET /api/players/me/chips`` claimed ``balance: 1000, enabled: true`` though bots have none.
An identity and the bots it owns never sit at one chip table (``chips.own_bot``); the bot's
chip answer says it has no balance; built-in bots still sit with anyone."""

from __future__ import annotations

from typing import Any

from livesrv import LiveServer, client, live_server


async def _own_bot(live: LiveServer, owner_token: str) -> tuple[str, str]:
    """``POST /api/players`` with ``bot: true`` and the owner's bearer token."""
    async with live.http as http:
        r = await http.post("/api/players", json={"name": "anabot", "bot": True},
                            headers={"Authorization": f"Bearer {owner_token}"})
    assert r.status_code == 201, r.text
    return str(r.json()["id"]), str(r.json()["token"])


async def _chips(live: LiveServer, token: str) -> dict[str, Any]:
    async with live.http as http:
        r = await http.get("/api/players/me/chips", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


async def test_a_bot_identitys_chip_answer_says_it_has_no_balance() -> None:
    async with live_server() as live:
        _, ana_token = await live.player("ana")
        bot_id, bot_token = await _own_bot(live, ana_token)
        assert await _chips(live, bot_token) == {
            "player_id": bot_id, "balance": None, "enabled": False, "top_up_to": 1000,
            "top_up_every_seconds": 600.0}
        assert (await _chips(live, ana_token))["enabled"] is True  # a person still has one


async def test_an_owner_and_its_bot_never_sit_at_one_chip_table() -> None:
    async with live_server(turn_timeout_seconds=5.0) as live:
        _, ana_token = await live.player("ana")
        _, bot_token = await _own_bot(live, ana_token)
        async with live.http as http:
            r = await http.post("/api/tables", headers={"Authorization": f"Bearer {ana_token}"},
                                json={"game": "palace_poker", "seats": 3,
                                      "bots": [{"seat": 2, "kind": "rule"}]})
            assert r.status_code == 201, r.text
            tid = r.json()["id"]
        async with client(live, ana_token) as ana, client(live, bot_token) as bot:
            await ana.send({"type": "join", "table_id": tid, "seat": 0, "buy_in": 200})
            await ana.expect("joined")  # next to a built-in bot: the house's, fine
            await bot.send({"type": "join", "table_id": tid, "seat": 1, "rid": "b"})
            refused = await bot.expect("error")
            assert (refused["code"], refused.get("request", {}).get("rid")) == (
                "chips.own_bot", "b")
            table = live.tables.get(tid)
            assert table is not None and not table.seats[1].taken
