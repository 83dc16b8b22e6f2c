"""Finished games as a player expects them (issue 28 items 9, 10): "Verify deals" opens a page
with the verdict in the player's language (the raw JSON a link away); a replay keeps the seat a
shared link names, opens a player's own game from their seat, draws open hands in place, and
a timed-out step reads naturally."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright", reason="the playwright Python package is not installed")
from browserkit import cards_shown, enter, shoot  # after the importorskip

from cardhall.engine import History, replay
from cardhall.selfplay import play_one
from cardhall.storage import SeatResult

pytestmark = [pytest.mark.slow, pytest.mark.browser]


def _seed(server: Any, game_id: str, game: str, seats: int, player: str | None = None,
          timeout_at: int | None = None) -> dict[str, Any]:
    """Save one self-played finished game into the running server's store; ``player`` holds
    seat 0; ``timeout_at``: that action is logged as played by the clock."""
    rec, _, _ = play_one(game, seats, seed=3, check=False)
    doc = rec.history.to_json()
    if player is not None:
        doc["seats"][0]["player_id"] = player
    if timeout_at is not None:
        doc["actions"][timeout_at]["timeout"] = True
    now = datetime.now(UTC)
    saving = server.app.state.store.save_game(
        game_id=game_id, game=game, table_id="t-web", history=doc,
        outcome=rec.state.outcome.to_json(), started_at=now, ended_at=now,
        results=[SeatResult(i, f"p{i}", 0, player if i == 0 else None) for i in range(seats)])
    asyncio.run_coroutine_threadsafe(saving, server.loop).result(10)
    return doc


def _my_id(page: Any) -> str:
    return str(page.evaluate("JSON.parse(localStorage.getItem('cardhall.player')).id"))


def test_verify_deals_opens_a_verdict_in_the_players_language(
        server: Any, new_page: Any, artifacts: Path) -> None:
    # a self-played game has no revealed seed: the check fails, and says so in words (a
    # fair verdict: test_browser_pp_feel.py, after a game played at a table)
    _seed(server, "web-ver", "soldiers_bluff", 3)
    page = new_page(locale="bg-BG")
    page.goto(f"{server.url}/#/replay/web-ver")
    link = page.wait_for_selector(".replay [data-verify]")
    assert link.get_attribute("href") == "#/verify/web-ver"
    link.click()
    verdict = page.wait_for_selector("[data-verify-page] [data-verified=false]")
    text = verdict.inner_text()
    assert "Проверката не мина" in text and "1 несъответствие" in text, text
    assert "Цялата игра: " in text, text  # where it failed; the server's reason as it is
    raw = page.locator("[data-raw-json]")
    assert raw.get_attribute("href") == "/api/games/web-ver/verify"
    shoot(page, artifacts, "verify-page")
    page.select_option("#lang", "hy")
    page.wait_for_function(
        "document.querySelector('[data-verified]').textContent.includes('Ստուգումը չանցավ')")
    page.select_option("#lang", "en")
    page.wait_for_function(
        "document.querySelector('[data-verified]').textContent.includes('The check failed')")


def test_a_non_players_seat_link_keeps_its_seat_showing_the_tables_view(
        server: Any, new_page: Any) -> None:
    _seed(server, "web-seat", "soldiers_bluff", 3)
    page = new_page()  # someone who did not play (no token: the table copy)
    page.goto(f"{server.url}/#/replay/web-seat?seat=1&step=4")
    page.wait_for_selector("[data-seat-note='1']")
    assert page.locator("#r-seat").input_value() == "1"
    assert "seat=1" in page.evaluate("location.hash")
    assert page.locator(".board .seat.perspective[data-seat='1']").count() == 1
    # the table's view: nothing of seat 1's hand the spectator did not see
    state = replay(History.from_json(server_doc(server, "web-seat")), upto=4)
    assert not cards_shown(page) & set(state.view(1)["hand"])
    page.click("[data-step=next]")
    page.wait_for_function("location.hash.includes('step=5') && location.hash.includes('seat=1')")


def test_a_seat_link_to_a_published_game_shows_that_seats_hand_to_anyone(
        server: Any, new_page: Any) -> None:
    """Second trial: a shared ``?seat=`` link of a finished Blot match (its full copy public by
    default) showed card backs to a visitor who had not played, while the server answers
    that seat's view to anyone."""
    _seed(server, "web-pub", "bazaar_blot", 4)
    page = new_page()  # never played, no token
    page.goto(f"{server.url}/#/replay/web-pub?seat=1&step=12")
    page.wait_for_selector(".board .seat.perspective[data-seat='1']")
    state = replay(History.from_json(server_doc(server, "web-pub")), upto=12)
    hand = set(state.view(1)["hand"])
    assert hand
    page.wait_for_function("(n) => document.querySelectorAll('.board [data-card]').length >= n",
                           arg=len(hand))
    assert hand <= cards_shown(page)
    assert page.locator("[data-seat-note]").count() == 0


