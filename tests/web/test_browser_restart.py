"""A deploy is a pause in the browser too: a page seated at a Soldier's Bluff table on a real
``cardhall serve`` (SQLite file, ``tests/server/procsrv.py``) sees the server drain (SIGTERM:
``table_closed``/``shutdown``, then 1012), says "The server is restarting — your seat is kept;
reconnecting…", stays on the table (not the lobby), and once the server is started again on
the same port and database it resumes the seat (with its seat token) and the hand is played
out. Every wait is bounded (Playwright's timeouts, the server's ready and exit waits)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import re
import signal
import sys
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import pytest

pytest.importorskip("playwright", reason="the playwright Python package is not installed")
from browserkit import create_table, enter, play_until  # after the importorskip: needs playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
from procsrv import ProcServer

pytestmark = [pytest.mark.slow, pytest.mark.browser]

T = TypeVar("T")
ENV = {"CARDHALL_INSECURE_FIXED_SEED": "x", "CARDHALL_TURN_TIMEOUT_SECONDS": "60",
       "CARDHALL_BOT_DELAY_SECONDS": "0.05", "CARDHALL_ABANDON_AFTER_SECONDS": "600",
       "CARDHALL_GC_TUNING": "false"}
RESTARTING = ("The server is restarting or the table is moving to another server — your seat "
              "is kept; reconnecting…")
REFUSED = re.compile(r"WebSocket connection to .* failed")
"""Chromium's console line for a socket the stopped server refused (expected here)."""


def run(coro: Coroutine[Any, Any, T]) -> T:
    """Run ``coro`` on an event loop of its own thread: Playwright's sync API keeps one
    running in this thread."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def my_cards(page: Any) -> list[str]:
    """The codes of the player's own cards (a hand, or the exchange's card picker)."""
    return sorted(page.eval_on_selector_all(".hand-box [data-card]",
                                            "els => els.map(e => e.dataset.card)"))


def test_a_server_restart_keeps_the_seat_and_the_hand_goes_on(
        browser: Any, tmp_path: Path) -> None:
    first = ProcServer(tmp_path, ENV, name="first")
    second = ProcServer(tmp_path, ENV, port=first.port, name="second")
    errors: list[str] = []
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    ctx.set_default_timeout(20_000)
    try:
        run(first.start())
        page = ctx.new_page()
        page.on("console", lambda m: errors.append(f"console.{m.type}: {m.text}")
                if m.type == "error" and not REFUSED.search(m.text) else None)
        page.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
        enter(page, first.base_url, "Nare")
        tid = create_table(page, "soldiers_bluff", seats=2, roles={1: "rule"})
        page.wait_for_selector(".turn-banner.mine.own")
        hand = page.locator(".table-head [data-hand]").get_attribute("data-hand")
        cards = my_cards(page)
        assert cards

        first.kill(signal.SIGTERM)
        status = page.locator(".conn-status.restarting")
        status.wait_for()
        assert status.inner_text() == RESTARTING
        assert run(first.wait(30)) == 0, first.log()[-3000:]
        assert f"#/table/{tid}" in page.url  # still the table, not the lobby
        assert page.locator(".controls [data-act]").count() == 0  # nothing to play meanwhile
        assert status.inner_text() == RESTARTING  # the refused reconnects keep the status

        run(second.start())
        page.wait_for_selector(".table-screen[data-conn='online']")
        assert page.locator(".conn-status.restarting, .conn-status.offline").count() == 0
        assert page.locator(".error-line").inner_text() == ""
        page.wait_for_selector(".turn-banner.mine.own")  # the same seat, the same hand
        assert page.locator(".table-head [data-hand]").get_attribute("data-hand") == hand
        assert my_cards(page) == cards
        play_until(page, "[data-summary] .hand-summary",
                   ["[data-act=confirm]", "[data-act=check]", "[data-act=call]",
                    "[data-act=pass]"], seconds=60)
        assert "restored" in second.log()
        assert errors == [], errors
    finally:
        ctx.close()
        run(first.stop())
        run(second.stop())
