"""The browser client end to end: Debian's Chromium (headless, via Playwright) against the real
app. For each game: sign in from the lobby, create a table with bots, play the hand or deal by
clicking only the controls the page offers (built from the server's legal actions), check the
summary; a reload mid-hand resumes the seat; a spectator sees no hidden card; screenshots at
desktop and phone width. Any console error fails the test (the ``console`` fixture)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from cardhall.games.soldiers_bluff.cards import DECK

pytest.importorskip("playwright", reason="the playwright Python package is not installed")
from browserkit import (  # after the importorskip: needs playwright
    cards_shown,
    create_table,
    enter,
    my_turn,
    play_until,
    screenshots,
    sit_down,
)

pytestmark = [pytest.mark.slow, pytest.mark.browser]


def _hidden_from_spectator(server: Any, table_id: str) -> set[str]:
    table = server.table(table_id)
    return set(table.recorder.state.hidden_from(None))


def _wait_my_turn(page: Any, seconds: float = 20.0) -> None:
    """Wait until the seat's own clock runs (not an out-of-turn contra chance, which a bot's
    next move may close at any moment)."""
    page.wait_for_selector(".turn-banner.mine.own", timeout=seconds * 1000)


def test_bazaar_blot_deal(server: Any, new_page: Any, artifacts: Path) -> None:
    page = new_page()
    enter(page, server.url, "Ana")
    tid = create_table(page, "bazaar_blot", roles={1: "rule", 2: "rule", 3: "rule"},
                       options={"c-cfg-target_score": "101"})
    _wait_my_turn(page)
    assert page.locator(".hand [data-card]").count() == 8
    # the log names the match (not "Hand 1") and its dealer once, then the own cards
    lines = page.locator(".log-list li").all_inner_texts()
    assert re.fullmatch(r"Match 1 begins; \S+ deals\.", lines[0]), lines[:3]
    assert lines[1].startswith("You get ") and sum("deals" in x for x in lines) == 1, lines[:3]
    # the bidding box or the play controls come from the legal actions only (wait: a bot's
    # out-of-turn move may redraw the screen between the banner and the controls)
    page.wait_for_selector(".controls [data-act], .board [data-act]", timeout=20_000)

    # a spectator in another browser sees no card hidden from spectators
    spec = new_page()
    enter(spec, server.url, "Watcher")
    spec.goto(f"{server.url}/#/watch/{tid}")
    spec.wait_for_selector(".board .seat")
    assert spec.locator(".pill.watch").count() == 1 and spec.locator(".hand").count() == 0
    # joined mid-hand: the log says earlier events are not shown
    assert "Joined mid-hand" in spec.locator(".log-list").inner_text()
    _wait_my_turn(page)  # the table waits for Ana: a stable moment
    spec.wait_for_timeout(300)
    assert not cards_shown(spec) & _hidden_from_spectator(server, tid)

    bid_once = {"done": False}

    def on_turn(p: Any, n: int) -> None:
        if not bid_once["done"] and p.locator(".bidbox [data-act=bid]").count():
            p.locator(".bidbox [data-act=bid]").first.click()
            bid_once["done"] = True
            p.wait_for_timeout(100)
        elif p.locator(".card[data-act=play]").count() and not keyboard["done"]:
            # keyboard play: focus a playable card and press Enter
            p.locator(".card[data-act=play]").first.focus()
            p.keyboard.press("Enter")
            keyboard["done"] = True
            p.wait_for_selector(".log-list li:has-text('Ana plays')")

    keyboard = {"done": False}

    # play a few cards, then reload mid-deal: the same seat and hand come back
    play_until(page, ".trick .slot, [data-summary]", [".card[data-act=play]", "[data-act=pass]"],
               on_turn=on_turn)
    _wait_my_turn(page)
    screenshots(page, artifacts, "bazaar_blot")
    before = sorted(e for e in page.eval_on_selector_all(".hand [data-card]", "es => es.map(e => e.dataset.card)"))
    log_before = page.locator(".log-list li").all_inner_texts()
    page.reload()
    page.wait_for_selector(".hand [data-card]")
    _wait_my_turn(page)
    # the log comes back from sessionStorage, without a "joined mid-hand" line
    assert page.locator(".log-list li").all_inner_texts()[:len(log_before)] == log_before
    assert "Joined mid-hand" not in page.locator(".log-list").inner_text()
    assert page.locator(".table-head [data-hand]").inner_text() == "Deal 1"
    after = sorted(page.eval_on_selector_all(".hand [data-card]", "es => es.map(e => e.dataset.card)"))
    assert after == before
    assert page.locator(".seat.me .name").inner_text() == "Ana"
    assert not cards_shown(spec) & _hidden_from_spectator(server, tid)

    play_until(page, "[data-summary] .deal-summary", [".card[data-act=play]", "[data-act=pass]"])
    summary = page.locator("[data-summary]").inner_text()
    for word in ("Deal 1", "Card points", "Small points", "Combinations", "Match score"):
        assert word in summary, summary
    assert ("Contract made" in summary) or ("Contract failed" in summary)
    log = page.locator(".log-list").inner_text()
    assert "plays" in log and "takes the trick" in log
    page.screenshot(path=str(artifacts / "bazaar_blot-summary.png"))
    # deal 2: who deals, then the own cards
    page.wait_for_function("[...document.querySelectorAll('.log-list li')]"
                           ".filter((e) => e.textContent.startsWith('You get ')).length === 2",
                           timeout=20_000)
    lines = page.locator(".log-list li").all_inner_texts()
    second = [i for i, x in enumerate(lines) if x.startswith("You get ")][1]
    assert re.fullmatch(r"\S+ deals\.", lines[second - 1]), lines[second - 3:second + 1]


def test_soldiers_bluff_hand_languages_and_replay(server: Any, new_page: Any,
                                                 artifacts: Path) -> None:
    page = new_page(locale="bg-BG")
    enter(page, server.url, "Gor")
    assert page.locator("h1").first.inner_text() == "Лоби"  # the browser language picks bg
    assert page.locator("[data-quick=soldiers_bluff]").inner_text() == "Войнишки блъф"
    page.select_option("#lang", "en")  # the whole lobby redraws, quick seat included
    assert page.locator(".row.quick").inner_text().startswith("Quick seat:")
    assert page.locator("[data-quick=soldiers_bluff]").inner_text() == "Soldier's Bluff"
    create_table(page, "soldiers_bluff", seats=3, roles={1: "rule", 2: "random"},
                 options={"c-stack": "60"}, turn_seconds=3)
    # let the first decision time out: the log says so in words
    page.wait_for_selector(".log-list li.timeout", timeout=15_000)
    assert "Timeout:" in page.locator(".log-list li.timeout").first.inner_text()
    # the own six cards (bots may end the hand before Gor's next turn, so no turn is awaited)
    page.wait_for_function("document.querySelectorAll('.hand [data-card], .picker [data-card]').length === 6")
    # card names in the three languages, from the ids in the page
    ids = page.eval_on_selector_all(".hand [data-card], .picker [data-card]",
                                    "es => es.map(e => e.dataset.card)")
    assert len(ids) == 6
    names = {c.id: c for c in DECK}
    label = page.locator(f"[data-card='{ids[0]}']").first.get_attribute("aria-label") or ""
    assert label.startswith(names[ids[0]].en)
    page.select_option("#lang", "bg")
    label = page.locator(f"[data-card='{ids[0]}']").first.get_attribute("aria-label") or ""
    assert label.startswith(names[ids[0]].bg)
    page.select_option("#lang", "hy")
    assert page.locator("header nav a").first.inner_text() == "Սրահ"
    label = page.locator(f"[data-card='{ids[0]}']").first.get_attribute("aria-label") or ""
    assert label.startswith(names[ids[0]].hy), "the names come from GET /api/rules/.../cards"
    page.select_option("#lang", "en")
    screenshots(page, artifacts, "soldiers_bluff")

    def on_turn(p: Any, n: int) -> None:
        # use the bet slider once: drag to its top (bounded by max_to) and bet
        slider = p.locator(".range-control input[type=range]")
        if n == 1 and slider.count():
            hi = slider.first.get_attribute("max")
            slider.first.fill(hi or "1")
            p.locator(".range-control [data-act]").first.click()

    play_until(page, "[data-summary] .hand-summary",
               ["[data-act=confirm]", "[data-act=check]", "[data-act=call]", "[data-act=pass]"],
               on_turn=on_turn, seconds=60)
    summary = page.locator("[data-summary]").inner_text()
    assert "Winner:" in summary and "Chips won or lost" in summary
    # the game-over summary links to the check of the deals (docs/fairness.md): the verify page
    verify = page.locator("[data-summary] [data-verify]")
    assert verify.inner_text() == "Verify deals"
    href = verify.get_attribute("href") or ""
    assert href.startswith("#/verify/")
    page.screenshot(path=str(artifacts / "soldiers_bluff-summary.png"))

    # replay the finished hand from Gor's seat, stepping with the controls
    page.goto(f"{server.url}/#/games")
    page.wait_for_selector(".game-row")
    page.locator(".game-row a[href^='#/replay/']").first.click()
    page.wait_for_selector("[data-step-label]")
    page.click("[data-step=next]")
    page.wait_for_function("document.querySelector('[data-step-label]').textContent.startsWith('Step 1 ')")
    page.select_option("#r-seat", "0")
    page.click("[data-step=last]")
    page.wait_for_selector(".replay [data-summary]")
    assert "Winner:" in page.locator(".replay [data-summary]").inner_text()
    assert page.locator(".replay [data-verify]").get_attribute("href") == href
    api = "/api/games/" + href.removeprefix("#/verify/") + "/verify"
    verdict = page.request.get(f"{server.url}{api}").json()
    assert verdict["verified"] is True and verdict["mismatches"] == []
    page.screenshot(path=str(artifacts / "replay.png"))


def test_palace_poker_hand(server: Any, new_page: Any, artifacts: Path) -> None:
    page = new_page()
    enter(page, server.url, "Lilit")
    tid = create_table(page, "palace_poker", seats=3, roles={1: "random", 2: "random"},
                       options={"c-stack": "100"})
    _wait_my_turn(page)
    assert page.locator(".hand [data-card]").count() == 3  # own palace
    spec = new_page(390, 844)
    enter(spec, server.url, "Ani")
    spec.goto(f"{server.url}/#/watch/{tid}")
    spec.wait_for_selector(".board .seat")
    _wait_my_turn(page)
    spec.wait_for_timeout(300)
    assert not cards_shown(spec) & _hidden_from_spectator(server, tid)
    screenshots(page, artifacts, "palace_poker")

    page.reload()
    page.wait_for_selector(".hand [data-card]")
    assert page.locator(".seat.me .name").inner_text() == "Lilit"
    _wait_my_turn(page)  # the table waited for the seat while the page reloaded
    assert my_turn(page)
    # a dropped connection (closed by the server) comes back to the same seat by itself
    conn = server.table(tid).seats[0].conn
    server.call(conn.close, 1012)
    page.wait_for_selector(".table-screen[data-connects='2']", timeout=10_000)
    assert page.locator(".conn-status.offline").count() == 0
    _wait_my_turn(page)
    assert server.table(tid).seats[0].conn is not conn
    assert page.locator(".seat.me .name").inner_text() == "Lilit"
    play_until(page, "[data-summary] .hand-summary",
               ["[data-act=confirm]", "[data-act=call]", "[data-act=battle]", "[data-act=stay]"],
               seconds=60)
    summary = page.locator("[data-summary]").inner_text()
    winners = page.locator("[data-summary] h2").inner_text()
    assert ("Winner: " in winners and ", " not in winners) or ("Winners: " in winners and ", " in winners), winners
    reason = page.locator("[data-summary] [data-reason]")
    assert "_" not in reason.inner_text(), summary  # the outcome reason in words
    page.wait_for_selector(".turn-banner:has-text('Next hand soon')")  # between hands
    page.screenshot(path=str(artifacts / "palace_poker-summary.png"))
    # the lobby lists the table with Lilit seated
    page.goto(f"{server.url}/#/")
    page.wait_for_selector(f"[data-table='{tid}']")
    page.screenshot(path=str(artifacts / "lobby.png"))


def test_lobby_quick_seat_and_sit(server: Any, new_page: Any) -> None:
    """Quick seat puts a lone player at a table whose other seats are rule bots, so the hand
    starts at once; a table with an open seat is listed live and a second person sits there."""
    aram = new_page()
    enter(aram, server.url, "Aram")
    aram.click("[data-quick=soldiers_bluff]")
    aram.wait_for_url(re.compile(r"#/table/"))
    sit_down(aram)  # Soldier's Bluff is played with chips: the buy-in form comes first
    aram.wait_for_selector(".board .seat.me")
    aram.wait_for_function("document.querySelectorAll('.hand [data-card]').length === 6",
                           timeout=20_000)
    ana = new_page()
    enter(ana, server.url, "Ana")
    tid = create_table(ana, "soldiers_bluff", seats=2, roles={1: "human"})
    ana.wait_for_selector(".turn-banner:has-text('Waiting for players')")
    gor = new_page(390, 844)
    enter(gor, server.url, "Gor")
    gor.wait_for_selector(f"[data-table='{tid}'] [data-join]")  # the lobby polls the tables
    gor.locator(f"[data-table='{tid}'] [data-join]").first.click()
    sit_down(gor)
    for page in (ana, gor):
        page.wait_for_selector(".board .seat.me")
        page.wait_for_selector(".board .seat:has-text('Ana')")
        page.wait_for_selector(".board .seat:has-text('Gor')")
    # both hold six cards of their own, and neither page shows the other's
    for page in (ana, gor):
        page.wait_for_function("document.querySelectorAll('.hand [data-card]').length === 6",
                               timeout=20_000)
    ana_cards = set(cards_shown(ana))
    gor_cards = set(cards_shown(gor))
    assert len(ana_cards) == 6 and len(gor_cards) == 6 and not ana_cards & gor_cards


def test_out_of_chips_offers_the_lobby(server: Any, new_page: Any) -> None:
    """One chip each and an ante of one: after the hand one seat has no chips, and the table
    says so (out of chips, or waiting for players with chips) with a way back to the lobby."""
    page = new_page()
    enter(page, server.url, "Aram")
    create_table(page, "soldiers_bluff", seats=2, roles={1: "rule"},
                 options={"c-stack": "1", "c-cfg-ante": "1"})
    play_until(page, ".turn-banner [data-leave]",
               ["[data-act=confirm]", "[data-act=check]", "[data-act=call]", "[data-act=pass]"],
               seconds=90)  # a bounded wait: a loaded machine needed over 30 s
    banner = page.locator(".turn-banner").inner_text()
    assert "You are out of chips." in banner or "Waiting for players with chips (1/2 have chips)" in banner, banner
    page.click(".turn-banner [data-leave]")
    page.wait_for_selector("#c-game")
