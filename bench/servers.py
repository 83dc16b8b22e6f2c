"""Servers under test for ``make bench``: start, observe (/proc, GC, /metrics), stop.

Each server runs as a subprocess under ``bench/gcwatch.py`` (GC pauses per measurement window)
on a free port, in its own temporary directory (cardhall: a fresh SQLite file there). CPU time
and RSS come from ``/proc/<pid>/stat`` and ``/proc/<pid>/status``, summed over the server's
process tree (``cardhall serve --workers N``: the supervisor and its live workers);
cardhall's own GC histogram ``cardhall_gc_pause_seconds`` (when it has one) from
``GET /metrics``. With ``--workers`` > 1 the GC figures are ``None``: uvicorn's supervisor
takes ``SIGUSR1`` over from gcwatch, whose hooks run in the supervisor only (the workers are
fresh interpreters), and each ``/metrics`` scrape reaches one worker at random.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
GC_METRIC = "cardhall_gc_pause_seconds"
LEVEL = re.compile(r"\[(warning|error|critical) *\]")
"""A warning or error line of the server's console log (structlog: ``[error    ]``)."""
RESTART = re.compile(r"Child process \[\d+\] died")
"""uvicorn's supervisor replaced a worker (``--workers``)."""

CARDHALL_ENV = {
    # the load generator sends far more than a person: lift the per-socket rate limit
    "CARDHALL_WS_RATE_PER_SECOND": "100000",
    "CARDHALL_WS_RATE_BURST": "100000",
    "CARDHALL_MAX_TABLES": "100000",
    # ... and the quotas and rates: one address creates every player, table and socket
    "CARDHALL_MAX_LIVE_TABLES_PER_PLAYER": "1000000",
    "CARDHALL_MAX_WAITING_TABLES_PER_ADDRESS": "1000000",
    "CARDHALL_MAX_SOCKETS_PER_PLAYER": "1000000",
    "CARDHALL_MAX_SOCKETS_PER_ADDRESS": "1000000",
    "CARDHALL_REST_RATE_LIMIT": "100000000/minute",
    "CARDHALL_GUEST_RATE_LIMIT": "100000000/minute",
    "CARDHALL_LOG_LEVEL": "WARNING",
    "CARDHALL_METRICS_ENABLED": "true",
}
"""Settings (``src/cardhall/config.py``) of the cardhall server under test."""


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """A cardhall (``kind="cardhall"``) or bare (``"bare"``) server subprocess.

    ``env``: settings on top of :data:`CARDHALL_ENV` and the temporary SQLite database (e.g.
    ``CARDHALL_DURABLE_TABLES``, or ``CARDHALL_DATABASE_URL`` for PostgreSQL); ``workers``:
    ``cardhall serve --workers`` (more than 1 needs cluster mode).
    """

    def __init__(self, kind: str, workdir: Path, env: dict[str, str] | None = None,
                 workers: int = 1) -> None:
        self.kind, self.workdir, self.workers = kind, workdir, workers
        self.env = dict(env or {})
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.gc_file = workdir / "gc.json"
        self.log_stats_file = workdir / "tablelog.json"
        self.log_file = workdir / "server.log"
        self.proc: subprocess.Popen[bytes] | None = None

    def command(self) -> list[str]:
        """The argv: gcwatch around ``cardhall serve`` or ``bench/bare_server.py``."""
        head = [sys.executable, str(BENCH / "gcwatch.py"), "--out", str(self.gc_file)]
        if self.kind == "cardhall":
            extra = ["--workers", str(self.workers)] if self.workers > 1 else []
            return [*head, "--log-out", str(self.log_stats_file), "--", "cardhall", "serve",
                    "--host", "127.0.0.1", "--port", str(self.port), *extra]
        return [*head, "--", str(BENCH / "bare_server.py"), "--port", str(self.port)]

    async def start(self, timeout: float = 60.0) -> None:
        """Start and wait until ``/healthz`` answers 200 and, with ``workers`` > 1, until every
        worker joined the cluster (:meth:`wait_workers`); ``RuntimeError`` after ``timeout``
        (times ``workers``: on a busy machine the supervisor may kill and restart a slow
        worker before it is up)."""
        import httpx

        timeout *= max(1, self.workers)
        env = {**os.environ, **CARDHALL_ENV,
               "CARDHALL_DATABASE_URL": f"sqlite+aiosqlite:///{self.workdir}/bench.db",
               "PYTHONPATH": str(ROOT / "src"), **self.env}
        with open(self.log_file, "wb") as log:
            self.proc = subprocess.Popen(self.command(), cwd=self.workdir, env=env,
                                         stdout=log, stderr=subprocess.STDOUT)
        end = time.monotonic() + timeout
        async with httpx.AsyncClient(base_url=self.base, timeout=5) as http:
            while time.monotonic() < end:
                if self.proc.poll() is not None:
                    raise RuntimeError(f"{self.kind} server exited: {self.log_tail()}")
                try:
                    if (await http.get("/healthz")).status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                await asyncio.sleep(0.1)
            else:
                raise RuntimeError(f"{self.kind} server not healthy after {timeout} s")
        if self.workers > 1:
            await self.wait_workers(end)

    async def wait_workers(self, end: float) -> None:
        """Wait until ``workers`` nodes are in the cluster's node set (``<prefix>:nodes`` in
        ``CARDHALL_REDIS_URL``; a worker joins it at the end of its start-up), then 0.5 s:
        ``/healthz`` answers as soon as the first worker does."""
        from redis.asyncio import Redis

        key = f"{self.env.get('CARDHALL_REDIS_PREFIX', 'cardhall')}:nodes"
        client = Redis.from_url(self.env["CARDHALL_REDIS_URL"])
        try:
            while await client.scard(key) < self.workers:
                if self.proc is not None and self.proc.poll() is not None:
                    raise RuntimeError(f"{self.kind} server exited: {self.log_tail()}")
                if time.monotonic() > end:
                    raise RuntimeError(f"{self.workers} workers not all up: {self.log_tail()}")
                await asyncio.sleep(0.1)
        finally:
            await client.aclose()
        await asyncio.sleep(0.5)

    def log_tail(self, chars: int = 800) -> str:
        """The end of the server's output (for error reports)."""
        try:
            return self.log_file.read_text(errors="replace")[-chars:]
        except OSError:
            return ""

    def log_levels(self) -> dict[str, Any]:
        """The server log's ``warning`` and ``error`` lines (structlog's console format,
        ``[error    ]``; ``critical`` counts as an error) and the first error line."""
        try:
            lines = self.log_file.read_text(errors="replace").splitlines()
        except OSError:
            return log_levels([])
        return log_levels(lines)

    def pids(self) -> list[int]:
        """The server process and its live descendants (:func:`process_tree`)."""
        assert self.proc is not None
        return process_tree(self.proc.pid)

    def cpu_by_pid(self) -> dict[int, float]:
        """User + system CPU seconds so far of each live process of the server's tree
        (``/proc/<pid>/stat``), the server process (the supervisor) first."""
        return {pid: cpu_of(pid) for pid in self.pids()}

    def rss_bytes(self) -> int:
        """Resident set size of the server's process tree (``VmRSS`` of each
        ``/proc/<pid>/status``, summed: pages the workers share count once per worker)."""
        return sum(rss_of(pid) for pid in self.pids())

    async def gc_dump(self, timeout: float = 10.0) -> dict[str, Any] | None:
        """Ask gcwatch for the pauses since the last dump (SIGUSR1); ``None`` on no answer.
        The same signal writes the table log's figures: :meth:`log_figures`."""
        assert self.proc is not None
        if self.workers > 1:
            return None  # the supervisor's own SIGUSR1 handler: gcwatch never hears it
        self.gc_file.unlink(missing_ok=True)
        self.log_stats_file.unlink(missing_ok=True)
        self.proc.send_signal(signal.SIGUSR1)
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.gc_file.exists():
                return dict(json.loads(self.gc_file.read_text()))
            await asyncio.sleep(0.05)
        return None

    def log_figures(self) -> dict[str, Any] | None:
        """The table log's figures since the dump before the last :meth:`gc_dump` (gcwatch
        ``--log-out``); ``None`` for the bare server or when the server wrote none."""
        try:
            return dict(json.loads(self.log_stats_file.read_text()))
        except (OSError, ValueError):
            return None

    async def gc_metric(self) -> dict[str, dict[str, Any]] | None:
        """cardhall's ``cardhall_gc_pause_seconds`` histogram per ``generation`` label
        (``{"count", "sum", "buckets": {le: cumulative count}}``), ``None`` if absent."""
        import httpx

        if self.kind != "cardhall" or self.workers > 1:
            return None
        try:
            async with httpx.AsyncClient(base_url=self.base, timeout=10) as http:
                text = (await http.get("/metrics")).text
        except httpx.HTTPError:
            return None
        return parse_gc_metric(text)

    def stop(self) -> None:
        """SIGTERM, then SIGKILL after 10 s (of every process of the tree, so no worker
        outlives its supervisor). Safe to call twice."""
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()  # uvicorn's supervisor passes it on to each worker
        try:
            self.proc.wait(10 + 5 * (self.workers > 1))
        except subprocess.TimeoutExpired:
            for pid in self.pids()[1:]:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            self.proc.kill()
            self.proc.wait(10)


