"""The header on a phone (issue 28, second trial): at 390x844 it took ~160 px in the lobby and
wrapped in Armenian, its links running off the screen. It is one line (the name, a menu
button) in every language; the menu holds the links, who you are, the sound and the language."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright", reason="the playwright Python package is not installed")
from browserkit import create_table, enter, play_until, shoot  # after the importorskip

pytestmark = [pytest.mark.slow, pytest.mark.browser]
MAX_HEADER_PX = 80


def _pick_language(page: Any, lang: str) -> None:
    """Open the phone menu, choose ``lang`` there and close the menu again."""
    page.click("header [data-menu-toggle]")
    page.select_option("#lang", lang)
    page.wait_for_function(f"document.documentElement.lang === '{lang}'")
    page.click("header [data-menu-toggle]")
    page.wait_for_selector("#top-menu", state="hidden")


def _header_height(page: Any) -> float:
    box = page.locator("header.top").bounding_box()
    assert box is not None
    return float(box["height"])


def test_the_phone_header_is_one_line_in_every_language_with_its_links_in_a_menu(
        server: Any, new_page: Any, artifacts: Path) -> None:
    page = new_page(1280, 800)
    enter(page, server.url, "Anahit")
    tid = create_table(page, "bazaar_blot", roles={1: "rule", 2: "rule", 3: "rule"},
                       options={"c-cfg-target_score": "101"})
    page.wait_for_selector(".hand [data-card]")
    assert page.locator("header [data-menu-toggle]").is_hidden()  # a wide screen: all in sight
    assert page.locator("header nav a").first.is_visible()
    page.set_viewport_size({"width": 390, "height": 844})
    for lang in ("en", "bg", "hy"):
        _pick_language(page, lang)
        for where, ready in ((f"#/table/{tid}/0", ".hand [data-card]"), ("#/", "#c-game")):
            page.goto(f"{server.url}/{where}")
            page.wait_for_selector(ready)
            height = _header_height(page)
            assert height <= MAX_HEADER_PX, (lang, where, height)
            assert page.locator("header nav").is_hidden(), (lang, where)
    # the menu opens over the page, inside the screen, and a link closes it
    page.click("header [data-menu-toggle]")
    assert page.locator("header [data-menu-toggle]").get_attribute("aria-expanded") == "true"
    links = page.locator("#top-menu nav a")
    assert links.count() == 5
    for i in range(links.count()):
        box = links.nth(i).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, (i, box)
    assert page.locator("#top-menu #me").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert _header_height(page) <= MAX_HEADER_PX  # the open menu covers the page, no push down
    shoot(page, artifacts, "phone-menu")
    links.nth(2).click()  # the rules
    page.wait_for_selector("[data-rules]")
    assert page.locator("#top-menu").is_hidden()
    assert page.locator("header [data-menu-toggle]").get_attribute("aria-expanded") == "false"



ON_TOP = """() => {  // is the menu button the topmost thing at its own centre?
  const b = document.querySelector("header [data-menu-toggle]").getBoundingClientRect();
  const el = document.elementFromPoint(b.x + b.width / 2, b.y + b.height / 2);
  return Boolean(el && el.closest("[data-menu-toggle]"));
}"""


def test_a_result_box_on_a_phone_leaves_the_header_in_reach(server: Any, new_page: Any) -> None:
    """Second trial: on a phone a hand's result box opened over the top of the page, the
    header and its Menu button under it until the box was closed."""
    page = new_page(390, 844)
    enter(page, server.url, "Ani")
    create_table(page, "soldiers_bluff", seats=2, roles={1: "rule"})
    play_until(page, "[data-summary]", ["[data-act=confirm]", "[data-act=check]",
                                        "[data-act=call]", "[data-act=pass]"], seconds=90)
    page.wait_for_timeout(100)  # the box's layout settles
    assert page.evaluate(ON_TOP), page.locator("[data-summary]").bounding_box()
