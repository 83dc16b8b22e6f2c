"""The ``cluster`` part of ``make bench``: one node against two, and the Redis hop's cost.

Four arms (``docs/performance.md``, "Cluster"), every one on a fresh PostgreSQL database
(dropped afterwards) and, in cluster mode, its own Redis key prefix (its keys deleted
afterwards), run in rounds (1, 2, 3, 4, 1, 2, 3, 4, ...) so that machine noise hits every side
of a ratio alike:

1. ``one_node``: one ``cardhall serve``, no Redis (the baseline);
2. ``one_node_cluster``: one node in cluster mode; it owns every table, so no request leaves
   it: the cost of cluster mode without a hop;
3. ``two_nodes_hop``: every table on node A, every client on node B: every request and every
   frame crosses Redis pub/sub. The Redis hop's added latency = arm 3 - arm 2;
4. ``two_nodes_split``: tables on both nodes, each client on a random node (about half the
   traffic hops): what a second process buys on this machine, against arm 1.

Each arm runs the closed loop (``cluster_closed_tables`` x 4 clients answering at once:
actions/s) and the open loop (1 action/s per table at ``cluster_open_tables``: p50/p99/max),
with the server CPU of each node. Redis or PostgreSQL unreachable: ``{"skipped": reason}``.
"""

from __future__ import annotations

import os
from typing import Any

from arms import cluster_arm
from runkit import guarded, median_of, pg_arm, postgres_unreachable, ratio

REDIS_URL = os.environ.get("CARDHALL_BENCH_REDIS_URL", "redis://127.0.0.1:6379/0")
"""The Redis of the cluster arms (db 0 of the local server unless set)."""

ARMS: dict[str, tuple[str, bool]] = {
    "one_node": ("one", False),
    "one_node_cluster": ("one", True),
    "two_nodes_hop": ("hop", True),
    "two_nodes_split": ("split", True),
}
"""Arm -> (layout of :func:`arms.cluster_arm`, cluster mode?), the baseline first."""

async def redis_unreachable(url: str) -> str | None:
    """``None`` when Redis answers ``PING`` at ``url`` within 2 s, else why not."""
    from redis.asyncio import Redis

    client = Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2)
    try:
        await client.ping()
    except Exception as exc:
        return f"Redis not reachable at {url}: {type(exc).__name__}: {exc}"
    finally:
        await client.aclose()
    return None


async def drop_keys(url: str, prefix: str) -> int:
    """Delete every key under ``<prefix>:`` at ``url``; returns how many."""
    from redis.asyncio import Redis

    client = Redis.from_url(url)
    gone = 0
    try:
        batch: list[bytes] = []
        async for key in client.scan_iter(match=f"{prefix}:*", count=1000):
            batch.append(key)
            if len(batch) >= 1000:
                gone += await client.delete(*batch)
                batch = []
        if batch:
            gone += await client.delete(*batch)
    finally:
        await client.aclose()
    return gone


async def one_arm(plan: Any, pg_url: str, name: str, mode: str, round_no: int) -> dict[str, Any]:
    """Arm ``name`` in ``mode`` once: a fresh database, a fresh Redis prefix (both removed
    afterwards), the nodes and the load generator (:func:`arms.cluster_arm`)."""
    layout, clustered = ARMS[name]
    prefix = f"cardhall-bench-{os.getpid()}-{round_no}-{mode}-{name}"
    tables = plan.cluster_closed_tables if mode == "closed" else plan.cluster_open_tables
    extra: dict[str, Any] = {"rate": 1.0} if mode == "open" else {}

    async def run(db_url: str) -> dict[str, Any]:
        env = {"CARDHALL_DATABASE_URL": db_url}
        if clustered:
            env |= {"CARDHALL_REDIS_URL": REDIS_URL, "CARDHALL_REDIS_PREFIX": prefix}
        try:
            return await cluster_arm(layout, mode, tables, plan.cluster_duration,
                                     plan.cluster_warmup, env, **extra)
        finally:
            if clustered:
                await drop_keys(REDIS_URL, prefix)

    return await pg_arm(pg_url, f"c{round_no}_{mode}_{name}", run)


def arm_figures(runs: list[dict[str, Any] | None]) -> dict[str, Any]:
    """The medians over an arm's rounds: actions/s, latency, late ticks, CPU per node."""
    out: dict[str, Any] = {
        "actions_per_s": median_of(runs, "actions_per_s"),
        "p50_ms": median_of(runs, "latency", "p50_ms"),
        "p99_ms": median_of(runs, "latency", "p99_ms"),
        "max_ms": median_of(runs, "latency", "max_ms"),
        "errors": [None if r is None else r.get("errors") for r in runs],
        "server_cpu_cores": median_of(runs, "server", "cpu_cores"),
    }
    nodes = [r.get("nodes") for r in runs if r is not None and r.get("nodes")]
    if nodes:
        out["node_cpu_cores"] = [median_of([{"c": n[i]["cpu_cores"]} for n in nodes], "c")
                                 for i in range(len(nodes[0]))]
        out["server_cpu_cores"] = round(sum(c or 0 for c in out["node_cpu_cores"]), 2)
    late = median_of(runs, "late_ticks")
    if late is not None:
        out["late_ticks"] = late
    return out


