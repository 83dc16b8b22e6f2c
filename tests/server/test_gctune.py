"""The collector tuning: pauses are measured and exported, re-freezes move the heap."""

from __future__ import annotations

import asyncio
import gc
import logging
import weakref

import pytest
from fastapi.testclient import TestClient

from cardhall.config import Settings
from cardhall.server import gctune
from cardhall.server.app import create_app


def test_every_collection_is_timed_by_generation() -> None:
    mon = gctune.GcMonitor()
    mon.install()
    try:
        gc.collect(0)
        gc.collect(2)
    finally:
        mon.uninstall()
    assert sum(mon.counts[0]) >= 1 and sum(mon.counts[2]) >= 1
    assert mon.max[2] > 0 and mon.sums[2] >= mon.max[2]
    families = {f.name: f for f in mon.collect()}
    hist = families["cardhall_gc_pause_seconds"]
    inf = [s for s in hist.samples if s.name.endswith("_bucket") and s.labels["le"] == "+Inf"
           and s.labels["generation"] == "2"]
    assert inf and inf[0].value == sum(mon.counts[2])


class Node:
    """A weakly referenceable object that can sit in a reference cycle."""

    def __init__(self) -> None:
        self.me = self


def test_a_refreeze_freezes_and_the_first_after_full_seconds_frees_frozen_cyclic_garbage(
) -> None:
    gc.unfreeze()
    try:
        node = Node()  # a reference cycle that survives, then becomes garbage
        ref = weakref.ref(node)
        clock = [0.0]
        r = gctune.Refreezer(interval=0.1, full_seconds=3600, now=lambda: clock[0])
        r.step()  # a plain round: frozen, nothing collected
        assert gc.get_freeze_count() > 0
        del node
        gc.collect()
        clock[0] = 3599.9
        r.step()  # still a plain round
        assert ref() is not None, "frozen garbage is kept until the full round"
        assert r.full_rounds == 0
        clock[0] = 3600.0
        r.step()  # an hour on: unfreeze and collect everything, then freeze again
        assert ref() is None and r.rounds == 3 and r.full_rounds == 1
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()


def test_young_collections_walk_only_what_was_born_since_the_last_freeze() -> None:
    """A young collection walks every tracked object born since the last collection or
    freeze and still alive, however many older objects died meanwhile (each death lowers
    the young count). The re-freeze bounds that walk: what it froze is not walked again."""
    gc.unfreeze()
    old = gc.get_threshold()
    gc.disable()
    try:
        gc.collect()
        born = [[i] for i in range(20_000)]  # alive and young: a young collection walks them
        assert len(gc.get_objects(0)) >= 20_000
        r = gctune.Refreezer(interval=0.1, full_seconds=3600)
        r.step()
        assert len(gc.get_objects(0)) < 100  # frozen: no young collection walks them
        del born
    finally:
        gc.unfreeze()
        gc.set_threshold(*old)
        gc.enable()


def test_metrics_export_gc_pauses() -> None:
    app = create_app(Settings(database_url="memory://", gc_tuning=False))
    with TestClient(app) as c:
        gc.collect()
        text = c.get("/metrics").text
    assert 'cardhall_gc_pause_seconds_count{generation="2"}' in text
    assert "cardhall_gc_pause_max_seconds" in text


async def test_a_plain_round_never_counts_the_frozen_heap(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """``gc.get_freeze_count()`` walks the whole frozen heap: called at every round (for a
    debug line, even when DEBUG was off) it took 0.15 cores at 0.1 s rounds and 4,000
    sockets. Only a full round may count it, and only at DEBUG."""
    calls = []
    monkeypatch.setattr(gctune.gc, "get_freeze_count", lambda: calls.append(1) or 0)
    monkeypatch.setattr(gctune.gc, "freeze", lambda: None)  # the rounds freeze nothing here
    caplog.set_level(logging.DEBUG, logger="cardhall.server.gctune")
    r = gctune.Refreezer(interval=0.001, full_seconds=3600)
    r.start()
    try:
        async with asyncio.timeout(5):
            while r.rounds < 20:
                await asyncio.sleep(0.001)
    finally:
        await r.stop()
    assert r.full_rounds == 0 and calls == []
