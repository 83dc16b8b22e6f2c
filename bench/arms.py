"""The WebSocket arms of ``make bench``: one fresh server + one load-generator process each.

:func:`load_arm` starts a server (``bench/servers.py``), runs ``bench/loadgen.py`` against it
in a subprocess, and samples the server in step with the load generator's phase lines: RSS
when idle and once every client is connected, CPU time and GC pauses over the measurement
window. The server is always stopped, also on errors and timeouts. :func:`cluster_arm` does
the same with one or two cluster nodes (``bench/cluster.py``), each sampled alike.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from servers import Server, metric_window, tree_cpu_cores

BENCH = Path(__file__).resolve().parent


def loadgen_argv(server: Server, mode: str, tables: int, duration: float, warmup: float,
                 **extra: Any) -> list[str]:
    """The load generator's command line (``extra``: ``turn_timeout=1.0`` -> ``--turn-timeout
    1.0``; ``rematch=True`` -> ``--rematch``, ``False`` or ``None``: left out)."""
    argv = [sys.executable, str(BENCH / "loadgen.py"), "--target", server.kind,
            "--base", server.base, "--mode", mode, "--tables", str(tables),
            "--duration", str(duration), "--warmup", str(warmup)]
    for key, value in extra.items():
        flag = f"--{key.replace('_', '-')}"
        if value is True:
            argv.append(flag)
        elif value is not False and value is not None:
            argv += [flag, str(value)]
    return argv


async def load_arm(kind: str, mode: str, tables: int, duration: float, warmup: float,
                   setup_timeout: float = 300.0, server_env: dict[str, str] | None = None,
                   workers: int = 1, **extra: Any) -> dict[str, Any]:
    """One arm: the load generator's result plus ``server`` figures (``cpu_cores`` over the
    window, ``rss_idle_mb``, ``rss_loaded_mb``, ``rss_per_connection_kb``, ``gc_pauses`` from
    gcwatch, ``gc_metric`` from ``/metrics`` or ``None``, ``table_log``: the table log's
    window figures from gcwatch, ``None`` when no log ran; ``log_lines``: the server log's
    warnings and errors, :meth:`~servers.Server.log_levels`). ``server_env``: settings of the
    server (:class:`~servers.Server`); ``workers``: ``cardhall serve --workers``. Raises ``RuntimeError`` when the server or the load
    generator fails or overruns its bound."""
    with tempfile.TemporaryDirectory(prefix=f"cardhall-bench-{kind}-") as d:
        server = Server(kind, Path(d), env=server_env, workers=workers)
        try:
            await server.start()
            argv = loadgen_argv(server, mode, tables, duration, warmup,
                                setup_timeout=setup_timeout, **extra)
            bound = setup_timeout + warmup + duration + 60
            result = await asyncio.wait_for(drive(server, argv), bound)
        except TimeoutError as e:
            raise RuntimeError(f"{kind} {mode} {tables}: over its time bound") from e
        finally:
            server.stop()
        result["server"]["log_lines"] = server.log_levels()
        return result


async def drive(servers: Server | list[Server], argv: list[str],
                on_created: Callable[[], Awaitable[None]] | None = None) -> dict[str, Any]:
    """Run the load generator; sample every server at its phase lines; return the result with
    ``server`` (the first server's figures) and, for several servers, ``nodes`` (each one's).

    ``on_created``: awaited at the ``created`` phase line (``--hold-after-create``), before
    the load generator is told to go on; servers it starts are sampled from then on."""
    servers = servers if isinstance(servers, list) else [servers]
    idle = [s.rss_bytes() if s.proc is not None else None for s in servers]
    proc = await asyncio.create_subprocess_exec(
        *argv, stdout=asyncio.subprocess.PIPE,
        stdin=asyncio.subprocess.PIPE if on_created is not None else None)
    assert proc.stdout is not None
    sampled: list[dict[str, Any]] = [{} for _ in servers]
    result: dict[str, Any] | None = None
    try:
        while result is None:
            line = await proc.stdout.readline()
            if not line:
                break
            msg = json.loads(line)
            phase = msg.pop("phase")
            if phase == "created" and on_created is not None:
                assert proc.stdin is not None
                await on_created()
                idle = [s.rss_bytes() if i is None else i for s, i in zip(servers, idle,
                                                                           strict=True)]
                proc.stdin.write(b"go\n")
                await proc.stdin.drain()
            elif phase == "result":
                result = msg
            else:
                for server, samples in zip(servers, sampled, strict=True):
                    await sample(server, phase, msg, samples)
        await proc.wait()
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    if result is None:
        tails = " | ".join(s.log_tail() for s in servers)
        raise RuntimeError(f"load generator exited {proc.returncode} without a result; "
                           f"server log: {tails}")
    figures = [server_figures(i or 0, s) for i, s in zip(idle, sampled, strict=True)]
    result["server"] = figures[0]
    if len(servers) > 1:
        result["nodes"] = figures
    return result


async def sample(server: Server, phase: str, msg: dict[str, Any],
                 sampled: dict[str, Any]) -> None:
    """Take ``server``'s samples of one phase line into ``sampled`` (see :func:`drive`)."""
    if phase == "connected":
        sampled["rss_loaded"] = server.rss_bytes()
        sampled["connections"] = msg["connections"]
    elif phase == "measure_start":
        await server.gc_dump()  # forget the set-up's pauses
        sampled["metric0"] = await server.gc_metric()
        sampled["cpu0"], sampled["t0"] = server.cpu_by_pid(), time.monotonic()
    elif phase == "measure_end":
        sampled["cpu1"], sampled["t1"] = server.cpu_by_pid(), time.monotonic()
        sampled["gc"] = await server.gc_dump()
        sampled["log"] = server.log_figures()
        sampled["metric1"] = await server.gc_metric()


