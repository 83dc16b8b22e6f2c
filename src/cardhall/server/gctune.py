"""The garbage collector under load: freeze what lives long, measure every pause.

CPython's cyclic collector walks every tracked object of the generations it collects; a full
(generation 2) collection walks the whole heap, so its pause grows with the number of tables,
sockets and queued messages (``docs/performance.md``). This module, used by the app's lifespan:

* :func:`tune`: ``gc.freeze()`` once start-up is done (imports, the app, the store: objects that
  live as long as the process go to the permanent generation, which no collection walks) and
  raises the generation-0 threshold (``gc_threshold0``) so young collections run less often;
* :class:`Refreezer`: every ``gc_freeze_interval_seconds`` (10 s) freezes the heap again (a
  freeze moves lists and walks nothing), so what survived young collections (table state,
  sockets) stops being walked by older ones, which then stay small. Cyclic garbage not yet
  collected at that moment is frozen too and kept: every ``gc_full_collect_every`` (360)
  re-freezes the heap is unfrozen and collected in full once (one long pause, about hourly).
  The table runtime avoids reference cycles (a closed table is freed by reference counting),
  and outgoing frames hold only bytes, which the collector never walks;
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
from collections.abc import Iterator
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
        full_every: every this many re-freezes, unfreeze and collect everything once.
    """

    def __init__(self, interval: float, full_every: int) -> None:
        self.interval, self.full_every = interval, full_every
        self.rounds = 0
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
        lists, so it costs no pause); every ``full_every`` rounds, unfreeze and collect
        everything (frozen garbage included) first: the one long pause, rarely."""
        self.rounds += 1
        if self.full_every and self.rounds % self.full_every == 0:
            gc.unfreeze()
            gc.collect()
        gc.freeze()

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            self.step()
            log.debug("gc re-freeze %d: %d objects frozen", self.rounds, gc.get_freeze_count())
