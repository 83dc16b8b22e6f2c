"""A full Bazaar Blot match over real WebSockets: four bot-driven clients and a spectator.

Each client answers its own ``state`` messages with a random legal action; nobody receives a
card hidden from it; the finished match is saved once and ``cardhall replay`` re-runs the saved
history to the same outcome.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest
from livesrv import Audit, client, live_server, play_randomly

from cardhall.engine import game_names, table_copy

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif("bazaar_blot" not in game_names(), reason="Blot not in build")


@pytest.mark.parametrize("store", ["memory", "sqlite"])
async def test_full_blot_match_with_four_bot_driven_clients(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, store: str) -> None:
    url = "memory://" if store == "memory" else f"sqlite+aiosqlite:///{tmp_path / 'cardhall.db'}"
    async with live_server(database_url=url) as live:
        audit = Audit(live, monkeypatch)
        players = [await live.player(n) for n in ("ana", "bob", "cy", "dee", "eve")]
        async with live.http as http:
            r = await http.post("/api/tables", json={"game": "bazaar_blot", "seats": 4,
                                                     "config": {"target_score": 51}},
                                headers={"Authorization": f"Bearer {players[0][1]}"})
        assert r.status_code == 201, r.text
        tid = r.json()["id"]
        async with client(live, players[0][1]) as c0, client(live, players[1][1]) as c1, \
                client(live, players[2][1]) as c2, client(live, players[3][1]) as c3, \
                client(live, players[4][1]) as spectator:
            seats = [c0, c1, c2, c3]
            await spectator.send({"type": "join", "table_id": tid, "spectate": True})
            for i, c in enumerate(seats):
                await c.send({"type": "join", "table_id": tid, "seat": i})
            overs = await asyncio.gather(*(play_randomly(c, tid, seed=i)
                                           for i, c in enumerate(seats)))
            watched = await spectator.expect("game_over")
            over = overs[0]  # each player's full copy; the spectator's is the table copy
            assert all(o == over for o in overs)
            assert watched["history"] == table_copy(over["history"])
            for (pid, _), c in zip(players, [*seats, spectator], strict=True):
                assert audit.violations(pid, c.frames) == []
            hands = [m["view"] for m in spectator.received if m["type"] == "state" and m["view"]]
            assert hands, "the spectator saw no state"
        history = over["history"]
        assert max(history["outcome"]["returns"]) >= 51
        assert not any(a.get("timeout") for a in history["actions"])
        await live.writer.flush()  # the game writer saves off the table's task
        games = await live.store.list_games(game="bazaar_blot")
        assert [g.id for g in games] == [history["id"]]
        assert await live.store.get_game(history["id"]) == history
        path = tmp_path / "match.json"
        path.write_text(json.dumps(history))
        out = subprocess.run([sys.executable, "-m", "cardhall", "replay", str(path)],
                             capture_output=True, text=True, timeout=60, cwd=ROOT,
                             env={"PYTHONPATH": str(ROOT / "src")})
        assert out.returncode == 0, out.stderr
        replayed = json.loads(out.stdout)
        assert replayed["finished"] and replayed["outcome"] == history["outcome"]
