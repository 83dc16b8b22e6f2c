"""The garbage collector under load: freeze what lives long, measure every pause.

CPython's cyclic collector walks every tracked object of the generations it collects; a full
(generation 2) collection walks the whole heap, so its pause grows with the number of tables,
sockets and queued messages (``docs/performance.md``). This module, used by the app's lifespan:

* :func:`tune`: ``gc.freeze()`` once start-up is done (imports, the app, the store: objects that
  live as long as the process go to the permanent generation, which no collection walks) and
  raises the generation-0 threshold (``gc_threshold0``) so young collections run less often;
* :class:`Refreezer`: every ``gc_freeze_interval_seconds`` (0.1 s) freezes the heap again (a
  freeze moves lists and walks nothing). A young collection walks every tracked object born
  since the last collection or freeze that is still alive, and under steady play that is not
  "a few thousand": every socket's pending receive and send (coroutines, futures, frames, their
  lists) is renewed by each message while the old one dies, and a death counts against the
  young threshold wherever the dead object lived, so the young list grew to the whole renewed
  set (120,000 objects, 50-75 ms a collection at 4,000 sockets, none of it garbage) before a
  collection came. Frozen every 0.1 s, a young collection sees at most 0.1 s of survivors.
  Cyclic garbage not yet collected at a freeze is frozen too and kept: every
  ``gc_full_collect_seconds`` (an hour) the heap is unfrozen and collected in full once (one
  long pause). The table runtime avoids reference cycles (a closed table is freed by
  reference counting; steady play makes none: ``docs/performance.md``), and outgoing frames
  hold only bytes, which the collector never walks;
* :class:`GcMonitor`: a ``gc.callbacks`` hook timing every collection, read by ``/metrics`` as
  ``cardhall_gc_pause_seconds`` (histogram by generation) and
  ``cardhall_gc_pause_max_seconds`` (the longest pause since start, by generation).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time
from collections.abc import Callable, Iterator
from typing import Any

from prometheus_client.core import GaugeMetricFamily, HistogramMetricFamily
from prometheus_client.registry import Collector

log = logging.getLogger(__name__)

BUCKETS = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, float("inf"))
"""Pause histogram bucket bounds, seconds."""


class GcMonitor(Collector):
    """Times every collection through ``gc.callbacks`` (one process-wide instance:
    :data:`MONITOR`); a Prometheus collector of the pauses."""

    def __init__(self) -> None:
        self._start: float | None = None
        self.counts = [[0] * len(BUCKETS) for _ in range(3)]
        self.sums = [0.0, 0.0, 0.0]
        self.max = [0.0, 0.0, 0.0]
        self.installed = False

    def install(self) -> None:
        """Start timing collections (idempotent)."""
        if not self.installed:
            gc.callbacks.append(self._callback)
            self.installed = True

    def uninstall(self) -> None:
        if self.installed:
            with contextlib.suppress(ValueError):
                gc.callbacks.remove(self._callback)
            self.installed = False

    def _callback(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._start = time.perf_counter()
            return
        if self._start is None:
            return
        pause, self._start = time.perf_counter() - self._start, None
        gen = min(max(int(info.get("generation", 0)), 0), 2)
        self.sums[gen] += pause
        self.max[gen] = max(self.max[gen], pause)
        counts = self.counts[gen]
        for i, bound in enumerate(BUCKETS):
            if pause <= bound:
                counts[i] += 1
                break

    def collect(self) -> Iterator[HistogramMetricFamily | GaugeMetricFamily]:
        hist = HistogramMetricFamily("cardhall_gc_pause_seconds",
                                     "Garbage-collector pauses by generation",
                                     labels=["generation"])
        peak = GaugeMetricFamily("cardhall_gc_pause_max_seconds",
                                 "Longest garbage-collector pause since start, by generation",
                                 labels=["generation"])
        for gen in range(3):
            running, buckets = 0, []
            for bound, n in zip(BUCKETS, self.counts[gen], strict=True):
                running += n
                buckets.append(("+Inf" if bound == float("inf") else str(bound), running))
            hist.add_metric([str(gen)], buckets, self.sums[gen])
            peak.add_metric([str(gen)], self.max[gen])
        yield hist
        yield peak


MONITOR = GcMonitor()


_tuned = False


def tune(threshold0: int, threshold1: int = 10) -> None:
    """Collect once, freeze the start-up heap and set the thresholds of generations 0 and 1
    (generation 2 keeps CPython's default). Call when start-up is done; only the first call in
    a process acts (tests start many apps in one process)."""
    global _tuned
    if _tuned:
        return
    _tuned = True
    gc.collect()
    gc.freeze()
    gc.set_threshold(threshold0, threshold1, gc.get_threshold()[2])


class Refreezer:
    """The periodic re-freeze (see the module docstring).

    Args:
        interval: seconds between re-freezes (``gc_freeze_interval_seconds``).
        full_seconds: at the first re-freeze this many seconds after the previous full
            collection (or the start), unfreeze and collect everything once
            (``gc_full_collect_seconds``).
        now: the clock (monotonic seconds; tests pass a fake).
    """

    def __init__(self, interval: float, full_seconds: float,
                 now: Callable[[], float] = time.monotonic) -> None:
        self.interval, self.full_seconds = interval, full_seconds
        self._now = now
        self._last_full = now()
        self.rounds = 0
        self.full_rounds = 0
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="gc-refreeze")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def step(self) -> None:
        """One round: freeze what survived so far (no collection: a freeze only moves the
        lists, so it costs no pause); once ``full_seconds`` have passed since the last full
        collection, unfreeze and collect everything (frozen garbage included) first: the one
        long pause, rarely."""
        self.rounds += 1
        now = self._now()
        if now - self._last_full >= self.full_seconds:
            self._last_full = now
            self.full_rounds += 1
            gc.unfreeze()
            gc.collect()
        gc.freeze()

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            full = self.full_rounds
            self.step()
            if self.full_rounds != full and log.isEnabledFor(logging.DEBUG):
                # the count walks the whole frozen heap: never at every round
                log.debug("gc full collection %d: %d objects frozen", self.full_rounds,
                          gc.get_freeze_count())