def log_levels(lines: list[str]) -> dict[str, Any]:
    """``warning`` and ``error`` (``critical`` included) lines of a console-format log, the
    first of each (200 characters) and ``worker_restarts``: workers uvicorn's supervisor
    replaced (``Child process [pid] died``, logged at info: it kills a worker that does not
    answer its health check within 5 s, a start-up included)."""
    counts = {"warning": 0, "error": 0, "worker_restarts": 0}
    first: dict[str, str | None] = {"first_warning": None, "first_error": None}
    for line in lines:
        counts["worker_restarts"] += bool(RESTART.search(line))
        level = LEVEL.search(line[:60])
        if level is None:
            continue
        name = "error" if level.group(1) in ("error", "critical") else "warning"
        counts[name] += 1
        if first[f"first_{name}"] is None:
            first[f"first_{name}"] = line[:200]
    return {**counts, **first}


def stat_fields(pid: int) -> list[str]:
    """The fields of ``/proc/<pid>/stat`` after the command name (``state`` first)."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def process_tree(root: int) -> list[int]:
    """``root`` and every live descendant (by the parent pid in each ``/proc/<pid>/stat``)."""
    parent_of: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):  # gone meanwhile
                parent_of[int(entry.name)] = int(stat_fields(int(entry.name))[1])
    return descendants(root, parent_of)


def descendants(root: int, parent_of: dict[int, int]) -> list[int]:
    """``root`` and every process below it in ``parent_of`` (pid -> parent pid): ``root``
    first, then breadth first, siblings by pid."""
    children: dict[int, list[int]] = {}
    for pid, ppid in parent_of.items():
        children.setdefault(ppid, []).append(pid)
    tree, i = [root], 0
    while i < len(tree):
        tree += sorted(children.get(tree[i], []))
        i += 1
    return tree


def tree_cpu_cores(start: dict[int, float], end: dict[int, float],
                   wall: float) -> tuple[float | None, list[float]]:
    """Cores used over a window of ``wall`` seconds by a process tree sampled at its start
    and end (pid -> CPU seconds, :meth:`Server.cpu_by_pid`): the sum and each process's (in
    ``end``'s order). A process alive at the end counts from the start (0 if it was born in
    the window); one that died in the window is lost (its seconds left with it)."""
    if wall <= 0:
        return None, []
    each = [round((cpu - start.get(pid, 0.0)) / wall, 2) for pid, cpu in end.items()]
    return round(sum((cpu - start.get(pid, 0.0)) for pid, cpu in end.items()) / wall, 2), each


def cpu_of(pid: int) -> float:
    """User + system CPU seconds of one process, 0 when it is gone."""
    try:
        fields = stat_fields(pid)
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_of(pid: int) -> int:
    """``VmRSS`` of one process in bytes, 0 when it is gone."""
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:
        return 0
    for line in lines:
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def parse_gc_metric(text: str) -> dict[str, dict[str, Any]] | None:
    """``cardhall_gc_pause_seconds`` of a Prometheus text exposition, per ``generation``
    label: ``{"count", "sum", "buckets": {le (s): cumulative count}}``; ``None`` if absent."""
    from prometheus_client.parser import text_string_to_metric_families

    out: dict[str, dict[str, Any]] = {}
    for family in text_string_to_metric_families(text):
        if family.name != GC_METRIC:
            continue
        for s in family.samples:
            gen = out.setdefault(s.labels.get("generation", "?"),
                                 {"count": 0.0, "sum": 0.0, "buckets": {}})
            if s.name.endswith("_bucket"):
                gen["buckets"][float(s.labels["le"])] = s.value
            elif s.name.endswith("_count"):
                gen["count"] = s.value
            elif s.name.endswith("_sum"):
                gen["sum"] = s.value
    return out or None


def metric_window(before: dict[str, Any] | None,
                  after: dict[str, Any] | None) -> dict[str, Any] | None:
    """Per generation, the histogram's observations between two scrapes: ``count``,
    ``total_ms`` and ``max_le_ms`` (the smallest bucket bound holding every one of them)."""
    if after is None:
        return None
    out = {}
    for gen, a in sorted(after.items()):
        b = (before or {}).get(gen, {"count": 0.0, "sum": 0.0, "buckets": {}})
        count = a["count"] - b["count"]
        bound = next((le for le in sorted(a["buckets"])
                      if a["buckets"][le] - b["buckets"].get(le, 0.0) >= count), None)
        out[gen] = {"count": int(count), "total_ms": round(1000 * (a["sum"] - b["sum"]), 2),
                    "max_le_ms": None if bound is None else round(1000 * bound, 2)}
    return out
