"""Helpers for the browser tests: sign in, create a table from the lobby form, play by clicking
the legal controls the page shows, take screenshots."""

from __future__ import annotations

import os
import re
import shutil
import time
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

DOCS_SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
ENABLED = ":not([disabled])"


def enter(page: Page, base_url: str, name: str) -> None:
    """Open the lobby and choose a guest name."""
    page.goto(base_url + "/")
    page.fill("#name", name)
    page.click("form.name-form button[type=submit]")
    page.wait_for_selector("#c-game")


def create_table(page: Page, game: str, seats: int | None = None,
                 roles: dict[int, str] | None = None, options: dict[str, str] | None = None,
                 turn_seconds: int = 20) -> str:
    """Fill the lobby's create form (seat 0 is the player) and sit; returns the table id."""
    page.select_option("#c-game", game)
    if seats is not None:
        page.select_option("#c-seats", str(seats))
    for seat, role in (roles or {}).items():
        page.select_option(f"#c-seat-{seat}", role)
    for field, value in (options or {}).items():
        loc = page.locator(f"#{field}")
        if loc.evaluate("e => e.tagName") == "SELECT":
            loc.select_option(value)
        else:
            loc.fill(value)
    page.fill("#c-timeout", str(turn_seconds))
    page.click("#c-create")
    page.wait_for_url(re.compile(r"#/table/"))
    sit_down(page)
    page.wait_for_selector(".board")
    return page.url.split("#/table/")[1].split("/")[0]


def sit_down(page: Page, buy_in: int | None = None) -> None:
    """Past the buy-in form a new poker seat shows first (``static/js/chips_ui.js``): type
    ``buy_in`` chips (default: keep the form's), then sit down. Elsewhere (no form: not
    poker, or a seat already held) nothing is done."""
    page.wait_for_selector(".board, [data-buy-in-form]")
    if page.locator("[data-buy-in-form]").count():
        if buy_in is not None:
            page.fill("#buy-in", str(buy_in))
        page.click("[data-sit-down]")


def my_turn(page: Page) -> bool:
    return page.locator(".turn-banner.mine").count() > 0


def click_first(page: Page, selectors: list[str], avoid: str | None = None) -> str | None:
    """Click the first enabled control matching one of ``selectors`` (in order of preference)
    and not ``avoid`` (a CSS selector); returns the selector used, or None when nothing is
    clickable right now."""
    for sel in selectors:
        loc = page.locator(sel + ENABLED + (f":not({avoid})" if avoid else ""))
        if loc.count():
            try:
                loc.first.click(timeout=1500)
                return sel
            except PlaywrightError:
                return None  # re-rendered under us: the caller's loop looks again
    return None


def fill_picker(page: Page) -> bool:
    """A card choice whose confirm is disabled: toggle cards until it enables, then confirm."""
    confirm = page.locator(".picker-box [data-act=confirm]")
    if not confirm.count():
        return False
    for pick in page.locator(".picker-box [data-pick]").all():
        if confirm.first.is_enabled():
            break
        try:
            pick.click(timeout=1000)
        except PlaywrightError:
            return False
    if confirm.first.is_enabled():
        confirm.first.click(timeout=1000)
        return True
    return False


def play_until(page: Page, done: str, prefer: list[str], seconds: float = 60.0,
               on_turn: Any = None, avoid: str | None = None) -> int:
    """Click legal controls (``prefer`` order, then any enabled one) until ``done`` is visible.
    ``on_turn(page, n)`` runs before each of the player's decisions. ``avoid`` (plain CSS):
    never click a match, e.g. ``done`` itself when it is a control that may appear between the
    check and the click. Returns the clicks made."""
    deadline = time.monotonic() + seconds
    clicks = 0
    while time.monotonic() < deadline:
        if page.locator(done).count():
            return clicks
        if not my_turn(page):
            page.wait_for_timeout(60)
            continue
        if on_turn is not None:
            on_turn(page, clicks)
            if page.locator(done).count():
                return clicks
        used = click_first(page, [*prefer, ".controls [data-act]", ".board [data-act]"],
                           avoid=avoid)
        if used is None and not fill_picker(page):
            page.wait_for_timeout(60)
            continue
        clicks += 1
        page.wait_for_timeout(40)
    raise AssertionError(f"{done} did not appear within {seconds} s ({clicks} clicks)")


def screenshots(page: Page, artifacts: Path, game: str) -> list[Path]:
    """The table at desktop (1280x800) and phone (390x844) width, into test-artifacts/; with
    ``CARDHALL_UPDATE_SCREENSHOTS=1`` also into docs/screenshots/ (the committed copies)."""
    out = []
    update_docs = os.environ.get("CARDHALL_UPDATE_SCREENSHOTS") == "1"
    for label, size in (("desktop", (1280, 800)), ("phone", (390, 844))):
        page.set_viewport_size({"width": size[0], "height": size[1]})
        page.wait_for_timeout(150)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= size[0], f"{game} overflows at {size[0]} px: {width} px wide"
        path = artifacts / f"{game}-{label}.png"
        page.screenshot(path=str(path))
        if update_docs:
            DOCS_SHOTS.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, DOCS_SHOTS / path.name)
        out.append(path)
    page.set_viewport_size({"width": 1280, "height": 800})
    return out


def cards_shown(page: Page) -> set[str]:
    """Every face-up card code on the page."""
    return set(page.eval_on_selector_all("[data-card]", "els => els.map(e => e.dataset.card)"))


def shoot(page: Page, artifacts: Path, name: str) -> Path:
    """One screenshot of the page as it is into test-artifacts/ (and docs/screenshots/ with
    ``CARDHALL_UPDATE_SCREENSHOTS=1``)."""
    path = artifacts / f"{name}.png"
    page.screenshot(path=str(path))
    if os.environ.get("CARDHALL_UPDATE_SCREENSHOTS") == "1":
        DOCS_SHOTS.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, DOCS_SHOTS / path.name)
    return path


def post_tournament(http: httpx.Client, body: dict[str, Any]) -> str:
    """Create a tournament as a new guest ``org`` (``POST /api/tournaments``); its id."""
    token = http.post("/api/players", json={"name": "org"}).json()["token"]
    r = http.post("/api/tournaments", headers={"Authorization": f"Bearer {token}"}, json=body)
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def finished_swiss(base_url: str) -> dict[str, Any]:
    """A 4-team, 2-round, 1-board bot Swiss, waited for (bounded) until it finishes."""
    with httpx.Client(base_url=base_url) as http:
        tid = post_tournament(http, {"game": "bazaar_blot", "rounds": 2, "boards_per_round": 1,
                                     "bots": 4, "name": "Spring cup"})
        deadline = time.monotonic() + 90
        while True:
            doc: dict[str, Any] = http.get(f"/api/tournaments/{tid}").json()
            if doc["status"] != "running":
                return doc
            assert time.monotonic() < deadline, doc["status"]
            time.sleep(0.2)
