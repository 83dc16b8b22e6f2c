"""Servers under test for ``make bench``: start, observe (/proc, GC, /metrics), stop.

Each server runs as a subprocess under ``bench/gcwatch.py`` (GC pauses per measurement window)
on a free port, in its own temporary directory (cardhall: a fresh SQLite file there). CPU time
and RSS come from ``/proc/<pid>/stat`` and ``/proc/<pid>/status``; cardhall's own GC histogram
``cardhall_gc_pause_seconds`` (when it has one) from ``GET /metrics``.
"""

from __future__ import annotations

import asyncio
import json
import os
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
    ``CARDHALL_DURABLE_TABLES``, or ``CARDHALL_DATABASE_URL`` for PostgreSQL).
    """

    def __init__(self, kind: str, workdir: Path, env: dict[str, str] | None = None) -> None:
        self.kind, self.workdir = kind, workdir
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
            return [*head, "--log-out", str(self.log_stats_file), "--", "cardhall", "serve",
                    "--host", "127.0.0.1", "--port", str(self.port)]
        return [*head, "--", str(BENCH / "bare_server.py"), "--port", str(self.port)]

    async def start(self, timeout: float = 60.0) -> None:
        """Start and wait until ``/healthz`` answers 200 (``RuntimeError`` after ``timeout``)."""
        import httpx

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
                        return
                except httpx.TransportError:
                    pass
                await asyncio.sleep(0.1)
        raise RuntimeError(f"{self.kind} server not healthy after {timeout} s")

    def log_tail(self, chars: int = 800) -> str:
        """The end of the server's output (for error reports)."""
        try:
            return self.log_file.read_text(errors="replace")[-chars:]
        except OSError:
            return ""

    def cpu_seconds(self) -> float:
        """User + system CPU seconds of the server process so far (``/proc/<pid>/stat``)."""
        assert self.proc is not None
        stat = Path(f"/proc/{self.proc.pid}/stat").read_text()
        fields = stat.rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def rss_bytes(self) -> int:
        """Resident set size of the server process (``VmRSS`` of ``/proc/<pid>/status``)."""
        assert self.proc is not None
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
        return 0

    async def gc_dump(self, timeout: float = 10.0) -> dict[str, Any] | None:
        """Ask gcwatch for the pauses since the last dump (SIGUSR1); ``None`` on no answer.
        The same signal writes the table log's figures: :meth:`log_figures`."""
        assert self.proc is not None
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

        if self.kind != "cardhall":
            return None
        try:
            async with httpx.AsyncClient(base_url=self.base, timeout=10) as http:
                text = (await http.get("/metrics")).text
        except httpx.HTTPError:
            return None
        return parse_gc_metric(text)

    def stop(self) -> None:
        """SIGTERM, then SIGKILL after 10 s. Safe to call twice."""
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)


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
