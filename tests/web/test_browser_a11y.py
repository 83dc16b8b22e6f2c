"""Accessibility (issue 28): axe-core (the axe-playwright-python package, which ships axe's
minified script) finds no serious or critical violation on any screen: the lobby, each game's
table at a decision (and its shortcut help), a replay, the rules, the leaderboards, the account page and the finished
games; and an ARIA live region tells screen readers "your turn" and the cards played."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

import pytest

pytest.importorskip("playwright", reason="the playwright Python package is not installed")
pytest.importorskip("axe_playwright_python", reason="the axe-playwright-python package is not installed")
from axe_playwright_python.sync_playwright import Axe  # after the importorskip
from browserkit import create_table, enter, finished_swiss, play_until  # after the importorskip

from cardhall.selfplay import play_one
from cardhall.storage import SeatResult

pytestmark = [pytest.mark.slow, pytest.mark.browser]

AXE = Axe()
BAD = {"serious", "critical"}


def bad_violations(page: Any) -> list[str]:
    """axe's serious and critical violations on the page as it is: "rule: target (summary)"."""
    results = AXE.run(page)
    out = []
    for v in results.response["violations"]:
        if v.get("impact") not in BAD:
            continue
        for node in v["nodes"]:
            out.append(f"{v['id']}: {node['target']} ({node.get('failureSummary', '')[:160]})")
    return out


def _seed(server: Any, game_id: str, game: str, seats: int) -> None:
    rec, _, _ = play_one(game, seats, seed=3, check=False)
    now = datetime.now(UTC)
    returns = list(rec.state.outcome.returns)
    saving = server.app.state.store.save_game(
        game_id=game_id, game=game, table_id="t-a11y", history=rec.history.to_json(),
        outcome=rec.state.outcome.to_json(), started_at=now, ended_at=now,
        results=[SeatResult(i, f"p{i}", returns[i], None, True) for i in range(seats)])
    asyncio.run_coroutine_threadsafe(saving, server.loop).result(10)


@pytest.mark.parametrize("path,ready", [
    ("/#/", "#c-game"),
    ("/#/games", "main h1"),
    ("/#/rules", "main h1"),
    ("/#/rules/bazaar_blot", "main h1"),
    ("/#/ratings", "main h1"),
    ("/#/account", "main h1"),
    ("/#/tournaments", "main h1"),
])
def test_pages_have_no_serious_axe_violation(server: Any, new_page: Any, path: str, ready: str) -> None:
    page = new_page()
    enter(page, server.url, "Ada")
    page.goto(server.url + path)
    page.wait_for_selector(ready)
    page.wait_for_load_state("networkidle")
    assert bad_violations(page) == []


def test_the_name_form_has_no_serious_axe_violation(server: Any, new_page: Any) -> None:
    page = new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#name")
    assert bad_violations(page) == []


def test_a_tournament_page_has_no_serious_axe_violation(server: Any, new_page: Any) -> None:
    doc = finished_swiss(server.url)
    page = new_page()
    enter(page, server.url, "Ada")
    page.goto(f"{server.url}/#/tournaments/{doc['id']}")
    page.wait_for_selector("[data-standings]")
    page.wait_for_load_state("networkidle")
    assert bad_violations(page) == []


def test_a_replay_has_no_serious_axe_violation(server: Any, new_page: Any) -> None:
    _seed(server, "a11y-sb", "soldiers_bluff", 3)
    page = new_page()  # not signed in: a player who was not at the table gets a 403 for the copy
    page.goto(f"{server.url}/#/replay/a11y-sb?seat=open&step=3")
    page.wait_for_selector("[data-step-label]")
    page.wait_for_load_state("networkidle")
    assert bad_violations(page) == []


@pytest.mark.parametrize("game,seats,roles,options", [
    ("bazaar_blot", None, {1: "rule", 2: "rule", 3: "rule"}, {}),
    ("palace_poker", 3, {1: "random", 2: "random"}, {"c-stack": "100"}),
    ("soldiers_bluff", 3, {1: "rule", 2: "rule"}, {"c-stack": "60"}),
])
def test_each_table_at_a_decision_has_no_serious_axe_violation(
        server: Any, new_page: Any, game: str, seats: int | None, roles: dict[int, str],
        options: dict[str, str]) -> None:
    page = new_page()
    enter(page, server.url, "Ada")
    create_table(page, game, seats=seats, roles=roles, options=options, turn_seconds=60)
    page.wait_for_selector(".turn-banner.mine .controls, .turn-banner.mine", timeout=30_000)
    page.wait_for_selector(".controls [data-act], .board [data-act]")
    assert bad_violations(page) == []
    page.click("[data-keys]")  # the shortcut help over the table
    page.wait_for_selector("[data-keys-help]")
    assert bad_violations(page) == []


def test_a_live_region_says_your_turn_and_the_cards_played(server: Any, new_page: Any) -> None:
    page = new_page()
    enter(page, server.url, "Ada")
    create_table(page, "bazaar_blot", roles={1: "rule", 2: "rule", 3: "rule"},
                 options={"c-cfg-target_score": "101"}, turn_seconds=60)
    live = page.locator("#announcer")
    assert live.get_attribute("aria-live") == "polite"
    page.evaluate("""() => { window.said = [];
      new MutationObserver(() => { const x = document.querySelector('#announcer').textContent;
        if (x) window.said.push(x); }).observe(document.querySelector('#announcer'),
        { childList: true, subtree: true, characterData: true }); }""")
    play_until(page, ".trick [data-card]", [".card[data-act=play]", "[data-act=pass]"], seconds=90)
    page.wait_for_function("window.said.some((x) => / plays /.test(x))", timeout=30_000)
    said = page.evaluate("window.said")
    assert any("Your turn" in x for x in said), said
