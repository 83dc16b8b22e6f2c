"""``GET /api/games/{id}/replay`` of a stored history this build no longer replays (a config
field removed by an upgrade, a game no longer registered, an action the engine now refuses) is a
typed 404 ``game.not_found``; it was a bare text/plain 500."""

from __future__ import annotations

import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[0]))
from livesrv import live_server

from cardhall.storage.interface import SeatResult

BASE = {"format": "cardhall-history/1", "game": "soldiers_bluff", "config": {},
        "seats": [{"name": "a"}, {"name": "b"}], "dealer": 0, "stacks": [10, 10],
        "actions": [{"seat": 0, "action": {"type": "fold"}}]}


@pytest.mark.parametrize(("doc", "query"), [
    ({**BASE, "config": {"removed_field": 1}}, ""),
    ({**BASE, "game": "retired_game"}, ""),
    (BASE, "?step=1"),
])
async def test_replay_of_a_history_that_no_longer_replays_is_typed_json(doc, query) -> None:
    async with live_server() as live:
        now = datetime.now(UTC)
        await live.store.save_game(
            game_id="g1", game="soldiers_bluff", table_id="t", history=doc,
            outcome={"reason": "showdown", "returns": [0, 0]},
            results=[SeatResult(seat=0, name="a", result=0, player_id=None, is_bot=False)],
            started_at=now, ended_at=now)
        async with live.http as http:
            r = await http.get(f"/api/games/g1/replay{query}")
        assert r.headers["content-type"].startswith("application/json"), (r.status_code, r.text)
        assert r.status_code == 404 and r.json()["error"]["code"] == "game.not_found", r.text
