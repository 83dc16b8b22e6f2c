"""The injected clocks: the fake clock fires due timers in order, deterministically."""

from __future__ import annotations

import asyncio

import pytest

from cardhall.tables.clock import FakeClock, RealClock


def test_fake_clock_fires_due_timers_in_deadline_then_arming_order() -> None:
    clock = FakeClock()
    fired: list[tuple[str, float]] = []
    clock.call_later(2.0, lambda: fired.append(("b", clock.now())))
    clock.call_later(1.0, lambda: fired.append(("a", clock.now())))
    clock.call_later(2.0, lambda: fired.append(("c", clock.now())))
    gone = clock.call_later(1.5, lambda: fired.append(("x", clock.now())))
    gone.cancel()
    t0 = clock.now()
    assert clock.advance(1.0) == 1
    assert clock.advance(0.999) == 0
    assert clock.advance(0.001) == 2
    assert fired == [("a", t0 + 1.0), ("b", t0 + 2.0), ("c", t0 + 2.0)]
    assert clock.pending() == 0


def test_fake_clock_runs_timers_armed_by_callbacks_within_the_same_advance() -> None:
    clock = FakeClock()
    fired: list[float] = []

    def tick() -> None:
        fired.append(clock.now())
        if len(fired) < 3:
            clock.call_later(1.0, tick)

    clock.call_later(1.0, tick)
    clock.advance(10.0)
    assert [f - fired[0] for f in fired] == [0.0, 1.0, 2.0]
    with pytest.raises(ValueError, match="negative"):
        clock.advance(-1)


def test_fake_clock_call_at_shares_the_order_of_call_later_and_never_fires_in_the_past() -> None:
    clock = FakeClock()
    fired: list[tuple[str, float]] = []
    t0 = clock.now()
    clock.call_later(1.0, lambda: fired.append(("later", clock.now())))
    clock.call_at(t0 + 1.0, lambda: fired.append(("at", clock.now())))  # a tie: arming order
    clock.call_at(t0 - 5.0, lambda: fired.append(("past", clock.now())))  # due now
    assert clock.advance(0.0) == 1
    assert clock.advance(1.0) == 2
    assert fired == [("past", t0), ("later", t0 + 1.0), ("at", t0 + 1.0)]


async def test_real_clock_uses_the_loop() -> None:
    clock = RealClock()
    done = asyncio.Event()
    start = clock.now()
    clock.call_later(0.01, done.set)
    await asyncio.wait_for(done.wait(), 2.0)
    assert clock.now() - start >= 0.009
    done.clear()
    clock.call_at(clock.now() + 0.01, done.set)
    await asyncio.wait_for(done.wait(), 2.0)
    assert clock.wall().tzinfo is not None
