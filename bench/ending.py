"""The ``closed_default`` part of ``make bench`` (issue 26): the closed loop on the configuration
users run, with matches that end.

Three arms, interleaved round by round (bare, never-ending, ending, bare, ...) so that machine
noise hits every side of a ratio alike, each on a fresh server (``bench/arms.py``):

* ``bare``: the bare broadcast server (``bench/bare_server.py``), the baseline;
* ``never_ending``: cardhall as the ``closed`` part runs it (Bazaar Blot to 1001: no match ends
  in the window);
* ``ending``: cardhall as ``make run`` starts it (a SQLite file in a temporary directory,
  ``CARDHALL_DURABLE_TABLES=true``, the default settings but for the load generator's lifted
  rate limits and quotas), Blot matches to 101: when a match ends every client sends
  ``rematch``, leaves the finished table and plays the new one (``bench/loadgen.py
  --rematch``), so matches end, are logged, saved and rated inside the window;
* ``ending_postgres``: the ``ending`` load on PostgreSQL (``CARDHALL_TEST_POSTGRES_URL``, a fresh
  database per arm, dropped afterwards), the issue's second configuration; when PostgreSQL does
  not answer the arm is ``{"skipped": reason}`` and the rest runs.

Optional extra arms (``variants``: name -> server settings) run the ``ending`` load with other
settings, interleaved too: the before/after of a change that a setting toggles.
"""

from __future__ import annotations

from typing import Any

from arms import load_arm
from runkit import guarded, median_of, pg_arm, postgres_unreachable, ratio

ENDING_TARGET = 101
"""Bazaar Blot's default match target (points): matches end."""

NEVER_TARGET = 1001
"""The ``closed`` part's target: no match ends inside a window."""

DEFAULT_ENV = {"CARDHALL_DURABLE_TABLES": "true", "CARDHALL_LOG_LEVEL": "INFO"}
"""The cardhall arms' settings on top of ``bench/servers.py``'s: the defaults, spelt out (a
``make run`` logs at INFO: about 100 lines a second here, a line per rematch table)."""


def arm_specs(variants: dict[str, dict[str, str]] | None) -> dict[str, dict[str, Any]]:
    """Arm name -> ``load_arm`` keywords, in the order each round runs them."""
    ending = {"target_score": ENDING_TARGET, "rematch": True, "server_env": DEFAULT_ENV}
    specs: dict[str, dict[str, Any]] = {
        "bare": {"kind": "bare"},
        "never_ending": {"target_score": NEVER_TARGET, "server_env": DEFAULT_ENV},
        "ending": ending,
        "ending_postgres": {**ending, "postgres": True}}
    for name, env in (variants or {}).items():
        specs[name] = {**ending, "server_env": {**DEFAULT_ENV, **env}}
    return specs


async def run_arm(spec: dict[str, Any], tables: int, duration: float, warmup: float,
                  name: str = "arm") -> dict[str, Any]:
    """One arm of :func:`arm_specs` on a fresh server (a ``postgres`` arm: on a fresh
    PostgreSQL database named after ``name``)."""
    spec = dict(spec)
    kind = spec.pop("kind", "cardhall")
    if not spec.pop("postgres", False):
        return await load_arm(kind, "closed", tables, duration, warmup, **spec)
    from saves import POSTGRES_URL

    env = spec.pop("server_env")

    async def on(url: str) -> dict[str, Any]:
        return await load_arm(kind, "closed", tables, duration, warmup,
                              server_env={**env, "CARDHALL_DATABASE_URL": url}, **spec)

    return await pg_arm(POSTGRES_URL, f"ending_{name}", on)


async def closed_default(tables: int, rounds: int, duration: float, warmup: float,
                         errors: list[str],
                         variants: dict[str, dict[str, str]] | None = None) -> dict[str, Any]:
    """``rounds`` x every arm of :func:`arm_specs`; per arm the medians (actions/s, act ->
    accepted p50/p99, matches ended in the window) and min/max of actions/s; ``ratio_to_bare``
    of each cardhall arm (median actions/s over the bare median moves/s) and each arm's
    per-round ratio to the bare arm of the same round."""
    from saves import POSTGRES_URL

    specs = arm_specs(variants)
    skipped = {name: why for name, spec in specs.items() if spec.get("postgres")
               and (why := await postgres_unreachable(POSTGRES_URL))}
    for name in skipped:
        del specs[name]
    table: list[dict[str, Any]] = []
    for r in range(rounds):
        row: dict[str, Any] = {}
        for name, spec in specs.items():
            row[name] = await guarded(errors, f"closed default round {r + 1}: {name} {tables}",
                                      run_arm(spec, tables, duration, warmup, f"r{r}"))
        table.append(row)
    out: dict[str, Any] = {"tables": tables, "clients": 4 * tables, "target_score": ENDING_TARGET,
                           "rounds_run": rounds}
    out |= {name: {"skipped": why} for name, why in skipped.items()}
    bare_rate = median_of([row["bare"] for row in table], "actions_per_s")
    for name in specs:
        arms = [row[name] for row in table]
        rates = [a["actions_per_s"] for a in arms if a]
        per_round = [ratio((row[name] or {}).get("actions_per_s"),
                           (row["bare"] or {}).get("actions_per_s")) for row in table]
        out[name] = {"actions_per_s": median_of(arms, "actions_per_s"),
                     "actions_per_s_min": min(rates, default=None),
                     "actions_per_s_max": max(rates, default=None),
                     "p50_ms": median_of(arms, "latency", "p50_ms"),
                     "p99_ms": median_of(arms, "latency", "p99_ms"),
                     "matches_ended": median_of(arms, "matches_ended"),
                     "server_cpu_cores": median_of(arms, "server", "cpu_cores"),
                     "ratio_to_bare": ratio(median_of(arms, "actions_per_s"), bare_rate),
                     "round_ratios_to_bare": per_round}
    out["ending_to_never_ending"] = ratio(out["ending"]["actions_per_s"],
                                          out["never_ending"]["actions_per_s"])
    if "ending_postgres" in specs:
        out["postgres_to_sqlite"] = ratio(out["ending_postgres"]["actions_per_s"],
                                          out["ending"]["actions_per_s"])
    for name in variants or {}:
        out[name]["ratio_to_ending"] = ratio(out[name]["actions_per_s"],
                                             out["ending"]["actions_per_s"])
    out["rounds"] = table
    return out


def summary(part: dict[str, Any] | None) -> dict[str, Any] | None:
    """The headline figures of :func:`closed_default` (``None`` when it did not run)."""
    if not part:
        return None
    keys = ("actions_per_s", "p50_ms", "p99_ms", "matches_ended", "ratio_to_bare")
    return {name: ({"skipped": part[name]["skipped"]} if "skipped" in part[name] else
                   {k: part[name].get(k) for k in keys})
            for name in part if isinstance(part.get(name), dict) and name != "rounds"} | {
        k: part.get(k) for k in ("ending_to_never_ending", "postgres_to_sqlite")}


def parse_variants(specs: list[str]) -> dict[str, dict[str, str]]:
    """``["name:K=V,K2=V2"]`` -> ``{"name": {"K": "V", "K2": "V2"}}``."""
    out: dict[str, dict[str, str]] = {}
    for spec in specs:
        name, _, pairs = spec.partition(":")
        out[name] = dict(p.split("=", 1) for p in pairs.split(",") if p)
    return out
