"""``examples/play_table.py`` (the README's terminal client) plays protocol 2: it applies deltas,
prints each step's events and answers decisions, asking a person through stdin."""

from __future__ import annotations

import asyncio
import signal
import sys
from pathlib import Path

import pytest
from livesrv import live_server
from procsrv import ProcServer

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


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
async def test_the_example_resumes_its_seat_after_the_server_restarts(
        tmp_path: Path, sig: signal.Signals) -> None:
    """A restart mid-match (a drain, or a crash) is a pause: the example reconnects, resumes
    seat 0 with its seat token and plays the Bazaar Blot match to its end."""
    env = {"CARDHALL_BOT_DELAY_SECONDS": "0.05", "CARDHALL_INSECURE_FIXED_SEED": "example"}
    srv = ProcServer(tmp_path, env, name="first")
    await srv.start()
    proc = await asyncio.create_subprocess_exec(
        sys.executable, str(SCRIPT), "--server", srv.base_url, "--auto", "--seed", "1",
        "--config", '{"target_score": 51}', stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    assert proc.stdout is not None
    seen: list[str] = []
    try:
        async with asyncio.timeout(60):
            while len(seen) < 40:  # 40 lines printed: the match is under way
                line = (await proc.stdout.readline()).decode()
                assert line, "".join(seen)
                seen.append(line)
        srv.kill(sig)
        await srv.wait(30)
        srv = ProcServer(tmp_path, env, port=srv.port, name="second")
        await srv.start()
        async with asyncio.timeout(120):
            rest, _ = await proc.communicate()
        out = "".join(seen) + rest.decode()
        assert proc.returncode == 0, out[-3000:]
        assert "game over:" in out
        assert ("the server is restarting" in out) if sig == signal.SIGTERM \
            else ("connection lost" in out)
        assert "restored" in srv.log()
    finally:
        if proc.returncode is None:
            proc.kill()
        await srv.stop()
