"""``examples/play_table.py`` (the README's terminal client) plays protocol 2: it applies deltas,
prints each step's events and answers decisions, asking a person through stdin."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from livesrv import live_server

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "examples" / "play_table.py"


async def run_example(url: str, *args: str, stdin: bytes = b"") -> tuple[int, str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, str(SCRIPT), "--server", url, *args, stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    async with asyncio.timeout(60):
        out, _ = await proc.communicate(stdin)
    return proc.returncode or 0, out.decode()


async def test_auto_mode_prints_every_step_and_finishes() -> None:
    async with live_server() as live:
        code, out = await run_example(f"http://127.0.0.1:{live.port}", "--auto", "--game",
                                      "soldiers_bluff", "--seats", "2", "--seed", "3")
    assert code == 0, out
    assert "game_started" in out and "dealt" in out and "game over:" in out


async def test_a_person_answers_from_stdin_with_the_merged_view() -> None:
    # Soldier's Bluff: exchange nothing (entry 0, no cards), then always the first entry
    # (pass/check/call: no amount asked); the game ends at a showdown or a fold
    answers = b"0\n\n" + b"0\n" * 40
    async with live_server() as live:
        code, out = await run_example(f"http://127.0.0.1:{live.port}", "--game",
                                      "soldiers_bluff", "--seats", "2", stdin=answers)
    assert code == 0, out
    assert "your view:" in out and '"phase"' in out and "game over:" in out
