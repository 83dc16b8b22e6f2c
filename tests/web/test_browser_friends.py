"""Playing with friends and leaving: a friend joins a private table through the invite link,
the waiting room shows who sits where, the two browsers chat (text only); leaving mid-Blot
asks first, a stand-in plays the seat, and coming back takes it back."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright", reason="the playwright Python package is not installed")
from browserkit import enter, shoot  # after the importorskip

pytestmark = [pytest.mark.slow, pytest.mark.browser]


def test_friend_joins_by_invite_link_and_they_chat(server: Any, new_page: Any,
                                                   artifacts: Path) -> None:
    host = new_page()
    enter(host, server.url, "Host")
    host.select_option("#c-game", "soldiers_bluff")
    host.select_option("#c-seats", "2")
    host.select_option("#c-seat-1", "human")
    host.check("#c-private")
    host.click("#c-create")
    host.wait_for_selector("[data-waiting-room] [data-seat='0']")
    link = host.locator(".invite-link").input_value()
    assert re.search(r"#/invite/\w+/\S+$", link)
    tid = link.split("#/invite/")[1].split("/")[0]
    assert "Host" in host.locator("[data-waiting-room]").inner_text()
    # the private table is not in the lobby
    friend = new_page()
    enter(friend, server.url, "Friend")
    friend.wait_for_timeout(300)
    assert friend.locator(f"[data-table='{tid}']").count() == 0
    shoot(host, artifacts, "invite-waiting-room")
    friend.goto(link)
    friend.wait_for_selector(".board")
    host.wait_for_selector(".hand-box [data-card]")  # both seated: the hand began
    friend.fill(".chat-input", "<b>hello</b> friend")
    friend.press(".chat-input", "Enter")
    host.wait_for_selector(".chat-list li .chat-text")
    assert host.locator(".chat-list li .chat-text").first.inner_text() == "<b>hello</b> friend"
    assert host.locator(".chat-list b").count() == 0  # text, never markup
    host.fill(".chat-input", "hi!")
    host.press(".chat-input", "Enter")
    friend.wait_for_function("document.querySelectorAll('.chat-list li').length === 2")
    shoot(friend, artifacts, "chat")
    # mute: the friend's lines disappear from the host's chat
    host.click(".chat-list [data-mute]")
    assert host.locator(".chat-list li").count() == 1


def test_leave_mid_blot_stand_in_plays_and_return_takes_the_seat(server: Any, new_page: Any,
                                                                  artifacts: Path) -> None:
    page = new_page()
    enter(page, server.url, "Lea")
    page.select_option("#c-game", "bazaar_blot")
    page.click("#c-create")
    page.wait_for_selector(".hand [data-card]")
    tid = page.url.split("#/table/")[1].split("/")[0]
    page.on("dialog", lambda d: d.accept())  # "Leave the table? A stand-in bot plays..."
    page.click("a.leave")
    page.wait_for_url(re.compile(r"#/$"))
    table = server.table(tid)
    page.wait_for_timeout(300)
    assert table.seats[0].stand_in == "left" and table.seats[0].player_id is not None
    moves = len(table.recorder.history.actions)
    page.wait_for_timeout(1500)  # the stand-in plays at bot pace
    assert len(table.recorder.history.actions) > moves
    page.goto(f"{server.url}/#/table/{tid}")
    page.wait_for_selector(".seat.me")
    page.wait_for_timeout(300)
    assert table.seats[0].stand_in is None and table.seats[0].conn is not None
    assert not any(a.get("timeout") and a["seat"] == 0
                   for a in table.recorder.history.to_json()["actions"])


def test_a_third_friend_on_a_full_private_tables_link_is_told_in_words_and_may_watch(
        server: Any, new_page: Any) -> None:
    """Second trial: the invite link of a full private table answered a raw English
    ``table.no_free_seat: every seat is taken`` with no way to watch."""
    host = new_page()
    enter(host, server.url, "Host")
    host.select_option("#c-game", "soldiers_bluff")
    host.select_option("#c-seats", "2")
    host.select_option("#c-seat-1", "human")
    host.check("#c-private")
    host.click("#c-create")
    host.wait_for_selector("[data-waiting-room] [data-seat='0']")
    link = host.locator(".invite-link").input_value()
    friend = new_page()
    enter(friend, server.url, "Friend")
    friend.goto(link)
    host.wait_for_selector(".hand-box [data-card]")  # both seated: the table is full
    third = new_page(locale="bg-BG")
    enter(third, server.url, "Third")
    third.goto(link)
    watch = third.wait_for_selector("[data-watch-instead]")
    assert "Всички места на тази маса са заети." in third.locator(".error-line").inner_text()
    assert "no_free_seat" not in third.locator(".error-line").inner_text()
    watch.click()
    third.wait_for_selector(".board")
    third.wait_for_function("location.hash.startsWith('#/watch/')")
