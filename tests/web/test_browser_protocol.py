"""The browser on protocol 2's state deltas, with its WebSocket routed through Playwright: a
delta that never reaches the page leaves it one version behind, the next delta does not fit,
and the page asks for one ``resync``, takes the full state and plays on (no stale act). Any
console error fails the test (the ``console`` fixture)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cardhall.protocol.messages import PROTOCOL_VERSION

pytest.importorskip("playwright", reason="the playwright Python package is not installed")
from browserkit import create_table, enter, play_until  # after the importorskip: needs playwright

pytestmark = [pytest.mark.slow, pytest.mark.browser,
              pytest.mark.skipif(PROTOCOL_VERSION < 2, reason="the server speaks protocol 1 "
                                 "(no state deltas to drop)")]


class WireTap:
    """Routes a page's ``/ws`` through Playwright: records both directions and drops the first
    server delta that ``drop(msg)`` selects."""

    def __init__(self, drop: Any) -> None:
        self.drop = drop
        self.to_server: list[dict[str, Any]] = []
        self.to_page: list[dict[str, Any]] = []  # as delivered (the dropped frame is not here)
        self.dropped: dict[str, Any] | None = None

    def route(self, ws: Any) -> None:
        upstream = ws.connect_to_server()

        def page_sends(raw: str | bytes) -> None:
            self.to_server.append({**json.loads(raw), "_after": len(self.to_page)})
            upstream.send(raw)

        def server_sends(raw: str | bytes) -> None:
            msg = json.loads(raw)
            if self.dropped is None and self.drop(msg):
                self.dropped = msg
                return
            self.to_page.append(msg)
            ws.send(raw)

        ws.on_message(page_sends)
        upstream.on_message(server_sends)


def test_a_missed_delta_resyncs_once_and_play_goes_on(server: Any, new_page: Any) -> None:
    page = new_page()

    def bots_turn_next(msg: dict[str, Any]) -> bool:
        # a step after which the bot (table seat 1) moves at once: the next delta comes by itself
        return (msg.get("type") == "state" and msg.get("full") is False
                and msg.get("status") == "playing" and bool(msg.get("events"))
                and msg.get("to_act") == [1])

    tap = WireTap(bots_turn_next)
    page.route_web_socket("**/ws", tap.route)
    enter(page, server.url, "Aram")
    create_table(page, "soldiers_bluff", seats=2, roles={1: "rule"})
    play_until(page, "[data-summary] .hand-summary",
               ["[data-act=confirm]", "[data-act=check]", "[data-act=call]", "[data-act=pass]"],
               seconds=60)
    assert tap.dropped is not None, "no delta was dropped: the test did not test the gap"
    resyncs = [m for m in tap.to_server if m["type"] == "resync"]
    assert len(resyncs) == 1, resyncs
    # the first delta after the dropped one did not fit, and the page asked then, not before
    misfit = next(i for i, m in enumerate(tap.to_page)
                  if m.get("type") == "state" and m.get("full") is False
                  and m["version"] > tap.dropped["version"])
    assert tap.to_page[misfit]["base_version"] == tap.dropped["version"]
    assert resyncs[0]["_after"] > misfit
    fulls = [m for m in tap.to_page[resyncs[0]["_after"]:] if m.get("type") == "state" and m["full"]]
    assert fulls, "no full state after the resync"
    # every act the page sent after that was on the version the server held
    errors = [m for m in tap.to_page if m.get("type") == "error"]
    assert not [e for e in errors if e.get("code") == "table.stale_version"], errors
    assert "Winner:" in page.locator("[data-summary]").inner_text()
