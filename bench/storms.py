"""The reconnect-storm parts of ``make bench`` (issue 26): ``storm`` and ``restart_storm``.

Each arm runs on a fresh cardhall server (``bench/servers.py``: the default configuration, a
SQLite file, durable tables on) and the load script ``bench/storm.py`` in a process of its
own: ``seat`` makes the tables and takes every seat once, then ``storm`` reconnects every
socket, ``batch`` handshakes in flight, each saying ``hello`` and resuming its seat. In
``restart_storm`` the server is stopped (SIGTERM: the drain) and started again on the same
database between the two, so the storm meets a server that has just restored every durable
table. Variants (:data:`VARIANTS`): ``one`` (one player per socket), ``shared`` (4 sockets
per player) and ``play`` (``one`` with the table traffic of a restart: each table acts once a
second as soon as its seats are back, while the rest still reconnect, and 5 s after the last
seat; ``storm.py --play-rate 1``, ``bench/stormplay.py``). ``before`` is the same arm with the hello path as it was before issue 26
(:data:`BEFORE_ENV`: no identity cache, SQLAlchemy's default pool), measured in the same run;
``bare`` is the same number of sockets opened against ``bench/bare_server.py`` (the floor).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from runkit import guarded, ratio
from servers import Server

BENCH = Path(__file__).resolve().parent

BEFORE_ENV = {"CARDHALL_AUTH_CACHE_SECONDS": "0", "CARDHALL_DB_POOL_SIZE": "5",
              "CARDHALL_DB_MAX_OVERFLOW": "10"}
"""The settings that put the hello path back as it was before issue 26: every ``hello`` and
``join`` reads the database, through a pool of 5 + 10 connections."""

VARIANTS: dict[str, tuple[str, tuple[str, ...]]] = {
    "one": ("one", ()), "shared": ("shared", ()), "play": ("one", ("--play-rate", "1"))}
"""Each variant's layout and extra ``storm.py storm`` arguments."""


async def script(*args: str, bound: float) -> dict[str, Any]:
    """``bench/storm.py`` with ``args``; its JSON object. Raises ``RuntimeError`` when it
    fails or overruns ``bound`` seconds."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, str(BENCH / "storm.py"), *args, "--timeout", str(bound - 10),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        out, err = await asyncio.wait_for(proc.communicate(), bound)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    if proc.returncode != 0:
        raise RuntimeError(f"storm.py {args[0]} exited {proc.returncode}: "
                           f"{err.decode(errors='replace')[-600:]}")
    return dict(json.loads(out))


async def storm_arm(tables: int, layout: str, batch: int, restart: bool,
                    env: dict[str, str] | None = None, bound: float = 600.0,
                    extra: tuple[str, ...] = (), keep: Path | None = None) -> dict[str, Any]:
    """One arm: a fresh server, ``seat`` then (after a restart when ``restart``) ``storm``
    (with ``extra`` arguments); the storm's figures plus ``seat_s`` and ``restart_s`` (seconds
    to healthy again). ``keep``: where to copy the server's log before its directory goes."""
    with tempfile.TemporaryDirectory(prefix="cardhall-bench-storm-") as d:
        plan = str(Path(d) / "plan.json")
        server = Server("cardhall", Path(d), env=env)
        try:
            await server.start()
            seated = await script("seat", "--base", server.base, "--plan", plan, "--tables",
                                  str(tables), "--layout", layout, bound=bound)
            restart_s = None
            if restart:
                server.stop()
                t0 = asyncio.get_running_loop().time()
                await server.start(timeout=bound)
                restart_s = round(asyncio.get_running_loop().time() - t0, 2)
            out = await script("storm", "--base", server.base, "--plan", plan, "--batch",
                               str(batch), *extra, bound=bound)
        finally:
            server.stop()
            if keep is not None:
                shutil.copy(server.log_file, keep)
    return {**out, "seat_s": seated["seconds"], "restart_s": restart_s}


async def bare_arm(tables: int, batch: int, bound: float = 300.0) -> dict[str, Any]:
    """The same number of sockets against the bare server, ``batch`` in flight (the second
    of two storms: the first warms the server up)."""
    with tempfile.TemporaryDirectory(prefix="cardhall-bench-storm-bare-") as d:
        plan = Path(d) / "plan.json"
        plan.write_text(json.dumps({"layout": "one", "tables": tables, "sockets": [
            {"player": str(i)} for i in range(4 * tables)]}))
        server = Server("bare", Path(d))
        try:
            await server.start()
            argv = ("storm", "--base", server.base, "--plan", str(plan), "--batch", str(batch),
                    "--target", "bare")
            await script(*argv, bound=bound)  # a warm-up: the first accepts are slower
            return await script(*argv, bound=bound)
        finally:
            server.stop()


