"""The one token bucket of the protocol: the server meters each socket with it and the SDK
paces its own sends with it, so both sides count the same way (``docs/protocol.md``, "Rate").

Pure and clock-injected: :class:`TokenBucket` reads time from the callable it is given (the
event loop's ``time`` in production, a fake clock in tests) and never sleeps itself.
"""

from __future__ import annotations

from collections.abc import Callable


class TokenBucket:
    """``rate`` messages per second sustained, ``burst`` at once.

    Args:
        rate: tokens added per second (> 0).
        burst: the bucket's size, in messages (>= 1); it starts full.
        now: a monotonic clock in seconds.

    Raises:
        ValueError: ``rate`` not positive or ``burst`` below 1.
    """

    def __init__(self, rate: float, burst: int, now: Callable[[], float]) -> None:
        if not rate > 0 or burst < 1:
            raise ValueError(f"a token bucket needs rate > 0 and burst >= 1, got {rate}, {burst}")
        self.rate, self.burst, self._now = rate, float(burst), now
        self.tokens = float(burst)
        self.stamp = now()

    def _refill(self) -> None:
        now = self._now()
        self.tokens = min(self.burst, self.tokens + max(0.0, now - self.stamp) * self.rate)
        self.stamp = now

    def take(self) -> bool:
        """Take one token if there is one; ``False`` (nothing taken) when the bucket is empty."""
        self._refill()
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def wait_seconds(self) -> float:
        """Seconds until a token will be available (``0.0`` when one is now)."""
        self._refill()
        return max(0.0, (1.0 - self.tokens) / self.rate)


class DropMeter:
    """Counts messages a :class:`TokenBucket` refused, forgiving them at the bucket's own
    refill rate, so that only *sustained* abuse crosses ``limit``.

    Each :meth:`drop` adds one; the count then leaks away at ``rate`` per second (never below
    zero). A client that bursts, is dropped for a while and then pauses until its bucket is
    full again is forgiven during that pause; one that keeps sending faster than twice the
    bucket's rate (its drops outpace the forgiveness) crosses ``limit`` in about
    ``limit / (sending rate - 2 * rate)`` seconds.

    Args:
        rate: drops forgiven per second (> 0): the bucket's refill rate.
        limit: the count above which :meth:`drop` reports abuse (>= 0).
        now: a monotonic clock in seconds.

    Raises:
        ValueError: ``rate`` not positive or ``limit`` negative.
    """

    def __init__(self, rate: float, limit: int, now: Callable[[], float]) -> None:
        if not rate > 0 or limit < 0:
            raise ValueError(f"a drop meter needs rate > 0 and limit >= 0, got {rate}, {limit}")
        self.rate, self.limit, self._now = rate, limit, now
        self._level = 0.0
        self.stamp = now()

    @property
    def level(self) -> float:
        """Drops not yet forgiven, now (a float: forgiveness is continuous)."""
        now = self._now()
        self._level = max(0.0, self._level - max(0.0, now - self.stamp) * self.rate)
        self.stamp = now
        return self._level

    def drop(self) -> bool:
        """Count one dropped message; ``True`` when the unforgiven drops now exceed ``limit``."""
        self._level = self.level + 1.0
        return self._level > self.limit
