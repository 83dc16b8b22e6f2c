"""``make bench``: every benchmark of cardhall in one run, printed as one JSON object on stdout.

    make bench            # full: ~10-15 minutes
    make bench QUICK=1    # sanity run for CI: small counts, short windows, about 4 minutes

WebSocket arms (``bench/arms.py``; each on a fresh server subprocess, the load generator
``bench/loadgen.py`` in a process of its own), interleaved so that machine noise hits both
sides of a ratio alike:

* ``closed_loop``: bare baseline (``bench/bare_server.py``) and cardhall, alternately, N tables
  x 4 clients answering at once -> actions/s, act -> accepted latency, and the ratio;
* ``closed_loop_default`` (``bench/ending.py``, issue 26): bare, cardhall never-ending and
  cardhall on the default configuration with Blot matches to 101 that end, are saved, rated and
  played again (``loadgen.py --rematch``), interleaved round by round -> actions/s, p50/p99,
  matches ended in the window, each arm's ratio to bare (``--ending-variant`` adds arms);
* ``open_loop``: 1 action/s per table for each table count, bare then cardhall -> p50/p99/max,
  server CPU (cores), RSS per connection, GC pauses, frames and bytes per action;
* ``log_latency``: the write-ahead table log's cost: the open loop (1 action/s per table) on
  SQLite (a temporary file) with ``CARDHALL_DURABLE_TABLES=false`` (the baseline) and ``true``,
  alternately, then the same pair on PostgreSQL when reachable (a fresh database per arm,
  dropped afterwards) -> p50/p99 with and without the log, their differences and ratios, and
  the log's own figures (append -> commit latency, commits/s, steps per commit);
* ``timer``: bare ``call_at`` timers (``bench/timer_anchor.py``), then cardhall tables of silent
  clients with a short turn timeout -> timer lateness;
* ``cluster`` (``bench/cluster.py``): on PostgreSQL and Redis, one node without Redis (the
  baseline), one node in cluster mode, two nodes with every client on the non-owner node (the
  Redis hop), two nodes with the load split -> closed-loop actions/s, open-loop p50/p99, CPU per
  node, the hop's added latency; ``{"skipped": reason}`` when either is unreachable;
* ``workers`` (``bench/workers.py``, issue 26): ``cardhall serve --workers 2`` against one
  worker (SQLite; PostgreSQL without and with Redis) and bare, the ``closed_default`` ending
  load, interleaved -> actions/s, p50/p99, CPU summed over the workers, ``two_to_one_worker``.

Then the reconnect storms (``bench/storms.py``, issue 26): ``storm`` (4,000 sockets of 1,000
tables say ``hello`` and resume, 100 handshakes at a time: refused, seconds to seat everyone,
p99; one player per socket, 4 sockets per player, and one per socket with every table playing
1 action/s once its seats are back (``play``: act p99); before and after, the bare floor) and ``restart_storm`` (the same right after a restart that restored the
1,000 durable tables). Then ``saves`` (``bench/saves.py``: SQLite and PostgreSQL; the pre-issue ORM save, single,
batched and through the game writer, each as a ratio to single) and the engine:
random self-play speed for every game plus every ``bench/bench_<name>.py`` module exposing
``run() -> dict`` (stored under ``<name>``). An arm that fails is reported in ``errors`` and the
run goes on. Method and figures: ``docs/performance.md``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import signal
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from arms import load_arm, timer_anchor
from ending import closed_default, parse_variants
from ending import summary as ending_summary
from runkit import guarded, median_of, pg_arm, postgres_unreachable, ratio
from storms import storms
from storms import summary as storm_summary
from workers import summary as workers_summary
from workers import workers_part

from cardhall.cli.output import progress
from cluster import cluster as cluster_part
from cluster import summary as cluster_summary
from engine import engine

BENCH = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Plan:
    """Sizes of one run (seconds, counts)."""

    closed_tables: int = 100
    closed_rounds: int = 2
    closed_duration: float = 15.0
    open_tables: tuple[int, ...] = (250, 1000, 2500)
    open_duration: float = 20.0
    log_tables: int = 1000
    log_rounds: int = 2
    log_duration: float = 20.0
    timer_tables: int = 1000
    timer_timeout: float = 2.0
    timer_duration: float = 30.0
    anchor_timers: int = 100_000
    anchor_spread: float = 5.0
    warmup: float = 3.0
    selfplay_scale: float = 1.0
    modules: bool = True
    cluster_closed_tables: int = 100
    cluster_open_tables: int = 200
    cluster_rounds: int = 1
    cluster_duration: float = 8.0
    cluster_warmup: float = 2.0
    cluster_modes: tuple[str, ...] = ("closed", "open")
    storm_tables: int = 1000
    storm_batch: int = 100
    storm_before: bool = True
    # issue 26, matches that end (bench/ending.py)
    ending_tables: int = 100
    ending_rounds: int = 3
    ending_duration: float = 15.0
    # issue 26, cardhall serve --workers 2 (bench/workers.py)
    workers_tables: int = 100
    workers_rounds: int = 2
    workers_duration: float = 8.0
    workers_warmup: float = 2.0
    workers_arms: tuple[str, ...] = ("bare", "one_worker_sqlite", "two_workers_sqlite",
                                     "one_worker", "one_worker_cluster", "two_workers")


QUICK = Plan(closed_tables=10, closed_rounds=1, closed_duration=3.0, open_tables=(25, 50),
             open_duration=3.0, log_tables=100, log_rounds=1, log_duration=3.0,
             timer_tables=25, timer_timeout=0.5, timer_duration=3.0,
             anchor_timers=10_000, anchor_spread=2.0, warmup=1.0,
             selfplay_scale=0.1, modules=False, cluster_closed_tables=4,
             cluster_open_tables=8, cluster_rounds=1, cluster_duration=1.5, cluster_warmup=0.5,
             cluster_modes=("open",), storm_tables=48, storm_before=False,
             ending_tables=10, ending_rounds=1, ending_duration=3.0, workers_tables=10,
             workers_rounds=1, workers_duration=3.0, workers_warmup=1.0,
             workers_arms=("bare", "one_worker_cluster", "two_workers"))


async def closed_loop(plan: Plan, errors: list[str]) -> dict[str, Any]:
    """Bare and cardhall alternately, ``closed_rounds`` times each; medians and ratios."""
    n, dur, wu = plan.closed_tables, plan.closed_duration, plan.warmup
    rounds = []
    for r in range(plan.closed_rounds):
        bare = await guarded(errors, f"closed loop round {r + 1}: bare {n}",
                             load_arm("bare", "closed", n, dur, wu))
        card = await guarded(errors, f"closed loop round {r + 1}: cardhall {n}",
                             load_arm("cardhall", "closed", n, dur, wu))
        rounds.append({"bare": bare, "cardhall": card})
    bares, cards = [r["bare"] for r in rounds], [r["cardhall"] for r in rounds]
    b_rate = median_of(bares, "actions_per_s")
    c_rate = median_of(cards, "actions_per_s")
    return {
        "tables": n, "clients": 4 * n,
        "bare_moves_per_s": b_rate, "cardhall_actions_per_s": c_rate,
        "ratio": ratio(c_rate, b_rate),
        "bare_latency_p50_ms": median_of(bares, "latency", "p50_ms"),
        "bare_latency_p99_ms": median_of(bares, "latency", "p99_ms"),
        "cardhall_latency_p50_ms": median_of(cards, "latency", "p50_ms"),
        "cardhall_latency_p99_ms": median_of(cards, "latency", "p99_ms"),
        "cardhall_frames_per_action": median_of(cards, "frames_per_action"),
        "cardhall_bytes_per_action": median_of(cards, "bytes_per_action"),
        "rounds": rounds,
    }


async def open_loop(plan: Plan, errors: list[str]) -> dict[str, Any]:
    """1 action/s per table at each table count: bare then cardhall."""
    out: dict[str, Any] = {}
    for n in plan.open_tables:
        bare = await guarded(errors, f"open loop {n}: bare",
                             load_arm("bare", "open", n, plan.open_duration, plan.warmup,
                                      rate=1.0))
        card = await guarded(errors, f"open loop {n}: cardhall",
                             load_arm("cardhall", "open", n, plan.open_duration, plan.warmup,
                                      rate=1.0))
        c99 = (card or {}).get("latency", {}).get("p99_ms")
        b99 = (bare or {}).get("latency", {}).get("p99_ms")
        out[str(n)] = {"p99_ratio_to_bare": ratio(c99, b99), "bare": bare, "cardhall": card}
    return out


LOG_SIDES = {"log_off": "false", "log_on": "true"}
"""The two arms of ``log_latency``: ``CARDHALL_DURABLE_TABLES`` of each (the baseline first)."""


async def log_latency(plan: Plan, errors: list[str]) -> dict[str, Any]:
    """The table log's cost at ``plan.log_tables`` tables: SQLite, then PostgreSQL if reachable
    (else ``postgresql_skipped`` says why)."""
    from saves import POSTGRES_URL

    out: dict[str, Any] = {"tables": plan.log_tables, "rate_per_table": 1.0,
                           "sqlite": await log_pair(plan, errors, "sqlite", None)}
    why = await postgres_unreachable(POSTGRES_URL)
    if why is None:
        out["postgresql"] = await log_pair(plan, errors, "postgresql", POSTGRES_URL)
    else:
        out["postgresql"], out["postgresql_skipped"] = None, why
    return out


async def log_pair(plan: Plan, errors: list[str], db: str,
                   pg_url: str | None) -> dict[str, Any]:
    """``log_rounds`` x (log off, log on), open loop at 1 action/s per table; medians of the
    rounds, the differences (on - off) and ratios (on / off)."""
    n, dur, wu = plan.log_tables, plan.log_duration, plan.warmup
    rounds: list[dict[str, Any]] = []
    for r in range(plan.log_rounds):
        row: dict[str, Any] = {}
        for side, flag in LOG_SIDES.items():
            env = {"CARDHALL_DURABLE_TABLES": flag}

            def arm(url: str | None, env: dict[str, str] = env) -> Any:
                full = env if url is None else {**env, "CARDHALL_DATABASE_URL": url}
                return load_arm("cardhall", "open", n, dur, wu, rate=1.0, server_env=full)

            coro = arm(None) if pg_url is None else pg_arm(pg_url, f"{r}_{side}", arm)
            row[side] = await guarded(errors, f"log latency {db} {n} round {r + 1}: {side}", coro)
        rounds.append(row)
    out: dict[str, Any] = {}
    for side in LOG_SIDES:
        arms = [row[side] for row in rounds]
        out[side] = {"p50_ms": median_of(arms, "latency", "p50_ms"),
                     "p99_ms": median_of(arms, "latency", "p99_ms"),
                     "max_ms": median_of(arms, "latency", "max_ms"),
                     "actions_per_s": median_of(arms, "actions_per_s"),
                     "late_ticks": median_of(arms, "late_ticks"),
                     "server_cpu_cores": median_of(arms, "server", "cpu_cores"),
                     "log_ran": [bool(((a or {}).get("server") or {}).get("table_log"))
                                 for a in arms]}
    on, off = out["log_on"], out["log_off"]
    for q in ("p50_ms", "p99_ms"):
        out[f"{q.removesuffix('_ms')}_added_ms"] = (
            None if on[q] is None or off[q] is None else round(on[q] - off[q], 2))
        out[f"{q.removesuffix('_ms')}_ratio"] = ratio(on[q], off[q])
    logs = [((row["log_on"] or {}).get("server") or {}).get("table_log") for row in rounds]
    out["log"] = {"append_p50_ms": median_of(logs, "append", "p50_ms"),
                  "append_p99_ms": median_of(logs, "append", "p99_ms"),
                  "append_max_ms": median_of(logs, "append", "max_ms"),
                  "commit_p50_ms": median_of(logs, "commit", "p50_ms"),
                  "commit_p99_ms": median_of(logs, "commit", "p99_ms"),
                  "commits_per_s": median_of(logs, "commits_per_s"),
                  "steps_per_commit": median_of(logs, "steps_per_commit"),
                  "rows_per_commit": median_of(logs, "rows_per_commit"),
                  "degraded": [None if lg is None else lg.get("degraded") for lg in logs]}
    out["rounds"] = rounds
    return out


TIMER_ENV = {"CARDHALL_STAND_IN_AFTER_TIMEOUTS": "0"}
"""The silent tables' server settings: no stand-in. With the default (a stand-in after 3
timeouts in a row) every silent seat got a bot after its third clock, which moved at bot pace,
long before the deadline: the lateness it measured was mostly negative (p50 -1.2 s) and no
timer's."""