SUMMARY_KEYS = ("sockets", "players", "seated", "refused", "refused_by",
                "seconds_to_all_seated", "sockets_per_s")


def brief(arm: dict[str, Any] | None) -> dict[str, Any] | None:
    """An arm's headline figures (``None`` for an arm that failed)."""
    if arm is None:
        return None
    out = {**{k: arm.get(k) for k in SUMMARY_KEYS},
           "p99_ms": (arm.get("latency") or {}).get("p99_ms"), "restart_s": arm.get("restart_s")}
    if "play" in arm:
        play = arm["play"]
        out["play"] = {"act_p99_ms": {w: play[w]["latency"]["p99_ms"] for w in ("storm", "after")},
                       "acts_refused_by": {w: play[w]["refused_by"] for w in ("storm", "after")},
                       "closed_while_playing": play["closed_while_playing"]}
    return out


async def storms(tables: int, batch: int, restart: bool, errors: list[str],
                 variants: tuple[str, ...] = tuple(VARIANTS), before: bool = True,
                 keep: Path | None = None) -> dict[str, Any]:
    """The bare floor, then every variant after (and, with ``before``, before) issue 26;
    ``time_ratio_to_bare``: seconds to seat everyone over the bare server's; a ``play``
    variant keeps its play figures under ``play``. ``keep``: a folder for the servers' logs."""
    name = "restart_storm" if restart else "storm"
    bare = await guarded(errors, f"{name}: bare {4 * tables} sockets", bare_arm(tables, batch))
    out: dict[str, Any] = {"tables": tables, "batch": batch, "bare": brief(bare)}
    for variant in variants:
        layout, extra = VARIANTS[variant]
        sides: dict[str, Any] = {}
        for side in ("before", "after") if before else ("after",):
            env = BEFORE_ENV if side == "before" else None
            log = None if keep is None else keep / f"{name}-{variant}-{side}.log"
            sides[side] = await guarded(errors, f"{name} {variant} {tables} tables: {side}",
                                        storm_arm(tables, layout, batch, restart, env,
                                                  extra=extra, keep=log))
        after = sides["after"] or {}
        out[variant] = {**{s: brief(a) for s, a in sides.items()},
                        "time_ratio_to_bare": ratio(after.get("seconds_to_all_seated"),
                                                    (bare or {}).get("seconds_to_all_seated")),
                        "latency": {s: (a or {}).get("latency") for s, a in sides.items()}}
        if extra:
            out[variant]["play"] = {s: (a or {}).get("play") for s, a in sides.items()}
        if after.get("refused"):
            errors.append(f"{name} {variant}: {after['refused']} sockets refused "
                          f"({after.get('refused_by')})")
        if (after.get("play") or {}).get("closed_while_playing"):
            errors.append(f"{name} {variant}: sockets closed while playing "
                          f"({after['play']['closed_while_playing']})")
    return out


def summary(part: dict[str, Any] | None) -> dict[str, Any] | None:
    """A storm part without its latency tables (the headline figures of ``make bench``)."""
    if part is None:
        return None
    return {k: ({kk: vv for kk, vv in v.items() if kk not in ("latency", "play")}
                if isinstance(v, dict) and "time_ratio_to_bare" in v else v)
            for k, v in part.items()}


def main() -> None:
    """One storm part alone, e.g. only the ``play`` variant at 1,000 tables (``--variants
    play``); prints its JSON object (``errors`` inside)."""
    ap = argparse.ArgumentParser(description=main.__doc__)
    ap.add_argument("--tables", type=int, default=1000)
    ap.add_argument("--batch", type=int, default=100)
    ap.add_argument("--variants", default=",".join(VARIANTS), help="comma-separated")
    ap.add_argument("--restart", action="store_true", help="restart_storm instead of storm")
    ap.add_argument("--before", action="store_true", help="also the before-issue-26 arms")
    ap.add_argument("--keep", type=Path, help="a folder to keep the servers' logs in")
    a = ap.parse_args()
    if a.keep:
        a.keep.mkdir(parents=True, exist_ok=True)
    errors: list[str] = []
    variants = tuple(v for v in a.variants.split(",") if v)
    out = asyncio.run(storms(a.tables, a.batch, a.restart, errors, variants, a.before, a.keep))
    print(json.dumps({**out, "errors": errors}, indent=1), flush=True)


if __name__ == "__main__":
    main()
