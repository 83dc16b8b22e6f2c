"""The ``workers`` part of ``make bench`` (issue 26): ``cardhall serve --workers 2`` against one
worker, closed loop, matches that end.

Six arms, interleaved round by round (bare, one_worker_sqlite, two_workers_sqlite, one_worker,
one_worker_cluster, two_workers, bare, ...) so that machine noise hits every side of a ratio alike, each on a fresh
server (``bench/arms.py``) under the load of the ``closed_default`` part's ``ending`` arm
(``bench/ending.py``: Blot to 101, ``--rematch``, every client answering at once):

* ``bare``: the bare broadcast server (``bench/bare_server.py``), the baseline of every ratio;
* ``one_worker_sqlite``: ``cardhall serve`` as users run it (a SQLite file, durable tables):
  the ``ending`` arm of ``closed_default``;
* ``two_workers_sqlite``: ``cardhall serve --workers 2`` in cluster mode on that SQLite file
  (the workers migrate under a file lock and take a spill each, since issue 26);
* ``one_worker``: ``cardhall serve`` on PostgreSQL, no Redis;
* ``one_worker_cluster``: the same in cluster mode (``CARDHALL_REDIS_URL``, a key prefix of
  its own), one process;
* ``two_workers``: ``cardhall serve --workers 2`` in cluster mode: one listening socket, two
  worker processes (each a node), the kernel handing each new connection to one of them.

Why PostgreSQL for the ratio (:data:`WHY_POSTGRESQL`): SQLite has one writer for both
workers. The PostgreSQL arms each get a fresh database (``runkit.pg_arm``, dropped afterwards), the cluster
arms a Redis key prefix of their own (its keys deleted afterwards). Redis or PostgreSQL
unreachable: ``{"skipped": reason}``.
"""

from __future__ import annotations

import os
from typing import Any

from arms import load_arm
from ending import DEFAULT_ENV, ENDING_TARGET
from runkit import guarded, median_of, pg_arm, postgres_unreachable, ratio

from cluster import REDIS_URL, drop_keys, redis_unreachable

ARMS: dict[str, tuple[str | None, bool, int]] = {
    "bare": (None, False, 0),
    "one_worker_sqlite": ("sqlite", False, 1),
    "two_workers_sqlite": ("sqlite", True, 2),
    "one_worker": ("postgresql", False, 1),
    "one_worker_cluster": ("postgresql", True, 1),
    "two_workers": ("postgresql", True, 2),
}
"""Arm -> (database, cluster mode?, ``--workers``), in the order each round runs them."""

TARGET = 1.6
"""Issue 26: two workers on the 2-core machine at least this many times one worker."""

WHY_POSTGRESQL = (
    "two workers on one SQLite file queue on its single writer (docs/scaling.md), so the "
    "ratio's cardhall arms run on PostgreSQL, what a hall of several processes uses; "
    "one_worker_sqlite and two_workers_sqlite are the default configuration beside them "
    "(before issue 26's fix two workers on a fresh SQLite file did not start: both ran the "
    "migrations at once and one failed with 'table players already exists').")


async def one_arm(plan: Any, pg_url: str, name: str, round_no: int) -> dict[str, Any]:
    """Arm ``name`` once on a fresh server (and database, and Redis prefix)."""
    tables, dur, wu = plan.workers_tables, plan.workers_duration, plan.workers_warmup
    db, clustered, workers = ARMS[name]
    if db is None:
        return await load_arm("bare", "closed", tables, dur, wu)
    ending = {"target_score": ENDING_TARGET, "rematch": True}
    prefix = f"cardhall-bench-{os.getpid()}-w{round_no}-{name}"
    if db == "sqlite":
        if not clustered:
            return await load_arm("cardhall", "closed", tables, dur, wu,
                                  server_env=DEFAULT_ENV, **ending)
        env = {**DEFAULT_ENV, "CARDHALL_REDIS_URL": REDIS_URL, "CARDHALL_REDIS_PREFIX": prefix}
        try:
            return await load_arm("cardhall", "closed", tables, dur, wu, server_env=env,
                                  workers=workers, **ending)
        finally:
            await drop_keys(REDIS_URL, prefix)

    async def run(db_url: str) -> dict[str, Any]:
        env = {**DEFAULT_ENV, "CARDHALL_DATABASE_URL": db_url}
        if clustered:
            env |= {"CARDHALL_REDIS_URL": REDIS_URL, "CARDHALL_REDIS_PREFIX": prefix}
        try:
            return await load_arm("cardhall", "closed", tables, dur, wu, server_env=env,
                                  workers=workers, **ending)
        finally:
            if clustered:
                await drop_keys(REDIS_URL, prefix)

    return await pg_arm(pg_url, f"w{round_no}_{name}", run)


