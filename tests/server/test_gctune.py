"""The collector tuning: pauses are measured and exported, re-freezes move the heap."""

from __future__ import annotations

import gc

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


def test_a_refreeze_freezes_and_every_nth_collects_everything() -> None:
    gc.unfreeze()
    try:
        junk = [[i] for i in range(1000)]  # tracked objects that survive
        r = gctune.Refreezer(interval=3600, full_every=2)
        r.step()
        frozen = gc.get_freeze_count()
        assert frozen >= 1000
        del junk
        r.step()  # the second round unfreezes and collects in full, then freezes again
        assert r.rounds == 2
    finally:
        gc.unfreeze()


def test_metrics_export_gc_pauses() -> None:
    app = create_app(Settings(database_url="memory://", gc_tuning=False))
    with TestClient(app) as c:
        gc.collect()
        text = c.get("/metrics").text
    assert 'cardhall_gc_pause_seconds_count{generation="2"}' in text
    assert "cardhall_gc_pause_max_seconds" in text
