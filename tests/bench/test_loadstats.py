"""The load generator's pure parts (``bench/loadstats.py``, ``bench/loadgen.py``) and the
bench's small helpers: percentiles, legal entry -> action, reading v1 and v2 state frames,
the open-loop offer choice, timer lateness from frames, GC and metric windows. No server,
no sockets, no clocks (times are passed in)."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from gcwatch import GcWatch
from loadclient import Client
from loadstats import (
    StateInfo,
    Stats,
    Table,
    concrete_action,
    percentile,
    pick_action,
    read_state,
    summarize_ms,
)
from servers import metric_window, parse_gc_metric

from cardhall.engine.actions import matches


def test_percentile_interpolates_between_closest_ranks() -> None:
    values = [float(v) for v in range(100, 0, -1)]  # 1..100, unsorted
    assert percentile(values, 50) == pytest.approx(50.5)
    assert percentile(values, 99) == pytest.approx(99.01)
    assert percentile([], 99) is None
    assert percentile([7.0], 99) == 7.0


def test_summarize_ms_converts_seconds_and_handles_empty() -> None:
    s = summarize_ms([0.001, 0.002, 0.003])
    assert s == {"n": 3, "p50_ms": 2.0, "p99_ms": pytest.approx(2.98), "max_ms": 3.0}
    assert summarize_ms([]) == {"n": 0, "p50_ms": None, "p99_ms": None, "max_ms": None}


ENTRIES: list[dict[str, Any]] = [
    {"type": "pass"},
    {"type": "bid", "trump": "h", "min_level": 8, "max_level": 16},
    {"type": "raise", "min_to": 4, "max_to": 40},
    {"type": "exchange", "cards_from": ["a", "b", "c", "d"], "min_cards": 0, "max_cards": 3},
]


@pytest.mark.parametrize("entry", ENTRIES)
def test_concrete_action_is_an_instance_of_its_entry(entry: dict[str, Any]) -> None:
    rng = random.Random(3)
    for _ in range(200):
        action = concrete_action(entry, rng)
        assert matches(entry, action), action
        assert not any(k.startswith(("min_", "max_")) or k.endswith("_from") for k in action)


def test_pick_action_draws_from_every_entry_and_refuses_none() -> None:
    rng = random.Random(5)
    kinds = {pick_action(ENTRIES, rng)["type"] for _ in range(200)}
    assert kinds == {"pass", "bid", "raise", "exchange"}
    with pytest.raises(IndexError):
        pick_action([], rng)


V1_STATE = {"type": "state", "table_id": "t1", "version": 7, "game": "bazaar_blot",
            "status": "playing", "hand": 1, "seat": 2, "game_seat": 2, "seat_map": [0, 1, 2, 3],
            "seats": [], "view": {"phase": "auction"}, "legal_actions": [{"type": "pass"}],
            "to_act": [2], "timer_seat": 2, "deadline_ms": 9000, "turn_timeout_ms": 10000,
            "seed_commitment": "ab", "game_id": "g"}
V2_DELTA = {"type": "state", "full": False, "table_id": "t1", "version": 7, "base_version": 6,
            "status": "playing", "hand": 1, "seat": 2, "game_seat": 2,
            "legal_actions": [{"type": "pass"}], "to_act": [2], "timer_seat": 2,
            "deadline_ms": 9000, "events": [{"kind": "called", "seat": 1}], "actor": 1,
            "timeout": False, "view_patch": {"phase": "auction"}}


def test_read_state_reads_v1_full_states_and_v2_deltas_alike() -> None:
    want = StateInfo("t1", 7, "playing", [{"type": "pass"}], 9000)
    assert read_state(V1_STATE) == want
    assert read_state({**V1_STATE, "full": True}) == want
    assert read_state(V2_DELTA) == want
    assert read_state({"type": "events", "table_id": "t1", "version": 7}) is None
    assert want.offers
    assert not read_state({**V2_DELTA, "status": "finished"}).offers  # type: ignore[union-attr]
    assert not read_state({**V2_DELTA, "legal_actions": []}).offers  # type: ignore[union-attr]


def info(version: int, legal: bool = True) -> StateInfo:
    return StateInfo("t1", version, "playing", [{"type": "pass"}] if legal else [], None)


def test_take_offer_acts_once_at_the_newest_version() -> None:
    table = Table("t1", random.Random(1))
    table.offer(0, info(4))
    table.offer(1, info(5))
    table.offer(2, info(5, legal=False))  # offers nothing: not kept
    assert table.take_offer() == (1, info(5))
    assert table.take_offer() is None  # consumed
    table.offer(3, info(5))  # a late frame of the version already acted on
    assert table.take_offer() is None
    table.offer(3, info(6))
    assert table.take_offer() == (3, info(6))


def test_timer_lateness_is_next_frame_arrival_minus_deadline() -> None:
    stats = Stats()
    stats.start = 1.0
    lg = SimpleNamespace(stats=stats)
    client = Client(lg, Table("t1", random.Random(1)), 0, None)  # type: ignore[arg-type]
    frame = {"type": "state", "table_id": "t1", "status": "playing", "legal_actions": []}
    client.track_deadline(read_state({**frame, "version": 3, "deadline_ms": 500}), 10.0)
    # the same version again (a presence change): the first receipt's deadline stands
    client.track_deadline(read_state({**frame, "version": 3, "deadline_ms": 200}), 10.3)
    client.track_deadline(read_state({**frame, "version": 4, "deadline_ms": 500}), 10.52)
    client.track_deadline(read_state({**frame, "version": 5, "deadline_ms": None}), 11.0)
    client.track_deadline(read_state({**frame, "version": 6, "deadline_ms": 500}), 12.0)
    assert stats.lateness == [pytest.approx(0.02), pytest.approx(-0.02)]
    other = Client(lg, Table("t1", random.Random(1)), 1, None)  # type: ignore[arg-type]
    other.track_deadline(read_state({**frame, "version": 7, "deadline_ms": 1}), 13.0)
    assert other.pending_deadline is None  # only seat 0 measures


def test_gcwatch_reports_pauses_per_generation_since_the_last_dump(tmp_path: Path) -> None:
    watch = GcWatch(tmp_path / "gc.json")
    watch.callback("start", {"generation": 2})
    watch.callback("stop", {"generation": 2})
    watch.dump()
    doc = json.loads((tmp_path / "gc.json").read_text())
    assert doc["2"]["count"] == 1 and doc["0"]["count"] == 0 and doc["0"]["max_ms"] is None
    watch.dump()
    assert json.loads((tmp_path / "gc.json").read_text())["2"]["count"] == 0


def test_metric_window_takes_the_difference_of_two_scrapes() -> None:
    before = {"2": {"count": 3.0, "sum": 0.3, "buckets": {0.01: 1.0, 0.1: 3.0, 1.0: 3.0}}}
    after = {"2": {"count": 5.0, "sum": 0.9, "buckets": {0.01: 1.0, 0.1: 4.0, 1.0: 5.0}}}
    assert metric_window(before, after) == {
        "2": {"count": 2, "total_ms": pytest.approx(600.0), "max_le_ms": 1000.0}}
    assert metric_window(None, None) is None


def test_parse_gc_metric_reads_the_histogram_per_generation() -> None:
    from prometheus_client import CollectorRegistry, Histogram, generate_latest

    registry = CollectorRegistry()
    hist = Histogram("cardhall_gc_pause_seconds", "GC pauses", ["generation"],
                     buckets=(0.01, 0.1, 1.0), registry=registry)
    hist.labels(generation="2").observe(0.05)
    hist.labels(generation="0").observe(0.001)
    parsed = parse_gc_metric(generate_latest(registry).decode())
    assert parsed is not None
    assert parsed["2"]["count"] == 1 and parsed["2"]["buckets"][0.1] == 1
    assert parsed["2"]["buckets"][0.01] == 0 and parsed["0"]["sum"] == pytest.approx(0.001)
    assert parse_gc_metric("# no such metric\n") is None