async def timers(plan: Plan, errors: list[str]) -> dict[str, Any]:
    """The bare-timer anchor, then cardhall's silent tables (:data:`TIMER_ENV`)."""
    anchor = await guarded(errors, f"timer anchor: {plan.anchor_timers} call_at timers",
                           timer_anchor(plan.anchor_timers, plan.anchor_spread))
    card = await guarded(errors, f"timer lateness: cardhall {plan.timer_tables} silent tables",
                         load_arm("cardhall", "silent", plan.timer_tables, plan.timer_duration,
                                  plan.warmup, turn_timeout=plan.timer_timeout,
                                  server_env=TIMER_ENV))
    return {"anchor": anchor, "cardhall": card}


def gc_max(arm: dict[str, Any] | None, gen: str = "2") -> float | None:
    """The longest GC pause (ms) of generation ``gen`` in an arm's window (gcwatch)."""
    pauses = ((arm or {}).get("server") or {}).get("gc_pauses") or {}
    return (pauses.get(gen) or {}).get("max_ms")


def summary(out: dict[str, Any]) -> dict[str, Any]:
    """The headline figures (each with the same-run baseline it is compared with)."""
    closed = out.get("closed_loop") or {}
    s: dict[str, Any] = {k: closed.get(k) for k in (
        "bare_moves_per_s", "cardhall_actions_per_s", "ratio", "cardhall_latency_p50_ms",
        "cardhall_latency_p99_ms", "bare_latency_p50_ms", "bare_latency_p99_ms",
        "cardhall_frames_per_action", "cardhall_bytes_per_action")}
    s["closed_loop_ratio"] = s.pop("ratio")
    for n, arms in (out.get("open_loop") or {}).items():
        card, bare = arms.get("cardhall") or {}, arms.get("bare") or {}
        srv = card.get("server") or {}
        s[f"open_{n}"] = {
            "p50_ms": card.get("latency", {}).get("p50_ms"),
            "p99_ms": card.get("latency", {}).get("p99_ms"),
            "max_ms": card.get("latency", {}).get("max_ms"),
            "bare_p99_ms": bare.get("latency", {}).get("p99_ms"),
            "server_cpu_cores": srv.get("cpu_cores"),
            "rss_per_connection_kb": srv.get("rss_per_connection_kb"),
            "gc_gen2_max_ms": gc_max(card), "bare_gc_gen2_max_ms": gc_max(bare),
            "late_ticks": card.get("late_ticks"),
        }
    logl = out.get("log_latency") or {}
    for db in ("sqlite", "postgresql"):
        d = logl.get(db)
        s[f"log_latency_{db}"] = {"skipped": logl.get(f"{db}_skipped")} if d is None else {
            k: d.get(k) for k in ("p50_added_ms", "p99_added_ms", "p50_ratio", "p99_ratio")} | {
            "log_on_p50_ms": d["log_on"]["p50_ms"], "log_on_p99_ms": d["log_on"]["p99_ms"],
            "log_off_p50_ms": d["log_off"]["p50_ms"], "log_off_p99_ms": d["log_off"]["p99_ms"],
            "append_p50_ms": d["log"]["append_p50_ms"], "append_p99_ms": d["log"]["append_p99_ms"],
            "commits_per_s": d["log"]["commits_per_s"],
            "steps_per_commit": d["log"]["steps_per_commit"],
            "tables": logl.get("tables"), "skipped": logl.get(f"{db}_skipped")}
    timer = out.get("timer") or {}
    s["timer_lateness_ms"] = ((timer.get("cardhall") or {}).get("timer_lateness"))
    s["timer_anchor_ms"] = ((timer.get("anchor") or {}).get("lateness"))
    saves = out.get("saves") or {}
    for db in ("sqlite", "postgresql"):
        d = saves.get(db) or {}
        latency = d.get("latency_16_producers") or {}
        s[f"saves_{db}"] = {
            "single_per_s": (d.get("single") or {}).get("saves_per_s"),
            "batched_per_s": (d.get("batched_100") or {}).get("saves_per_s"),
            "writer_per_s": (d.get("writer") or {}).get("saves_per_s"),
            "before_orm_single_per_s": (d.get("orm_single_before") or {}).get("saves_per_s"),
            "save_game_16_awaited_p99_ms": (latency.get("save_game_awaited") or {}).get("p99_ms"),
            "skipped": saves.get(f"{db}_skipped")}
    s["cluster"] = cluster_summary(out.get("cluster"))
    s["workers"] = workers_summary(out.get("workers"))
    for part in ("storm", "restart_storm"):
        s[part] = storm_summary(out.get(part))
    s["closed_loop_default"] = ending_summary(out.get("closed_loop_default"))
    blot = (out.get("selfplay") or {}).get("bazaar_blot") or {}
    s["blot_deals_per_s"] = blot.get("units_per_second")
    dup = out.get("duplicate_interval") or {}  # bench_duplicate_interval.py (full runs)
    s["duplicate_interval_ratio"] = {g: v.get("ratio") for g, v in dup.items()}
    return s


