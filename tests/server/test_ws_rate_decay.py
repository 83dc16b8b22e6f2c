"""The socket reader's rate limit on a fake clock (``server/ws.py`` ``Session._admit``): the
drop counter decays at the bucket's refill rate, so a client that bursts and pauses is never
closed (it used to be, after 200 drops in all: ~18 s for a bot bursting 90 pings every few
seconds), while a sustained flood is closed with 1008. No socket and no sleep: the session's
clock is injected and only ``_admit`` (the first check of every frame) runs."""

from __future__ import annotations

from typing import Any

from cardhall.config import Settings
from cardhall.protocol import messages as p
from cardhall.server.ws import MAX_DROPPED, Session

RATE, BURST = 20.0, 40  # the defaults (docs/protocol.md, "Limits")


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def session(clock: Clock) -> Session:
    settings = Settings(database_url="memory://", ws_rate_per_second=RATE, ws_rate_burst=BURST)
    return Session(None, settings, None, None, clock=clock)  # type: ignore[arg-type]


CODES: dict[int, list[str]] = {}
"""The error codes each session was sent (read off its queue as a client would)."""


def send(s: Session, clock: Clock, frames: int, per_second: float | None = None) -> int:
    """Offer ``frames`` frames (all at once, or evenly at ``per_second``); how many were let
    through. Stops when the session closes."""
    admitted = 0
    for _ in range(frames):
        if s.conn.closed:
            break
        admitted += s._admit()
        refusals(s)
        if per_second is not None:
            clock.t += 1.0 / per_second
    return admitted


def refusals(s: Session) -> list[Any]:
    out = CODES.setdefault(id(s), [])
    while not s.conn.queue.empty():
        msg = s.conn.queue.get_nowait()
        if isinstance(msg, p.Error):
            out.append(msg.code)
    return out


def test_a_bot_that_bursts_90_pings_and_waits_for_its_bucket_stays_open() -> None:
    # 90 at once: 40 pass, 50 dropped; then it waits until the bucket has refilled what the
    # 90 took (4.5 s: its sustained rate is the allowed one). 200 rounds = 15 minutes.
    clock = Clock()
    s = session(clock)
    for _ in range(200):
        assert send(s, clock, 90) == BURST
        assert not s.conn.closed
        clock.t += 90 / RATE
    assert set(refusals(s)) == {"protocol.rate_limited"}
    assert s.drops.level == 0.0


def test_bursts_up_to_twice_the_rate_on_average_stay_open() -> None:
    # the boundary: 90 every 2.5 s (36/s) drops 50 and is forgiven 50 per round
    clock = Clock()
    s = session(clock)
    for _ in range(400):
        send(s, clock, 90)
        clock.t += 2.5
    assert not s.conn.closed


def test_a_sustained_flood_is_closed_1008() -> None:
    # 100 frames/s: 20 pass, 80 dropped and 20 forgiven each second; 200 unforgiven
    # drops (after the burst's grace) take about 3.3 s
    clock = Clock()
    s = session(clock)
    send(s, clock, 10_000, per_second=100)
    assert s.conn.closed and s.conn.close_code == 1008
    elapsed = clock.t - 1000.0
    assert 3.0 < elapsed < 4.5, elapsed
    codes = refusals(s)
    assert set(codes) == {"protocol.rate_limited"} and len(codes) > MAX_DROPPED


def test_bursting_faster_than_the_pause_forgives_is_closed_in_the_end() -> None:
    # 90 every 2 s (the bucket is full again, but 45/s on average: more than twice the
    # rate): each round leaves 10 drops unforgiven
    clock = Clock()
    s = session(clock)
    rounds = 0
    while not s.conn.closed and rounds < 100:
        send(s, clock, 90)
        clock.t += 2.0
        rounds += 1
    assert s.conn.closed and s.conn.close_code == 1008
    assert 15 <= rounds <= 25, rounds
