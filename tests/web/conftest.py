"""Browser test fixtures: the real app under uvicorn (in a thread, on a free port) and Debian's
Chromium driven by Playwright. Skipped when no Chromium or no Playwright is available."""

from __future__ import annotations

import asyncio
import os
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from cardhall.config import Settings
from cardhall.server.app import create_app

CHROMIUM = os.environ.get("CARDHALL_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
ADMIN = "web-admin-token"

try:
    from playwright.sync_api import Browser, Page, sync_playwright
except ModuleNotFoundError:  # pragma: no cover - the dev extra installs it
    sync_playwright = None


def _skip_reason() -> str | None:
    if sync_playwright is None:
        return "the playwright Python package is not installed (pip install -e '.[dev]')"
    if not (Path(CHROMIUM).is_file() or shutil.which(CHROMIUM)):
        return f"no Chromium at {CHROMIUM} (install Debian's chromium or set CARDHALL_CHROMIUM)"
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    reason = _skip_reason()
    if reason is None:
        return
    for item in items:
        if "browser" in item.keywords:
            item.add_marker(pytest.mark.skip(reason=reason))


class Server:
    """uvicorn serving the app in a background thread (its own event loop)."""

    def __init__(self, **overrides: Any) -> None:
        values: dict[str, Any] = {"database_url": "memory://", "admin_token": ADMIN,
                                  "bot_delay_seconds": 0.05, "next_hand_pause_seconds": 1.5,
                                  "idle_table_ttl_seconds": 600.0,
                                  # browsers and tests create guests and tables fast
                                  "max_live_tables_per_player": 100_000,
                                  "max_waiting_tables_per_address": 100_000,
                                  "max_sockets_per_player": 100_000,
                                  "max_sockets_per_address": 100_000,
                                  # every browser comes from 127.0.0.1, and tournaments of
                                  # earlier tests may still run (the quota has its own tests)
                                  "max_running_tournaments": 1_000,
                                  "max_running_tournaments_per_address": 1_000,
                                  "rest_rate_limit": "1000000/minute",
                                  "guest_rate_limit": "1000000/minute"}
        values.update(overrides)
        self.app = create_app(Settings(**values))
        config = uvicorn.Config(self.app, host="127.0.0.1", port=0, ws="websockets-sansio",
                                ws_per_message_deflate=False, log_level="warning", lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=lambda: asyncio.run(self._serve()), daemon=True)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.port = 0

    async def _serve(self) -> None:
        self.loop = asyncio.get_running_loop()
        await self.server.serve()

    def call(self, fn: Any, *args: Any) -> None:
        """Run ``fn(*args)`` on the server's event loop (thread-safe)."""
        assert self.loop is not None
        self.loop.call_soon_threadsafe(fn, *args)

    def start(self) -> None:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.02)
        self.port = self.server.servers[0].sockets[0].getsockname()[1]

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=20)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def table(self, table_id: str) -> Any:
        return self.app.state.tables.get(table_id)


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    if _skip_reason():
        pytest.skip(_skip_reason() or "")
    srv = Server()
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Module-scoped: Playwright's sync API keeps an event loop running in this thread while it
    is alive, which would break async tests collected after this module."""
    if _skip_reason():
        pytest.skip(_skip_reason() or "")
    assert sync_playwright is not None
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


class Console:
    """Console errors and uncaught page errors of every page it watches."""

    def __init__(self) -> None:
        self.errors: list[str] = []

    def watch(self, page: Page) -> Page:
        page.on("console", lambda m: self.errors.append(f"console.{m.type}: {m.text}")
                if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))
        return page


@pytest.fixture
def console() -> Iterator[Console]:
    c = Console()
    yield c
    assert c.errors == [], c.errors


@pytest.fixture
def new_page(browser: Browser, console: Console, server: Server) -> Iterator[Any]:
    """``new_page(width, height, lang, csp)`` -> a page in a fresh context (own localStorage).

    The page ignores the app's Content Security Policy unless ``csp``: Playwright's
    ``wait_for_function`` evaluates its predicate with ``eval`` inside the page, which the
    policy (no ``'unsafe-eval'``) refuses. ``test_browser_csp.py`` loads the screens under it."""
    contexts = []

    def make(width: int = 1280, height: int = 800, locale: str = "en-US",
             csp: bool = False) -> Page:
        ctx = browser.new_context(viewport={"width": width, "height": height}, locale=locale,
                                  bypass_csp=not csp)
        ctx.set_default_timeout(15_000)
        contexts.append(ctx)
        return console.watch(ctx.new_page())

    yield make
    for ctx in contexts:
        ctx.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
