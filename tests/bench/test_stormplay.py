"""The reconnect storm's table traffic (``bench/stormplay.py``) and the storm part's headline
(``bench/storms.py``): which seat acts, what counts as a refused act and what as a socket
closed while playing, and the window split. Fake sockets, no server; times are passed in."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import orjson
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.frames import Close

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from stormplay import Play, Seat, window_report
from storms import brief, summary

from cardhall.engine.actions import matches


class FakeWs:
    """Records what is sent; ``recv`` hands out ``frames`` then raises ``closed``."""

    def __init__(self, frames: list[dict[str, Any]] | None = None,
                 closed: ConnectionClosed | None = None) -> None:
        self.frames, self.closed = list(frames or []), closed
        self.out: list[dict[str, Any]] = []

    async def send(self, text: str) -> None:
        self.out.append(orjson.loads(text))

    async def recv(self, decode: bool = True) -> bytes:
        if self.frames:
            return orjson.dumps(self.frames.pop(0))
        assert self.closed is not None
        raise self.closed


LEGAL: list[dict[str, Any]] = [{"type": "bid", "trump": "h", "min_level": 8, "max_level": 16}, {"type": "pass"}]


def state(version: int, legal: list[dict[str, Any]] | None = None,
          table_id: str = "t1") -> dict[str, Any]:
    return {"type": "state", "table_id": table_id, "version": version, "status": "playing",
            "legal_actions": legal or []}


def seated(play: Play, seat: int, ws: FakeWs | None = None) -> Seat:
    table = play.table("t1")
    s = table.seats[seat] = Seat(play, table, seat, ws or FakeWs())
    return s


def test_window_report_splits_by_send_time_and_counts_refusals_by_code() -> None:
    acts = [(1.0, 0.010), (2.0, 0.020), (5.0, 0.004), (9.0, 0.5)]
    refusals = [(1.5, "table.stale_version"), (2.5, "table.stale_version"), (6.0, "x")]
    storm = window_report(acts, refusals, 1.0, 5.0)
    assert storm["acts"] == 4 and storm["accepted"] == 2
    assert storm["latency"]["max_ms"] == 20.0
    assert storm["refused_by"] == {"table.stale_version": 2}
    after = window_report(acts, refusals, 5.0, 8.0)
    assert (after["acts"], after["accepted"], after["refused_by"]) == (2, 1, {"x": 1})
    assert window_report([], [], 0.0, 1.0)["latency"]["p99_ms"] is None


async def test_the_seat_holding_the_newest_offer_acts_once_per_tick() -> None:
    play = Play(1.0)
    s0, s2 = seated(play, 0), seated(play, 2)
    await play.on_frame(s0, state(4), 0.0)  # seat 0 is offered nothing
    await play.on_frame(s2, state(4, LEGAL), 0.0)
    await play.fire(play.table("t1"))
    assert s0.ws.out == []
    (act,) = s2.ws.out
    assert act["type"] == "act" and act["version"] == 4 and act["table_id"] == "t1"
    assert any(matches(e, act["action"]) for e in LEGAL)
    await play.fire(play.table("t1"))  # no new offer: no second act at version 4
    assert len(s2.ws.out) == 1 and play.table("t1").pending
    await play.on_frame(s0, state(5, LEGAL), 0.0)  # a late tick fires on the offer's arrival
    assert [m["version"] for m in s0.ws.out] == [5]
    assert not play.table("t1").pending


async def test_answers_are_timed_and_an_acts_error_is_no_refusal_of_the_socket() -> None:
    play = Play(1.0)
    s1 = seated(play, 1)
    for version in (3, 4, 5):
        await play.on_frame(s1, state(version, LEGAL), 0.0)
        await play.fire(play.table("t1"))
    first, second, third = (m["action_id"] for m in s1.ws.out)
    play.sent.update({first: 10.0, second: 11.0})
    await play.on_frame(s1, {"type": "accepted", "table_id": "t1", "version": 4,
                             "action_id": first}, 10.25)
    await play.on_frame(s1, {"type": "error", "code": "table.stale_version", "table_id": "t1",
                             "request": {"type": "act", "action_id": second}}, 11.5)
    assert play.acts == [(10.0, pytest.approx(0.25))]
    assert play.refusals == [(11.0, "table.stale_version")]
    assert play.errors_while_playing == {} and s1.last_error == ""
    await play.on_frame(s1, {"type": "error", "code": "server.unavailable"}, 12.0)
    assert play.errors_while_playing == {"server.unavailable": 1}
    assert s1.last_error == "server.unavailable"
    report = play.report(10.0, 11.2, 20.0)
    assert report["storm"]["accepted"] == 1 and report["after"]["acts"] == 0
    assert report["unanswered"] == 1 and play.sent.keys() == {third}
    assert report["tables_played"] == 1


async def test_a_close_while_playing_counts_by_the_last_error_or_the_close_code() -> None:
    play = Play(1.0)
    lost = ConnectionClosed(Close(1011, "internal error"), None)
    ws = FakeWs([state(2, LEGAL), {"type": "error", "code": "server.unavailable"}], lost)
    play.attach({"table_id": "t1", "seat": 3}, ws, [state(1)])
    await play.readers[-1]
    assert play.closed_while_playing == {"server.unavailable": 1}
    assert play.table("t1").seats[3] is None and play.table("t1").offers == {}
    play.attach({"table_id": "t1", "seat": 0}, FakeWs([], lost), [])
    await play.readers[-1]
    assert play.closed_while_playing == {"server.unavailable": 1, "closed 1011": 1}
    play.closing = True  # our own close at the end counts nowhere
    play.attach({"table_id": "t1", "seat": 1}, FakeWs([], lost), [])
    await play.readers[-1]
    assert sum(play.closed_while_playing.values()) == 2


def test_the_headline_keeps_the_play_figures_and_the_summary_drops_the_tables() -> None:
    window = {"latency": {"p99_ms": 12.5}, "refused_by": {"table.stale_version": 3}}
    arm = {"sockets": 8, "seated": 8, "refused": 0, "refused_by": {}, "latency": {"p99_ms": 9.0},
           "play": {"storm": window, "after": {"latency": {"p99_ms": 4.0}, "refused_by": {}},
                    "closed_while_playing": {}}}
    head = brief(arm)
    assert head is not None and head["p99_ms"] == 9.0
    assert head["play"] == {"act_p99_ms": {"storm": 12.5, "after": 4.0},
                            "acts_refused_by": {"storm": {"table.stale_version": 3},
                                                "after": {}},
                            "closed_while_playing": {}}
    part = {"tables": 2, "play": {"after": head, "time_ratio_to_bare": 2.0,
                                  "latency": {"after": {}}, "play": {"after": arm["play"]}}}
    assert summary(part) == {"tables": 2, "play": {"after": head, "time_ratio_to_bare": 2.0}}