def diff(a: float | None, b: float | None) -> float | None:
    """``a - b`` rounded to 0.01, ``None`` when either is missing."""
    return None if a is None or b is None else round(a - b, 2)


def derived(arms: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The ratios of one mode: every arm's actions/s and p50/p99 against ``one_node``, and
    the hop (``two_nodes_hop`` - ``one_node_cluster``: added ms and ratios)."""
    base, local, hop = arms["one_node"], arms["one_node_cluster"], arms["two_nodes_hop"]
    out: dict[str, Any] = {"vs_one_node": {
        name: {"actions_per_s_ratio": ratio(a["actions_per_s"], base["actions_per_s"]),
               "p50_ratio": ratio(a["p50_ms"], base["p50_ms"]),
               "p99_ratio": ratio(a["p99_ms"], base["p99_ms"])}
        for name, a in arms.items() if name != "one_node"}}
    out["hop"] = {"p50_added_ms": diff(hop["p50_ms"], local["p50_ms"]),
                  "p99_added_ms": diff(hop["p99_ms"], local["p99_ms"]),
                  "p50_ratio": ratio(hop["p50_ms"], local["p50_ms"]),
                  "p99_ratio": ratio(hop["p99_ms"], local["p99_ms"]),
                  "actions_per_s_ratio": ratio(hop["actions_per_s"], local["actions_per_s"])}
    return out


async def cluster(plan: Any, errors: list[str]) -> dict[str, Any]:
    """The whole part (see the module docstring): per mode of ``cluster_modes`` (``closed``,
    ``open``; the quick plan runs only the open loop), ``cluster_rounds`` rounds of the
    four arms; per arm the medians (:func:`arm_figures`), ``vs_one_node`` and ``hop``
    (:func:`derived`) and every run in full under ``rounds``."""
    from saves import POSTGRES_URL

    why = await redis_unreachable(REDIS_URL) or await postgres_unreachable(POSTGRES_URL)
    if why is not None:
        return {"skipped": why}
    out: dict[str, Any] = {"closed_tables": plan.cluster_closed_tables,
                           "open_tables": plan.cluster_open_tables, "rate_per_table": 1.0,
                           "rounds_per_arm": plan.cluster_rounds}
    for mode in plan.cluster_modes:
        rounds: list[dict[str, Any]] = []
        for r in range(plan.cluster_rounds):
            row: dict[str, Any] = {}
            for name in ARMS:
                row[name] = await guarded(errors, f"cluster {mode} round {r + 1}: {name}",
                                          one_arm(plan, POSTGRES_URL, name, mode, r))
            rounds.append(row)
        arms = {name: arm_figures([row[name] for row in rounds]) for name in ARMS}
        out[mode] = {**arms, **derived(arms), "rounds": rounds}
    return out


def summary(part: dict[str, Any] | None) -> dict[str, Any] | None:
    """The part's headline figures for ``summary()`` of ``bench/run.py``."""
    if part is None or "skipped" in part:
        return part
    closed, open_ = part.get("closed") or {}, part.get("open") or {}
    s: dict[str, Any] = {"closed_tables": part.get("closed_tables"),
                         "open_tables": part.get("open_tables")}
    for name in ARMS:
        c, o = closed.get(name) or {}, open_.get(name) or {}
        s[name] = {"closed_actions_per_s": c.get("actions_per_s"),
                   "closed_p99_ms": c.get("p99_ms"),
                   "closed_errors": (c.get("errors") or [None])[0],
                   "open_p50_ms": o.get("p50_ms"), "open_p99_ms": o.get("p99_ms"),
                   "open_cpu_cores": o.get("server_cpu_cores")}
    c_vs, o_vs = closed.get("vs_one_node") or {}, open_.get("vs_one_node") or {}
    s["cluster_mode_closed_ratio"] = (c_vs.get("one_node_cluster") or {}).get(
        "actions_per_s_ratio")
    s["split_closed_ratio"] = (c_vs.get("two_nodes_split") or {}).get("actions_per_s_ratio")
    s["split_open_p99_ratio"] = (o_vs.get("two_nodes_split") or {}).get("p99_ratio")
    s["hop_open"] = open_.get("hop")
    s["hop_closed"] = closed.get("hop")
    return s
