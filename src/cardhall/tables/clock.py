"""Injected time (``design.md`` section 5): the table runtime never reads time directly.

A :class:`Clock` gives monotonic seconds (``now``), wall-clock time (``wall``) and one-shot
timers (``call_later``, ``call_at``) whose callbacks run on the event loop thread. The table
core only reads the time: the timers it needs are effects of its steps (:mod:`.timers`), which
the table's shell arms with ``call_at``, one handle per kind; a callback just posts a message
to the table's inbox. Bots arm their thinking delay with ``call_later``.

:class:`RealClock` uses the running loop (``loop.time()``/``loop.call_later``: one armed handle
per timer, never a ``wait_for`` per message). :class:`FakeClock` is for tests: time stands still
until :meth:`FakeClock.advance`, which fires every due timer in deadline order (ties in arming
order), deterministically.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol


class Handle(Protocol):
    """A cancellable armed timer."""

    def cancel(self) -> None: ...


class Clock(Protocol):
    """What the table runtime needs from time."""

    def now(self) -> float:
        """Monotonic seconds (arbitrary origin)."""

    def wall(self) -> datetime:
        """The current UTC time (for stored start/end times)."""

    def call_later(self, delay_seconds: float, callback: Callable[..., Any], *args: Any) -> Handle:
        """Run ``callback(*args)`` on the loop after ``delay_seconds``; returns a handle."""

    def call_at(self, when: float, callback: Callable[..., Any], *args: Any) -> Handle:
        """Run ``callback(*args)`` on the loop at :meth:`now` time ``when`` (at once if it has
        passed); returns a handle."""


class RealClock:
    """The event loop's monotonic clock and timers."""

    def now(self) -> float:
        return asyncio.get_running_loop().time()

    def wall(self) -> datetime:
        return datetime.now(UTC)

    def call_later(self, delay_seconds: float, callback: Callable[..., Any], *args: Any) -> Handle:
        return asyncio.get_running_loop().call_later(max(0.0, delay_seconds), callback, *args)

    def call_at(self, when: float, callback: Callable[..., Any], *args: Any) -> Handle:
        return asyncio.get_running_loop().call_at(when, callback, *args)


class _FakeHandle:
    __slots__ = ("cancelled", "when")

    def __init__(self, when: float) -> None:
        self.when = when
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class FakeClock:
    """A manual clock for tests: ``advance(seconds)`` moves time and fires due timers.

    Callbacks run synchronously inside :meth:`advance` with :meth:`now` equal to their due time;
    a callback may arm new timers, which fire in the same call if they fall due within it.
    """

    def __init__(self, start: float = 1000.0, wall_start: datetime | None = None) -> None:
        self._now = start
        self._start = start
        self._wall0 = wall_start or datetime(2026, 1, 1, tzinfo=UTC)
        self._heap: list[tuple[float, int, _FakeHandle, Callable[..., Any], tuple[Any, ...]]] = []
        self._seq = itertools.count()

    def now(self) -> float:
        return self._now

    def wall(self) -> datetime:
        return self._wall0 + timedelta(seconds=self._now - self._start)

    def call_later(self, delay_seconds: float, callback: Callable[..., Any], *args: Any) -> Handle:
        return self.call_at(self._now + max(0.0, delay_seconds), callback, *args)

    def call_at(self, when: float, callback: Callable[..., Any], *args: Any) -> Handle:
        handle = _FakeHandle(max(self._now, when))
        heapq.heappush(self._heap, (handle.when, next(self._seq), handle, callback, args))
        return handle

    def pending(self) -> int:
        """Armed, uncancelled timers."""
        return sum(1 for entry in self._heap if not entry[2].cancelled)

    def advance(self, seconds: float) -> int:
        """Move time forward by ``seconds`` (>= 0), firing due timers in order.

        Returns:
            How many callbacks ran.

        Raises:
            ValueError: ``seconds`` is negative.
        """
        if seconds < 0:
            raise ValueError(f"cannot advance by a negative {seconds!r} seconds")
        target = self._now + seconds
        fired = 0
        while self._heap and self._heap[0][0] <= target:
            when, _, handle, callback, args = heapq.heappop(self._heap)
            if handle.cancelled:
                continue
            self._now = max(self._now, when)
            handle.cancelled = True
            callback(*args)
            fired += 1
        self._now = target
        return fired
