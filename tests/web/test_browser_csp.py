"""The browser client under its Content Security Policy (``docs/security.md``, "Sessions,
sockets and proxies"): the main screens (lobby, finished games, rules, leaderboards, a table
with Soldier's Bluff cards) load from a page sent with the strict policy, and the browser
reports no violation (``securitypolicyviolation`` events, and no console error: the
``console`` fixture)."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytest.importorskip("playwright", reason="the playwright Python package is not installed")
from browserkit import sit_down  # after the importorskip

pytestmark = [pytest.mark.slow, pytest.mark.browser]

RECORD_VIOLATIONS = """document.addEventListener("securitypolicyviolation", (e) => {
  (window.__csp = window.__csp || []).push(`${e.violatedDirective} ${e.blockedURI}`); });"""


def test_the_main_screens_load_under_the_strict_csp_without_a_violation(
        server: Any, new_page: Any) -> None:
    page = new_page(csp=True)  # under the policy: no wait_for_function (it evals)
    page.add_init_script(RECORD_VIOLATIONS)
    answer = page.goto(server.url + "/")
    assert answer is not None
    csp = answer.headers["content-security-policy"]
    assert "script-src 'self';" in csp and "style-src 'self';" in csp
    assert "frame-ancestors 'none'" in csp and "unsafe-inline" not in csp
    page.fill("#name", "Csp")
    page.click("form.name-form button[type=submit]")
    page.wait_for_selector("#c-game")
    for route, ready in (("#/games", "main#app h1"), ("#/rules", "[data-rules]"),
                         ("#/ratings", "main#app h1")):
        page.goto(server.url + "/" + route)
        page.wait_for_selector(ready)
    page.goto(server.url + "/#/")
    page.click("[data-quick=soldiers_bluff]")
    page.wait_for_url(re.compile(r"#/table/"))
    sit_down(page)
    page.locator(".hand .sb-name").nth(5).wait_for(timeout=20_000)
    # the card names' font size comes from --n, set through the CSSOM (no style attribute)
    sizes = page.eval_on_selector_all(
        ".hand .sb-name", "es => es.map(e => e.style.getPropertyValue('--n'))")
    assert all(int(n) >= 6 for n in sizes), sizes
    assert page.evaluate("window.__csp || []") == []
