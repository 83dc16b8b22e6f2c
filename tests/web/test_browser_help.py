"""A newcomer's help in the browser: the rules of every game in every language (from the
lobby and over the table), game terms that explain themselves, Soldier's Bluff sums on screen
(the own hand live, every shown hand and the deciding rule at the showdown), and Palace Poker's
explanation of the hands compared."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from cardhall.games.soldiers_bluff.cards import DECK

pytest.importorskip("playwright", reason="the playwright Python package is not installed")
from browserkit import create_table, enter, play_until, shoot  # after the importorskip

pytestmark = [pytest.mark.slow, pytest.mark.browser]

TITLES = {"soldiers_bluff": {"en": "Soldier's Bluff", "bg": "Войнишки блъф", "hy": "Զինվորի բլեֆ"},
          "palace_poker": {"en": "Palace Poker", "bg": "Дворцов покер", "hy": "Պալատական պոկեր"},
          "bazaar_blot": {"en": "Bazaar Blot", "bg": "Пазарен белот", "hy": "Շուկայական բլոտ"}}
GLOSSARY = {"en": "Glossary", "bg": "Речник", "hy": "Բառարան"}


def test_newcomer_reads_the_rules_of_each_game_in_each_language(server: Any, new_page: Any,
                                                                 artifacts: Path) -> None:
    page = new_page()
    enter(page, server.url, "Newcomer")
    page.click("[data-rules-link=bazaar_blot]")
    page.wait_for_selector("[data-rules=bazaar_blot] dl.glossary")
    for lang in ("en", "bg", "hy"):
        page.select_option("#lang", lang)
        for game, titles in TITLES.items():
            page.click(f".rules-tabs [data-game={game}]")
            page.wait_for_selector(f"[data-rules={game}][lang={lang}]")
            art = page.locator(f"[data-rules={game}]")
            assert art.locator("h1").inner_text() == titles[lang]
            assert art.locator("[data-section=scoring] p").count() >= 3
            assert art.locator("[data-section=glossary] h2").inner_text() == GLOSSARY[lang]
            assert art.locator("dl.glossary dt").count() >= 10
    page.select_option("#lang", "en")
    page.click(".rules-tabs [data-game=bazaar_blot]")
    assert "Kapot" in page.locator("dl.glossary").inner_text()
    shoot(page, artifacts, "rules")


def _sum_of(ids: list[str]) -> int:
    values = {c.id: c.value for c in DECK}
    return sum(values[c] for c in ids)


def test_soldiers_bluff_sums_and_the_deciding_rule(server: Any, new_page: Any,
                                                   artifacts: Path) -> None:
    page = new_page()
    enter(page, server.url, "Sam")
    create_table(page, "soldiers_bluff", seats=2, roles={1: "rule"}, options={"c-stack": "200"})
    page.wait_for_selector("[data-hand-sum]")
    ids = page.eval_on_selector_all(".hand-box [data-card]", "es => es.map(e => e.dataset.card)")
    assert int(page.locator("[data-hand-sum]").get_attribute("data-hand-sum") or 0) == _sum_of(ids)
    # the table's terms explain themselves (glossary text on hover/focus/tap)
    page.wait_for_selector(".term[data-term=cap][data-tip]")
    assert "smallest" in (page.locator(".term[data-term=cap]").get_attribute("data-tip") or "")
    # the rules open over the table, which keeps running
    page.click("[data-open-rules]")
    page.wait_for_selector(".rules-dialog [data-rules=soldiers_bluff]")
    page.click("[data-close-rules]")
    for _ in range(6):  # hands until one ends at a showdown (a fold ends one uncontested)
        play_until(page, "[data-summary] .hand-summary",
                   ["[data-act=confirm]", "[data-act=call]", "[data-act=check]", "[data-act=pass]"],
                   seconds=90)
        summary = page.locator("[data-summary]")
        if summary.locator("[data-reason=showdown]").count():
            break
        page.wait_for_selector("[data-summary]", state="detached", timeout=20_000)
    else:
        pytest.fail("no showdown in six hands")
    assert summary.locator("[data-decided]").count() == 1
    sums = summary.locator("[data-sum]")
    assert sums.count() == 2
    for i in range(2):
        block = summary.locator("[data-shown-seat]").nth(i)
        shown = block.locator("[data-card]").evaluate_all("es => es.map(e => e.dataset.card)")
        assert int(block.locator("[data-sum]").get_attribute("data-sum") or 0) == _sum_of(shown)
    assert re.search(r"wins with", summary.locator("[data-decided]").inner_text())
    shoot(page, artifacts, "soldiers_bluff-showdown")


def test_palace_poker_names_the_hands_compared(server: Any, new_page: Any,
                                               artifacts: Path) -> None:
    page = new_page()
    enter(page, server.url, "Pia")
    create_table(page, "palace_poker", seats=2, roles={1: "rule"}, options={"c-stack": "300"})
    for _ in range(8):
        play_until(page, "[data-summary] .hand-summary",
                   ["[data-act=confirm]", "[data-act=call]", "[data-act=battle]", "[data-act=stay]"],
                   seconds=90)
        log = page.locator(".log-list").inner_text()
        if page.locator("[data-summary] [data-compared]").count() or " vs " in log:
            break
        page.wait_for_selector("[data-summary]", state="detached", timeout=20_000)
    else:
        pytest.fail("no battle called and no showdown in eight hands")
    text = page.locator("[data-summary]").inner_text() + page.locator(".log-list").inner_text()
    hands = ("high card", "pair", "two pair", "three of a kind", "straight", "flush", "full house",
             "four of a kind", "straight flush")
    assert any(f": {h}" in text for h in hands), text
    assert "without " in text  # the banner-suit exclusion is named
    # the README's "battle explained" screenshot: test_browser_pp_feel.py


def test_phone_blot_pass_is_inside_the_viewport(server: Any, new_page: Any,
                                                artifacts: Path) -> None:
    page = new_page(390, 844)
    enter(page, server.url, "Pho")
    page.select_option("#c-game", "bazaar_blot")
    page.click("#c-create")
    # a contra may end an auction before Pho's turn: play the deal's cards until an auction
    # asks Pho (a seat that only times out would get a stand-in after three timeouts)
    play_until(page, ".controls [data-act=pass]", [".board [data-act=play]"], seconds=120)
    # measured in the page at once (a bot's move may redraw the controls a moment later)
    box = page.evaluate("""() => { const b = document.querySelector('.controls [data-act=pass]');
        if (!b) return null; const r = b.getBoundingClientRect();
        return {y: r.top, height: r.height, inner: innerHeight}; }""")
    if box is not None:
        assert box["y"] >= 0 and box["y"] + box["height"] <= box["inner"] == 844, box
    # the bids too (second trial: only Pass and Contra were in the bar, every higher bid and
    # Kapot below the board and the log): the whole auction sits in the opaque pinned bar
    grid = page.evaluate("""() => { const g = document.querySelector('.controls .bidbox');
        if (!g) return null; const bar = g.closest('.blot-controls'), r = g.getBoundingClientRect();
        const cs = getComputedStyle(bar);
        return {position: cs.position, bg: cs.backgroundColor, top: r.top, inner: innerHeight}; }""")
    if grid is not None:
        assert grid["position"] == "fixed" and grid["bg"] == "rgb(255, 255, 255)", grid
        assert 0 <= grid["top"] < grid["inner"], grid
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shoot(page, artifacts, "bazaar_blot-phone-pass")


def test_a_hands_result_stays_in_view_into_the_next_hand(server: Any, new_page: Any) -> None:
    """Second trial: the result of a showdown was replaced by the next hand about 2.5 s later
    (the pause between hands): it stays at least 8 s, or until closed."""
    page = new_page()
    enter(page, server.url, "Res")
    for _ in range(3):  # a hand that busts a player ends the match: no next hand; a new table
        create_table(page, "soldiers_bluff", seats=2, roles={1: "rule"},
                     options={"c-stack": "200"})
        play_until(page, "[data-summary] .hand-summary",
                   ["[data-act=confirm]", "[data-act=call]", "[data-act=check]",
                    "[data-act=pass]"], seconds=90)
        shown = time.monotonic()
        hand = int(page.locator(".pill[data-hand]").get_attribute("data-hand") or 0)
        # the next hand begins after the table's pause (1.5 s on this server)
        page.wait_for_selector(f".pill[data-hand='{hand + 1}'], [data-play-again]",
                               timeout=20_000)
        if page.locator(f".pill[data-hand='{hand + 1}']").count():
            break
        page.goto(f"{server.url}/#/")
    else:
        pytest.fail("three matches in a row ended with their first hand")
    if time.monotonic() - shown < 6:  # measured in time: the result is still there
        assert page.locator("[data-summary] .hand-summary").count() == 1
        page.click("[data-summary] .close")  # and the player may close it at once
        assert page.locator("[data-summary]").count() == 0
    else:
        pytest.skip("the machine took over 6 s to start the next hand: nothing measured")
