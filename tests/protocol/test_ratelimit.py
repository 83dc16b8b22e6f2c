"""The protocol's token bucket (``cardhall.protocol.ratelimit``), on a fake clock."""

from __future__ import annotations

import pytest

from cardhall.protocol.ratelimit import DropMeter, TokenBucket


class FakeClock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def test_burst_then_the_sustained_rate() -> None:
    clock = FakeClock()
    bucket = TokenBucket(rate=4, burst=3, now=clock)  # times in 1/8 s: exact in binary
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    assert bucket.wait_seconds() == 0.25
    clock.t += 0.125
    assert not bucket.take() and bucket.wait_seconds() == 0.125
    clock.t += 0.125
    assert bucket.take() and not bucket.take()
    clock.t += 10  # refills to the burst, never beyond
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]


def test_a_clock_going_backwards_adds_nothing() -> None:
    clock = FakeClock()
    bucket = TokenBucket(rate=1, burst=1, now=clock)
    assert bucket.take()
    clock.t -= 50
    assert not bucket.take()


@pytest.mark.parametrize(("rate", "burst"), [(0, 1), (-1, 1), (1, 0)])
def test_bad_parameters_are_refused(rate: float, burst: int) -> None:
    with pytest.raises(ValueError, match="rate > 0"):
        TokenBucket(rate, burst, FakeClock())


def test_drops_are_forgiven_at_the_refill_rate() -> None:
    clock = FakeClock()
    meter = DropMeter(rate=4, limit=3, now=clock)
    assert [meter.drop() for _ in range(4)] == [False, False, False, True]  # 4 > 3
    clock.t += 0.5  # two forgiven
    assert meter.level == 2.0 and not meter.drop()
    clock.t += 10  # never below zero
    assert meter.level == 0.0
    clock.t -= 5  # a clock going backwards forgives nothing and adds nothing
    assert meter.level == 0.0


@pytest.mark.parametrize(("rate", "limit"), [(0, 1), (-1, 1), (1, -1)])
def test_a_drop_meter_refuses_bad_parameters(rate: float, limit: int) -> None:
    with pytest.raises(ValueError):
        DropMeter(rate, limit, FakeClock())
