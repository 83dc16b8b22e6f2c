"""A real ``cardhall serve`` process for tests of signals, crashes and restarts.

``ProcServer.start`` runs ``python -m cardhall.cli serve`` with ``CARDHALL_*`` overrides on a
free (or given) port, in a working directory of the test's, and waits (bounded) until
``GET /healthz`` answers. Its stderr goes to a file (``stderr_path``; :meth:`ProcServer.log`
reads it) so a failing test can show what the server said. Every wait is bounded; none sleeps
for a fixed time. Reuse the same ``port`` and ``CARDHALL_DATABASE_URL`` to restart a server on
the same data (e.g. after ``kill(signal.SIGKILL)``).

    async with proc_server(tmp_path) as srv:
        ...  # srv.base_url, srv.ws_url
        srv.kill(signal.SIGTERM)
        assert await srv.wait(15) == 0
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import IO

import httpx

READY_SECONDS = 30.0
"""How long a starting server may take to answer ``/healthz`` (migrations included)."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago (the kernel's choice)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class ProcServer:
    """One ``cardhall serve`` child process.

    Args:
        workdir: the process's working directory (stderr file, default SQLite file).
        env: ``CARDHALL_*`` overrides on top of the defaults below (values as strings).
        port: the port to listen on (default: a free one).
        name: names the stderr file, ``<workdir>/<name>.stderr`` (several servers per test).

    Defaults: ``CARDHALL_HOST=127.0.0.1``, ``CARDHALL_DATABASE_URL`` a SQLite file
    ``<workdir>/cardhall.db``, ``CARDHALL_ADMIN_TOKEN=admin-secret``, no bot delay.
    """

    def __init__(self, workdir: Path, env: dict[str, str] | None = None,
                 port: int | None = None, name: str = "server") -> None:
        self.workdir = workdir
        self.port = free_port() if port is None else port
        self.stderr_path = workdir / f"{name}.stderr"
        self.env = {"CARDHALL_HOST": "127.0.0.1",
                    "CARDHALL_DATABASE_URL": f"sqlite+aiosqlite:///{workdir / 'cardhall.db'}",
                    "CARDHALL_ADMIN_TOKEN": "admin-secret", "CARDHALL_BOT_DELAY_SECONDS": "0",
                    **(env or {}), "CARDHALL_PORT": str(self.port)}
        self.proc: subprocess.Popen[bytes] | None = None
        self._stderr: IO[bytes] | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def http(self) -> httpx.AsyncClient:
        """A new client on :attr:`base_url` (use it in ``async with``)."""
        return httpx.AsyncClient(base_url=self.base_url, timeout=10.0)

    async def start(self, ready_seconds: float = READY_SECONDS) -> ProcServer:
        """Start the process and wait until ``/healthz`` answers 200.

        Raises ``RuntimeError`` (with the stderr tail) when the process exits first, and
        ``TimeoutError`` when it is not ready within ``ready_seconds``.
        """
        self._stderr = open(self.stderr_path, "ab")  # noqa: SIM115 (closed in wait/stop)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "cardhall.cli", "serve"], cwd=self.workdir,
            env={**os.environ, **self.env}, stdin=subprocess.DEVNULL,
            stdout=self._stderr, stderr=self._stderr)
        async with asyncio.timeout(ready_seconds), self.http() as http:
            while not await self._healthy(http):
                if self.proc.poll() is not None:
                    raise RuntimeError(f"cardhall serve exited with {self.proc.returncode} "
                                       f"before it was ready:\n{self.log()[-4000:]}")
                await asyncio.sleep(0.05)  # polling a condition, bounded by the timeout
        return self

    @staticmethod
    async def _healthy(http: httpx.AsyncClient) -> bool:
        try:
            return (await http.get("/healthz")).status_code == 200
        except httpx.TransportError:
            return False

    def kill(self, sig: int = signal.SIGTERM) -> None:
        """Send ``sig`` to the process (SIGTERM: a graceful drain; SIGKILL: a crash)."""
        assert self.proc is not None, "not started"
        self.proc.send_signal(sig)

    async def wait(self, timeout: float) -> int:
        """The exit status once the process ends (negative: killed by that signal).

        Raises ``TimeoutError`` when it is still running after ``timeout`` seconds."""
        assert self.proc is not None, "not started"
        try:
            code = await asyncio.to_thread(self.proc.wait, timeout)
        except subprocess.TimeoutExpired as exc:
            raise TimeoutError(f"cardhall serve still running after {timeout} s") from exc
        self._close_log()
        return code

    async def stop(self) -> None:
        """End the process if it still runs (SIGKILL, bounded wait) and close the log file."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            with contextlib.suppress(TimeoutError):
                await self.wait(10.0)
        self._close_log()

    def log(self) -> str:
        """Everything the process wrote to stdout and stderr so far."""
        return self.stderr_path.read_text(encoding="utf-8", errors="replace") \
            if self.stderr_path.exists() else ""

    def _close_log(self) -> None:
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None


@contextlib.asynccontextmanager
async def proc_server(workdir: Path, env: dict[str, str] | None = None,
                      port: int | None = None, name: str = "server") -> AsyncIterator[ProcServer]:
    """A started :class:`ProcServer`; killed (if still running) on exit."""
    srv = ProcServer(workdir, env, port, name)
    try:
        yield await srv.start()
    finally:
        await srv.stop()
