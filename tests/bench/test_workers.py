"""The pure parts of the bench's ``workers`` part (``bench/workers.py``) and of the server
sampling it needs (``bench/servers.py``): the process tree, its CPU over a window, the log's
warning and error lines, and the per-arm figures and ratios. No server, no /proc reads."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from servers import descendants, log_levels, tree_cpu_cores
from workers import ARMS, arm_figures, derived, summary


def test_descendants_walks_the_tree_root_first_and_leaves_other_processes_out() -> None:
    # 10 is the supervisor; 11 the resource tracker, 12 and 13 the workers, 14 a worker's
    # child; 20 and 21 belong to someone else
    parent_of = {10: 1, 11: 10, 13: 10, 12: 10, 14: 12, 20: 1, 21: 20}
    assert descendants(10, parent_of) == [10, 11, 12, 13, 14]
    assert descendants(12, parent_of) == [12, 14]
    assert descendants(99, parent_of) == [99]


def test_tree_cpu_cores_sums_the_live_processes_and_counts_a_newborn_from_zero() -> None:
    start = {10: 1.0, 12: 5.0, 13: 7.0}
    # over 2 s: the supervisor used 0.1 s, worker 12 1.6 s; worker 13 died (its seconds are
    # lost), 15 was born in the window and used 0.4 s
    end = {10: 1.1, 12: 6.6, 15: 0.4}
    total, each = tree_cpu_cores(start, end, 2.0)
    assert total == 1.05
    assert each == [0.05, 0.8, 0.2]
    assert tree_cpu_cores(start, end, 0.0) == (None, [])


def test_log_levels_counts_warnings_errors_and_worker_restarts() -> None:
    lines = [
        "2026-12-07T15:25:02Z [info     ] Started server process [14651] [uvicorn.error]",
        "2026-12-07T15:25:03Z [warning  ] redis unreachable [cardhall.server.redisconn]",
        "2026-12-07T15:25:03Z [error    ] the table log spill x is in use [cardhall.server]",
        "Traceback (most recent call last):  [error    ] " + "x" * 20,
        "2026-12-07T15:25:08Z [critical ] gone [x]",
        "2026-12-07T15:25:09Z [info     ] Child process [14651] died [uvicorn.error]",
    ]
    got = log_levels(lines)
    assert got["warning"] == 1
    assert got["error"] == 3  # a level within a line's first 60 characters counts
    assert got["worker_restarts"] == 1
    assert (got["first_warning"], got["first_error"]) == (lines[1], lines[2])
    assert log_levels([]) == {"warning": 0, "error": 0, "worker_restarts": 0,
                              "first_warning": None, "first_error": None}


def run(rate: float, cores: float = 1.0) -> dict[str, Any]:
    return {"actions_per_s": rate, "latency": {"p50_ms": 10.0, "p99_ms": 40.0},
            "matches_ended": 5, "errors": {}, "server": {"cpu_cores": cores}}


def test_arm_figures_take_medians_extremes_and_per_round_ratios_to_bare() -> None:
    bares = [run(1000.0), run(2000.0), None]
    fig = arm_figures([run(100.0), run(300.0), run(200.0)], bares)
    assert (fig["actions_per_s"], fig["actions_per_s_min"], fig["actions_per_s_max"]) == (
        200.0, 100.0, 300.0)
    assert fig["ratio_to_bare"] == round(200.0 / 1500.0, 3)
    assert fig["round_ratios_to_bare"] == [0.1, 0.15, None]
    assert fig["server_cpu_cores"] == 1.0


def test_two_to_one_worker_against_each_one_worker_arm_and_the_target() -> None:
    rounds = [{"one_worker_cluster": run(500.0), "two_workers": run(900.0)},
              {"one_worker_cluster": None, "two_workers": run(700.0)}]
    arms = {"one_worker": {"actions_per_s": 600.0},
            "one_worker_cluster": {"actions_per_s": 500.0},
            "two_workers": {"actions_per_s": 800.0}}
    got = derived(arms, rounds)
    assert got["vs_one_worker_cluster"] == 1.6
    assert got["vs_one_worker"] == 1.333
    assert "vs_one_worker_sqlite" not in got  # that arm did not run (the quick plan)
    assert got["round_ratios_vs_one_worker_cluster"] == [1.8, None]
    assert got["met"] is True
    assert derived({"two_workers": {"actions_per_s": 1.0}}, [])["met"] is None


def test_summary_passes_a_skip_through_and_keeps_the_arms_that_ran() -> None:
    assert summary(None) is None
    assert summary({"skipped": "no Redis"}) == {"skipped": "no Redis"}
    part = {name: {"actions_per_s": 1.0, "ratio_to_bare": 0.5} for name in ARMS
            if name != "one_worker"}
    part |= {"two_to_one_worker": {"met": False}, "tables": 10}
    got = summary(part)
    assert got is not None
    assert "one_worker" not in got and got["two_workers"]["ratio_to_bare"] == 0.5
    assert got["two_to_one_worker"] == {"met": False}
