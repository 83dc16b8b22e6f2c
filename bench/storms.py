"""The reconnect-storm parts of ``make bench`` (issue 26): ``storm`` and ``restart_storm``.

Each arm runs on a fresh cardhall server (``bench/servers.py``: the default configuration, a
SQLite file, durable tables on) and the load script ``bench/storm.py`` in a process of its
own: ``seat`` makes the tables and takes every seat once, then ``storm`` reconnects every
socket, ``batch`` handshakes in flight, each saying ``hello`` and resuming its seat. In
``restart_storm`` the server is stopped (SIGTERM: the drain) and started again on the same
database between the two, so the storm meets a server that has just restored every durable
table. Both layouts run: ``one`` (one player per socket) and ``shared`` (4 sockets per
player). ``before`` is the same arm with the hello path as it was before issue 26
(:data:`BEFORE_ENV`: no identity cache, SQLAlchemy's default pool), measured in the same run;
``bare`` is the same number of sockets opened against ``bench/bare_server.py`` (the floor).
"""

from __future__ import annotations

import asyncio
import json
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
                    env: dict[str, str] | None = None, bound: float = 600.0) -> dict[str, Any]:
    """One arm: a fresh server, ``seat`` then (after a restart when ``restart``) ``storm``;
    the storm's figures plus ``seat_s`` and ``restart_s`` (seconds to healthy again)."""
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
                               str(batch), bound=bound)
        finally:
            server.stop()
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
    return {**{k: arm.get(k) for k in SUMMARY_KEYS},
            "p99_ms": (arm.get("latency") or {}).get("p99_ms"), "restart_s": arm.get("restart_s")}


async def storms(tables: int, batch: int, restart: bool, errors: list[str],
                 layouts: tuple[str, ...] = ("one", "shared"),
                 before: bool = True) -> dict[str, Any]:
    """Every layout after (and, with ``before``, before) issue 26, then the bare floor;
    ``time_ratio_to_bare``: seconds to seat everyone over the bare server's."""
    name = "restart_storm" if restart else "storm"
    bare = await guarded(errors, f"{name}: bare {4 * tables} sockets", bare_arm(tables, batch))
    out: dict[str, Any] = {"tables": tables, "batch": batch, "bare": brief(bare)}
    for layout in layouts:
        sides: dict[str, Any] = {}
        for side in ("before", "after") if before else ("after",):
            env = BEFORE_ENV if side == "before" else None
            sides[side] = await guarded(errors, f"{name} {layout} {tables} tables: {side}",
                                        storm_arm(tables, layout, batch, restart, env))
        after = sides["after"] or {}
        out[layout] = {**{s: brief(a) for s, a in sides.items()},
                       "time_ratio_to_bare": ratio(after.get("seconds_to_all_seated"),
                                                   (bare or {}).get("seconds_to_all_seated")),
                       "latency": {s: (a or {}).get("latency") for s, a in sides.items()}}
        if (sides["after"] or {}).get("refused"):
            errors.append(f"{name} {layout}: {after['refused']} sockets refused "
                          f"({after.get('refused_by')})")
    return out


def summary(part: dict[str, Any] | None) -> dict[str, Any] | None:
    """A storm part without its latency tables (the headline figures of ``make bench``)."""
    if part is None:
        return None
    return {k: ({kk: vv for kk, vv in v.items() if kk != "latency"} if isinstance(v, dict)
                and "time_ratio_to_bare" in v else v) for k, v in part.items()}
