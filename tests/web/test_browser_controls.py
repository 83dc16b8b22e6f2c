"""The action controls say what they cost: Call and Raise carry their amounts in chips, and the
amount a button names is what the server's event then reports it paid; the countdown
bar runs under the turn banner. Two browsers play each other, so the call is sure to come."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright", reason="the playwright Python package is not installed")
from browserkit import create_table, enter, fill_picker, my_turn, shoot  # after the importorskip

pytestmark = [pytest.mark.slow, pytest.mark.browser]

ENABLED = ":not([disabled])"
NAMES = {"host": "Host", "guest": "Guest"}


def _my_stake(page: Any) -> int:
    """Soldier's Bluff: the stake my seat's facts show ("stake N"; none yet: 0)."""
    found = re.search(r"stake (\d+)", page.locator(".seat.me").inner_text())
    return int(found.group(1)) if found else 0


def _logged(page: Any, name: str, verb: str, lines_before: int) -> int:
    """The number in the server's event line "<name> <verb> (N)" logged after ``lines_before``."""
    page.wait_for_function(
        "([n, text]) => [...document.querySelectorAll('.log-list li')].slice(n)"
        ".some((e) => e.textContent.startsWith(text))", arg=[lines_before, f"{name} {verb} ("],
        timeout=10_000)
    lines = page.locator(".log-list li").all_inner_texts()[lines_before:]
    line = next(x for x in lines if x.startswith(f"{name} {verb} ("))
    return int(re.search(r"\((\d+)\)", line).group(1))  # type: ignore[union-attr]


def _two_players(server: Any, new_page: Any, game: str, options: dict[str, str]) -> tuple[Any, Any]:
    host = new_page()
    enter(host, server.url, "Host")
    tid = create_table(host, game, seats=2, roles={1: "human"}, options=options)
    guest = new_page()
    enter(guest, server.url, "Guest")
    guest.goto(f"{server.url}/#/table/{tid}")
    guest.wait_for_selector(".seat.me")
    return host, guest


def _pay(page: Any, selector: str, pattern: str) -> int:
    """Check the button's label names its amount (``pattern`` with ``{n}``), click it, and
    return the amount."""
    button = page.locator(selector + ENABLED).first
    label = button.inner_text()
    amount = int(button.get_attribute("data-amount") or "-1")
    assert re.fullmatch(pattern.format(n=amount), label), label
    button.click()
    return amount


def _drive(pages: dict[str, Any], step: Any, seconds: float = 60.0) -> None:
    """Until ``step(name, page)`` returns True: give each page whose turn it is to ``step``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for name, page in pages.items():
            ready = my_turn(page) and page.locator(".controls [data-act], .picker-box").count()
            if ready and step(name, page):
                return
        next(iter(pages.values())).wait_for_timeout(60)
    raise AssertionError(f"not done within {seconds} s")


def test_soldiers_bluff_call_names_the_chips_it_pays(server: Any, new_page: Any) -> None:
    host, guest = _two_players(server, new_page, "soldiers_bluff", {"c-stack": "200"})
    seen: dict[str, Any] = {}

    def step(name: str, page: Any) -> bool:
        if page.locator(".picker-box [data-act=confirm]").count():  # the exchange: keep all
            assert page.locator(".picker-box [data-act=confirm]").inner_text() == "Keep all"
            page.click(".picker-box [data-act=confirm]")
            return False
        if page.locator("[data-act=call]" + ENABLED).count():
            assert page.locator("[data-countdown]").count() == 1  # the bar runs meanwhile
            stake, lines = _my_stake(page), page.locator(".log-list li").count()
            seen["call"] = _pay(page, "[data-act=call]", r"Call {n}")
            # the server's event names the stake the call reached: the old stake + the amount
            assert _logged(page, NAMES[name], "calls", lines) == stake + seen["call"]
            return True
        for kind in ("bet", "raise"):  # the host bets and raises; the guest passes and checks
            button = page.locator(f"[data-act={kind}]" + ENABLED)
            if name == "host" and button.count():
                label = button.first.inner_text()
                assert re.match(rf"{kind.capitalize()} to \d+", label), label
                button.first.click()
                return False
        page.locator(".controls [data-act]" + ENABLED).first.click()  # pass/check
        return False

    _drive({"host": host, "guest": guest}, step)
    assert seen["call"] > 0


def test_palace_poker_call_and_raise_name_the_chips_they_pay(server: Any, new_page: Any,
                                                            artifacts: Path) -> None:
    host, guest = _two_players(server, new_page, "palace_poker", {"c-stack": "100"})
    seen: dict[str, int] = {}

    def step(name: str, page: Any) -> bool:
        if page.locator("[data-act=raise]" + ENABLED).count() and "raise" not in seen:
            page.mouse.move(1, 1)  # no term's tooltip open in the picture
            shoot(page, artifacts, "palace_poker-call-raise")
            lines = page.locator(".log-list li").count()
            seen["raise"] = _pay(page, "[data-act=raise]", r"Raise: pay {n}")
            assert _logged(page, NAMES[name], "raises", lines) == seen["raise"]  # chips paid
            return False
        if page.locator("[data-act=call]" + ENABLED).count():
            lines = page.locator(".log-list li").count()
            seen["call"] = _pay(page, "[data-act=call]", r"Call {n}( \(all-in\))?")
            assert _logged(page, NAMES[name], "calls", lines) == seen["call"]  # chips paid
            return True
        if page.locator("[data-act=battle]" + ENABLED).count():
            page.locator("[data-act=battle]" + ENABLED).first.click()
            return False
        if page.locator("[data-act=stay]" + ENABLED).count():
            page.click("[data-act=stay]")
            return False
        if not fill_picker(page):
            page.locator(".controls [data-act]" + ENABLED).first.click()
        return False

    _drive({"host": host, "guest": guest}, step)
    assert seen["raise"] > 0 and seen["call"] > 0