def meta(plan: Plan, quick: bool) -> dict[str, Any]:
    """Run context: when, which commit, which machine, how loaded it was."""
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=BENCH,
                                capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        commit = ""
    return {"started": datetime.now(UTC).isoformat(timespec="seconds"), "commit": commit,
            "python": platform.python_version(), "cpus": os.cpu_count(), "quick": quick,
            "loadavg_start": os.getloadavg(), "plan": asdict(plan)}


async def run_all(plan: Plan, quick: bool, only: set[str],
                  advance: Callable[[], None] = lambda: None,
                  variants: dict[str, dict[str, str]] | None = None) -> dict[str, Any]:
    """Every part in order; a failing arm lands in ``errors``; ``advance`` after each part
    (the progress bar of ``main``); ``variants``: extra arms of ``closed_default``."""
    from saves import run_all as saves_all

    t0 = time.perf_counter()
    out: dict[str, Any] = {"meta": meta(plan, quick), "errors": []}
    errors: list[str] = out["errors"]
    parts: dict[str, tuple[str, Callable[[], Awaitable[Any]]]] = {
        "closed": ("closed_loop", lambda: closed_loop(plan, errors)),
        "closed_default": ("closed_loop_default", lambda: closed_default(
            plan.ending_tables, plan.ending_rounds, plan.ending_duration, plan.warmup, errors,
            variants)),
        "open": ("open_loop", lambda: open_loop(plan, errors)),
        "log": ("log_latency", lambda: log_latency(plan, errors)),
        "timer": ("timer", lambda: timers(plan, errors)),
        "cluster": ("cluster", lambda: cluster_part(plan, errors)),
        "workers": ("workers", lambda: workers_part(plan, errors)),
        "saves": ("saves", lambda: guarded(errors, "saves", saves_all(quick))),
        "storm": ("storm", lambda: storms(plan.storm_tables, plan.storm_batch, False, errors,
                                          before=plan.storm_before)),
        "restart_storm": ("restart_storm", lambda: storms(plan.storm_tables, plan.storm_batch,
                                                          True, errors,
                                                          before=plan.storm_before)),
    }
    for part, (key, coro) in parts.items():
        if part in only:
            out[key] = await coro()
            advance()
    if "engine" in only:
        engine(plan, out)
        advance()
    out["summary"] = summary(out)
    out["meta"]["seconds"] = round(time.perf_counter() - t0, 1)
    out["meta"]["loadavg_end"] = os.getloadavg()
    return out


