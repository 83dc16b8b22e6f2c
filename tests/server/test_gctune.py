"""The collector tuning: pauses are measured and exported, re-freezes move the heap."""

from __future__ import annotations

import gc
import weakref

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


def test_a_refreeze_freezes_and_every_nth_frees_frozen_cyclic_garbage() -> None:
    gc.unfreeze()
    try:
        node = Node()  # a reference cycle that survives, then becomes garbage
        ref = weakref.ref(node)
        r = gctune.Refreezer(interval=3600, full_every=2)
        r.step()  # a plain round: frozen, nothing collected
        assert gc.get_freeze_count() > 0
        del node
        gc.collect()
        assert ref() is not None, "frozen garbage is kept until the full round"
        r.step()  # the second round unfreezes and collects everything, then freezes again
        assert ref() is None and r.rounds == 2
    finally:
        gc.unfreeze()


def test_metrics_export_gc_pauses() -> None:
    app = create_app(Settings(database_url="memory://", gc_tuning=False))
    with TestClient(app) as c:
        gc.collect()
        text = c.get("/metrics").text
    assert 'cardhall_gc_pause_seconds_count{generation="2"}' in text
    assert "cardhall_gc_pause_max_seconds" in text
