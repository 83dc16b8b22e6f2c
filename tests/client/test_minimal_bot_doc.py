"""The minimal bot of ``docs/bots.md``, taken from the document itself, plays a full Bazaar
Blot match against a real server (three built-in rule bots at the other seats), as a separate
process that imports nothing but ``websockets`` and the standard library."""

from __future__ import annotations

import ast
import asyncio
import json
import re
import sys
from pathlib import Path

from clientkit import bot_token, live_server, make_table

DOC = Path(__file__).resolve().parents[2] / "docs" / "bots.md"
MARKER = "<!-- minimal-bot -->"


def minimal_bot_source() -> str:
    """The fenced ``python`` block right after the marker comment in ``docs/bots.md``."""
    text = DOC.read_text(encoding="utf-8")
    after = text.split(MARKER, 1)[1]
    match = re.match(r"\s*```python\n(.*?)\n```", after, re.DOTALL)
    assert match, "the minimal bot block must follow the marker"
    return match.group(1)


def test_minimal_bot_is_short_and_uses_only_websockets() -> None:
    source = minimal_bot_source()
    assert len(source.splitlines()) <= 60
    imported = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            imported |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module.split(".")[0])
    assert imported - set(sys.stdlib_module_names) == {"websockets"}


async def test_minimal_bot_from_the_doc_plays_a_full_blot_match(tmp_path: Path) -> None:
    script = tmp_path / "minimal_bot.py"
    script.write_text(minimal_bot_source(), encoding="utf-8")
    async with live_server(turn_timeout_seconds=5.0) as live:
        bot_id, token = await bot_token(live, "doc-bot")
        table_id = await make_table(live, token, game="bazaar_blot", seats=4,
                                    config={"target_score": 40},
                                    bots=[{"seat": s, "kind": "rule"} for s in (1, 2, 3)])
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-I", str(script), live.ws_url, token, table_id,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        async with asyncio.timeout(120):
            out, err = await proc.communicate()
        assert proc.returncode == 0, err.decode()
        result = json.loads(out.decode().strip().splitlines()[-1])
        assert result["outcome"]["reason"] == "target_reached", result
        assert result["moves"] > 0
        # A stale version is the protocol working: another seat (a contra out of turn) moved
        # the table between the state the bot answered and its action. Anything else is a bug.
        errors = [ln for ln in err.decode().splitlines() if ln.startswith("error:")]
        assert all(ln.startswith("error: table.stale_version") for ln in errors), errors
        table = live.tables.get(table_id)
        history = table.recorder.history
        assert not any(a.get("timeout") for a in history.to_json()["actions"]), \
            "the doc bot answered every decision itself"
        # the bot identity is shown as a bot in the saved game and at the table
        await live.writer.flush()  # the game writer saves off the table's task
        async with live.http as http:
            games = (await http.get(f"/api/games?player={bot_id}")).json()["items"]
            lobby = (await http.get(f"/api/tables/{table_id}")).json()
        assert [g["id"] for g in games] == [result["game_id"]]
        seat0 = next(s for s in games[0]["seats"] if s["seat"] == 0)
        assert seat0 == {"seat": 0, "name": "doc-bot", "result": seat0["result"],
                         "player_id": bot_id, "bot": True, "mark": seat0["mark"]}
        assert seat0["mark"] in ("win", "loss", "draw")
        assert lobby["seats"][0]["bot"] is True and lobby["seats"][0]["player_id"] == bot_id