PARTS = ("closed", "closed_default", "open", "log", "timer", "cluster", "workers", "saves", "storm",
         "restart_storm", "engine")


def main(argv: list[str] | None = None) -> None:
    """Parse ``--quick`` / ``--only``, run, print the JSON object."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small CI sanity run (about 4 minutes)")
    ap.add_argument("--only", default=",".join(PARTS),
                    help=f"comma-separated parts to run (default: all of {','.join(PARTS)})")
    ap.add_argument("-q", "--quiet", action="store_true",
                    help="no progress bar on stderr (drawn only when stderr is a terminal)")
    ap.add_argument("--log-tables", type=int, help="tables of the log_latency part "
                    "(default: 1,000; 100 with --quick)")
    ap.add_argument("--ending-variant", action="append", default=[], metavar="NAME:K=V[,K=V]",
                    help="closed_default: one more arm NAME, the ending load on a server with "
                    "settings K=V (a before/after of a change a setting toggles); repeatable")
    a = ap.parse_args(argv)
    only = set(a.only.split(","))
    unknown = only - set(PARTS)
    if unknown:
        ap.error(f"unknown parts: {sorted(unknown)}")
    # SIGTERM unwinds like an exception, so every arm's ``finally`` stops its server
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    plan = QUICK if a.quick else Plan()
    if a.log_tables:
        plan = replace(plan, log_tables=a.log_tables)
    with progress(a, "bench", len(only), unit="parts") as advance:
        out = asyncio.run(run_all(plan, a.quick, only, advance, parse_variants(a.ending_variant)))
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
