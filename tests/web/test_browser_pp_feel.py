"""Palace Poker at the table (issue 28 items 5 and 7): on a phone every decision's controls
sit in the opaque pinned bar and the result box is in view; a battle says why it was won
(each side's five cards, the suit left out, what decided)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright", reason="the playwright Python package is not installed")
from browserkit import create_table, enter, play_until, shoot  # after the importorskip

pytestmark = [pytest.mark.slow, pytest.mark.browser]

IN_VIEW = """(sel) => { const el = document.querySelector(sel); if (!el) return null;
  const r = el.getBoundingClientRect();
  return {top: r.top, bottom: r.bottom, inner: innerHeight}; }"""

BAR = """(sel) => { const el = document.querySelector(sel); const bar = el?.closest('.controls > *');
  if (!bar) return null; const cs = getComputedStyle(bar);
  return {position: cs.position, background: cs.backgroundColor}; }"""


READ_SUMMARY = """() => { const box = document.querySelector('[data-summary]');
  return { text: box.innerText, last_battle: !!box.querySelector('[data-last-battle]'),
    best: [...box.querySelectorAll('[data-hand-of]')].map(
      (li) => li.querySelectorAll('[data-best] [data-card]').length),
    battle_rule: !!box.querySelector('[data-compared=battle]'),
    excluded: box.querySelectorAll('[data-excluded]').length,
    verify: box.querySelector('[data-verify]')?.getAttribute('href') }; }"""


def _in_view(page: Any, sel: str) -> bool:
    box = page.evaluate(IN_VIEW, sel)
    return box is not None and box["top"] >= 0 and box["bottom"] <= box["inner"]


def test_phone_keep_all_sits_in_the_opaque_bar_and_the_result_in_view(
        server: Any, new_page: Any, artifacts: Path) -> None:
    page = new_page(390, 844)
    enter(page, server.url, "Pho")
    create_table(page, "palace_poker", seats=2, roles={1: "rule"}, options={"c-stack": "300"})
    # Buy: the discard decision after it offers "Keep all"
    keep = ".picker-box [data-act=confirm]"
    play_until(page, keep, ["[data-act=buy]", "[data-act=stay]"], seconds=90)
    page.wait_for_selector(f".controls {keep}")  # in the action bar, not down in the board
    assert _in_view(page, f".controls {keep}"), page.evaluate(IN_VIEW, f".controls {keep}")
    assert page.locator(".board .picker-box").count() == 0
    bar = page.evaluate(BAR, f".controls {keep}")
    assert bar == {"position": "fixed", "background": "rgb(255, 255, 255)"}, bar
    shoot(page, artifacts, "palace_poker-phone-bar")
    # every other decision is in the bar too; the hand's result box opens in view
    play_until(page, "[data-summary] .hand-summary",
               ["[data-act=confirm]", "[data-act=stay]", "[data-act=call]"], seconds=120)
    for sel in ("[data-summary] h2", "[data-summary] [data-reason]"):  # who won, and why
        assert _in_view(page, sel), (sel, page.evaluate(IN_VIEW, sel))
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_battle_says_why_it_was_won(server: Any, new_page: Any, artifacts: Path) -> None:
    page = new_page()
    enter(page, server.url, "Pia")
    create_table(page, "palace_poker", seats=2, roles={1: "rule"}, options={"c-stack": "300"})
    decided = "[data-summary] [data-decided]"
    for _ in range(8):  # a called battle or a showdown (the bot may fold a battle instead)
        play_until(page, "[data-summary] .hand-summary",
                   ["[data-act=battle]", "[data-act=call]", "[data-act=confirm]",
                    "[data-act=stay]"], seconds=90)
        if page.locator(decided).count():
            break
        page.wait_for_selector("[data-summary]", state="detached", timeout=20_000)
    else:
        pytest.fail("no battle called and no showdown in eight hands")
    # read at once: the next hand closes the box a few seconds later
    got = page.evaluate(READ_SUMMARY)
    shoot(page, artifacts, "palace_poker-battle")
    text = got["text"]
    assert "wins: " in text or "a tie" in text, text
    if got["last_battle"]:
        assert "won the battle against" in text, text  # not only "the only player left"
    assert len(got["best"]) == 2, got
    assert all(0 <= n <= 5 for n in got["best"]) and max(got["best"]) >= 1, got
    if got["battle_rule"]:
        assert got["excluded"] == 2, text  # the suit each side lost
    # the log line of a battle says what decided it too
    log = page.locator(".log-list").inner_text()
    assert " vs " not in log or "wins: " in log or "a tie" in log, log
    # "Verify deals": the verdict in words, the server's JSON a link away
    page.goto(f"{server.url}/{got['verify']}")
    verdict = page.wait_for_selector("[data-verify-page] [data-verified=true]")
    assert verdict.inner_text().startswith("✓ Fair: every deal is what the seeds give."), \
        verdict.inner_text()
    assert page.locator("[data-verify-page] [data-check]").count() == 3
    href = page.locator("[data-raw-json]").get_attribute("href") or ""
    assert page.request.get(f"{server.url}{href}").json()["verified"] is True