def server_doc(server: Any, game_id: str) -> dict[str, Any]:
    got = asyncio.run_coroutine_threadsafe(server.app.state.store.get_game(game_id), server.loop)
    return dict(got.result(10))


def test_a_players_own_game_opens_from_their_seat_and_open_hands_sit_in_place(
        server: Any, new_page: Any, artifacts: Path) -> None:
    page = new_page()
    enter(page, server.url, "Nare")
    doc = _seed(server, "web-mine", "soldiers_bluff", 3, player=_my_id(page))
    page.goto(f"{server.url}/#/replay/web-mine?step=4")
    page.wait_for_function("location.hash.includes('seat=0')")
    assert page.locator("#r-seat").input_value() == "0"
    assert page.locator(".board .seat.me[data-seat='0']").count() == 1
    # open hands: every seat's cards face up at its seat on the board, no card backs left
    page.select_option("#r-seat", "open")
    page.wait_for_selector(".board[data-open-hands=full] [data-hand-seat='2'] [data-card]")
    state = replay(History.from_json(doc), upto=4)
    for seat in range(3):
        place = page.locator(f".board [data-hand-seat='{seat}']")
        shown = place.locator("[data-card]").evaluate_all("es => es.map(e => e.dataset.card)")
        assert shown == state.view(seat)["hand"], seat
        assert place.locator("xpath=..").locator(".seat[data-seat]").count() == 1
    assert page.locator(".board .card.back").count() == 0
    assert page.locator(".open-hands").count() == 0  # no boxes below the board
    shoot(page, artifacts, "replay-open-hands")


def test_a_timed_out_step_reads_naturally(server: Any, new_page: Any) -> None:
    # Bazaar Blot, seed 3: action 4 (seat 0's recontra) ends the auction: the contract follows
    doc = _seed(server, "web-late", "bazaar_blot", 4, timeout_at=4)
    assert doc["actions"][4]["seat"] == 0
    page = new_page()
    page.goto(f"{server.url}/#/replay/web-late?step=5")
    page.wait_for_function("document.querySelectorAll('.replay-events li').length >= 2")
    lines = page.locator(".replay-events li").all_inner_texts()
    assert lines[0].startswith("Time ran out for p0, so this was played: "), lines
    assert not any(x.startswith("Timeout:") for x in lines), lines
    assert any(x.startswith("Contract: ") for x in lines[1:]), lines


def test_a_signed_in_non_player_replays_with_no_refused_request(
        server: Any, new_page: Any) -> None:
    """Last session: replaying a game one did not play logged a 403 in the console: the page
    asked every signed-in viewer for the full copy (``full=1``), which only a player may have,
    and fell back to the table copy on the refusal."""
    _seed(server, "web-np", "soldiers_bluff", 3)
    page = new_page()  # the console fixture fails the test on any console error
    enter(page, server.url, "Vahe")  # signed in, but never at that table
    refused: list[str] = []
    page.on("response", lambda r: refused.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    for link in ("#/replay/web-np", "#/replay/web-np?seat=1&step=4", "#/replay/web-np?seat=open"):
        page.goto(f"{server.url}/{link}")
        page.reload()  # each link as a fresh visit (the hash alone would not reload)
        page.wait_for_selector(".replay .board [data-seat]")
        page.click("[data-step=next]")
        page.wait_for_selector("[data-table-copy]")
    assert refused == [], refused