def arm_figures(runs: list[dict[str, Any] | None],
                bares: list[dict[str, Any] | None]) -> dict[str, Any]:
    """One arm's figures over its rounds (``bares``: the bare arm of the same rounds, or
    ``None``s when it did not run)."""
    rates = [r["actions_per_s"] for r in runs if r]
    servers = [(r or {}).get("server") or {} for r in runs]
    return {"actions_per_s": median_of(runs, "actions_per_s"),
            "actions_per_s_min": min(rates, default=None),
            "actions_per_s_max": max(rates, default=None),
            "p50_ms": median_of(runs, "latency", "p50_ms"),
            "p99_ms": median_of(runs, "latency", "p99_ms"),
            "matches_ended": median_of(runs, "matches_ended"),
            "server_cpu_cores": median_of(runs, "server", "cpu_cores"),
            "process_cpu_cores": [s.get("process_cpu_cores") for s in servers],
            "errors": [None if r is None else r.get("errors") for r in runs],
            "log_lines": [s.get("log_lines") for s in servers],
            "ratio_to_bare": ratio(median_of(runs, "actions_per_s"),
                                   median_of(bares, "actions_per_s")),
            "round_ratios_to_bare": [ratio((r or {}).get("actions_per_s"),
                                           (b or {}).get("actions_per_s"))
                                     for r, b in zip(runs, bares, strict=True)]}


def derived(arms: dict[str, dict[str, Any]],
            rounds: list[dict[str, Any]]) -> dict[str, Any]:
    """``two_to_one_worker``: two workers' median actions/s over each one-worker arm's that
    ran (and per round against ``one_worker_cluster``), and whether it meets :data:`TARGET`
    (``None`` without both arms)."""
    two = (arms.get("two_workers") or {}).get("actions_per_s")
    out: dict[str, Any] = {
        f"vs_{name}": ratio(two, arms[name]["actions_per_s"])
        for name in ("one_worker_cluster", "one_worker", "one_worker_sqlite") if name in arms}
    out["round_ratios_vs_one_worker_cluster"] = [
        ratio((row.get("two_workers") or {}).get("actions_per_s"),
              (row.get("one_worker_cluster") or {}).get("actions_per_s")) for row in rounds]
    out["sqlite_two_to_one"] = ratio(
        (arms.get("two_workers_sqlite") or {}).get("actions_per_s"),
        (arms.get("one_worker_sqlite") or {}).get("actions_per_s"))
    out["target"] = TARGET
    got = out.get("vs_one_worker_cluster")
    out["met"] = None if got is None else got >= TARGET
    return out


async def workers_part(plan: Any, errors: list[str]) -> dict[str, Any]:
    """The whole part (see the module docstring)."""
    from saves import POSTGRES_URL

    why = await redis_unreachable(REDIS_URL) or await postgres_unreachable(POSTGRES_URL)
    if why is not None:
        return {"skipped": why}
    names = [name for name in ARMS if name in plan.workers_arms]
    rounds: list[dict[str, Any]] = []
    for r in range(plan.workers_rounds):
        row: dict[str, Any] = {}
        for name in names:
            row[name] = await guarded(errors, f"workers round {r + 1}: {name} "
                                      f"{plan.workers_tables}",
                                      one_arm(plan, POSTGRES_URL, name, r))
        rounds.append(row)
    bares = [row.get("bare") for row in rounds]
    arms = {name: arm_figures([row[name] for row in rounds], bares) for name in names}
    return {"tables": plan.workers_tables, "clients": 4 * plan.workers_tables,
            "target_score": ENDING_TARGET, "rounds_run": plan.workers_rounds,
            "database": "postgresql", "why_postgresql": WHY_POSTGRESQL, **arms,
            "two_to_one_worker": derived(arms, rounds), "rounds": rounds}


def summary(part: dict[str, Any] | None) -> dict[str, Any] | None:
    """The part's headline figures for ``summary()`` of ``bench/run.py``."""
    if part is None or "skipped" in part:
        return part
    keys = ("actions_per_s", "actions_per_s_min", "actions_per_s_max", "p50_ms", "p99_ms",
            "matches_ended", "server_cpu_cores", "ratio_to_bare")
    return {name: {k: part[name].get(k) for k in keys} for name in ARMS if name in part} | {
        "two_to_one_worker": part.get("two_to_one_worker"), "tables": part.get("tables")}