def server_figures(rss_idle: int, s: dict[str, Any]) -> dict[str, Any]:
    """The server's figures of one arm from the samples taken by :func:`drive`."""
    wall = s.get("t1", 0.0) - s.get("t0", 0.0)
    loaded = s.get("rss_loaded", rss_idle)
    conns = s.get("connections") or 0
    cores, each = tree_cpu_cores(s.get("cpu0", {}), s.get("cpu1", {}), wall)
    return {
        "cpu_cores": cores,
        "process_cpu_cores": each if len(each) > 1 else None,
        "rss_idle_mb": round(rss_idle / 2**20, 1),
        "rss_loaded_mb": round(loaded / 2**20, 1),
        "rss_per_connection_kb": round((loaded - rss_idle) / conns / 1024, 1) if conns else None,
        "gc_pauses": s.get("gc"),
        "gc_metric": metric_window(s.get("metric0"), s.get("metric1")),
        "table_log": s.get("log") if (s.get("log") or {}).get("steps") else None,
    }


LAYOUTS = ("one", "hop", "split")
"""Where a cluster arm's tables and clients go (:func:`cluster_arm`)."""


async def cluster_arm(layout: str, mode: str, tables: int, duration: float, warmup: float,
                      node_env: dict[str, str], setup_timeout: float = 300.0,
                      **extra: Any) -> dict[str, Any]:
    """One arm of the cluster section: cardhall nodes sharing ``node_env`` (the database, and
    ``CARDHALL_REDIS_URL``/``CARDHALL_REDIS_PREFIX`` for a cluster), the load generator's
    result with ``nodes`` (each node's server figures) for two nodes. ``layout``:

    * ``"one"``: one node; tables created and clients connected there;
    * ``"hop"``: two nodes; every table created on node A while it is alone (node B starts
      once the tables exist, so placement cannot pick it), every client on node B: every
      request and frame crosses Redis;
    * ``"split"``: two nodes from the start; tables created on A and B alternately (placement
      is least-loaded anyway), each client on A or B at random.

    Raises ``RuntimeError`` when a node or the load generator fails or overruns its bound;
    every node is stopped."""
    if layout not in LAYOUTS:
        raise ValueError(f"layout {layout!r} is none of {LAYOUTS}")
    count = 1 if layout == "one" else 2
    with contextlib.ExitStack() as dirs:
        nodes = [Server("cardhall", Path(dirs.enter_context(tempfile.TemporaryDirectory(
            prefix=f"cardhall-bench-node{i}-"))), env={**node_env, "CARDHALL_NODE_ID":
            f"bench-{'ab'[i]}"}) for i in range(count)]
        try:
            await asyncio.gather(*(n.start() for n in (nodes if layout == "split"
                                                          else nodes[:1])))
            a, b = nodes[0].base, nodes[-1].base
            rest = [a, b] if layout == "split" else [a]
            ws = {"one": [a], "hop": [b], "split": [a, b]}[layout]
            argv = loadgen_argv(nodes[0], mode, tables, duration, warmup,
                                setup_timeout=setup_timeout, **extra)
            argv += [x for base in rest for x in ("--rest-base", base)]
            argv += [x for base in ws for x in ("--ws-base", base)]
            on_created = None
            if layout == "hop":
                argv.append("--hold-after-create")
                on_created = nodes[1].start
            bound = setup_timeout + warmup + duration + 120
            return await asyncio.wait_for(drive(nodes, argv, on_created), bound)
        except TimeoutError as e:
            raise RuntimeError(f"cluster {layout} {mode} {tables}: over its time bound") from e
        finally:
            for node in nodes:
                node.stop()


async def timer_anchor(timers: int, spread: float) -> dict[str, Any]:
    """``bench/timer_anchor.py`` in a subprocess (bounded: spread + 60 s)."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, str(BENCH / "timer_anchor.py"), "--timers", str(timers),
        "--spread", str(spread), stdout=asyncio.subprocess.PIPE)
    try:
        out, _ = await asyncio.wait_for(proc.communicate(), spread + 60)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    return dict(json.loads(out))
