"""``cardhall serve``: run the app under uvicorn, draining it on SIGTERM/SIGINT.

``--workers N`` (N > 1) runs N worker processes behind one listening socket (uvicorn's
supervisor); each worker builds the app itself (:data:`APP_FACTORY`) and is a node of its
own, so it needs cluster mode (``CARDHALL_REDIS_URL``, ``docs/scaling.md``): without it every
worker would have its own tables, lobby and quotas, and a player's socket would reach a
worker that does not know the table. :func:`workers_refusal` says why it refuses.
"""

from __future__ import annotations

import pickle
import sys
import time
from typing import Any

import uvicorn
from fastapi import FastAPI
from uvicorn.supervisors import multiprocess

from ..config import Settings
from .app import create_app
from .drain import DrainingServer
from .observability import configure_logging

STARTUP_FAILURE = 3
"""Exit status when the server never started (uvicorn's own ``STARTUP_FAILURE``)."""
USAGE_ERROR = 2
"""Exit status of a refused ``--workers`` (argparse's status for a bad command line)."""
APP_FACTORY = "cardhall.server.app:create_app_from_env"
"""The import string of the app factory each worker calls (``uvicorn --factory``)."""
WORKER_HEALTHCHECK_SECONDS = 60
"""How long uvicorn's supervisor waits for a worker's answer to its health check before it
kills and restarts the worker (uvicorn's default, 5 s, is less than a worker's start on a
busy 2-core machine: workers were killed while starting, over and over). A worker that dies
meanwhile is seen dead within :data:`HEALTHCHECK_POLL_SECONDS` (:meth:`DrainingProcess.
_healthcheck`), not after this."""
HEALTHCHECK_POLL_SECONDS = 0.25
"""How often a health check waiting for a worker's answer looks whether the worker died."""


def make_server(app: FastAPI | str, settings: Settings, *, host: str, port: int,
                **options: Any) -> DrainingServer:
    """The uvicorn server for ``app``: the WebSocket settings of ``design.md`` section 9
    (``settings.ws_implementation``, ``ws_max_size_bytes``, no per-message deflate), the
    proxy headers believed only from ``settings.trusted_proxies`` (none by default: uvicorn's
    own default would trust any local client's ``X-Forwarded-For``) and the drain of
    ``server/drain.py`` with ``settings.shutdown_grace_seconds``.

    ``app`` is the app, or an import string of an app factory (:data:`APP_FACTORY`, with
    ``factory=True`` and ``workers`` in ``options``). ``options`` are more ``uvicorn.Config``
    arguments (e.g. ``log_level``); ``port`` 0 picks a free port (read it from
    ``server.servers`` once started).
    """
    config = uvicorn.Config(app, host=host, port=port, ws=settings.ws_implementation,
                            ws_max_size=settings.ws_max_size_bytes,
                            ws_per_message_deflate=False, lifespan="on",
                            **proxy_options(settings), **options)
    return DrainingServer(config, settings.shutdown_grace_seconds)


def proxy_options(settings: Settings) -> dict[str, Any]:
    """uvicorn's proxy header options for ``settings.trusted_proxies``: ``proxy_headers`` off
    when it is empty (the peer address is the client's), else on with exactly those
    addresses and networks (``forwarded_allow_ips``; uvicorn's ``FORWARDED_ALLOW_IPS``
    variable is then never read)."""
    trusted = list(settings.trusted_proxies)
    if not trusted:
        return {"proxy_headers": False}
    return {"proxy_headers": True, "forwarded_allow_ips": trusted}


def workers_refusal(settings: Settings, workers: int) -> str | None:
    """Why ``cardhall serve --workers workers`` must not start with ``settings``, or ``None``
    when it may: more than one worker needs ``CARDHALL_REDIS_URL`` and no fixed
    ``CARDHALL_NODE_ID`` (each worker is a node and names itself)."""
    if workers <= 1:
        return None
    if not settings.redis_url:
        return (f"--workers {workers} needs cluster mode: each worker would have its own "
                "tables, lobby and quotas, and a socket could land on a worker that does not "
                "know its table. Set CARDHALL_REDIS_URL (see docs/scaling.md), or run one "
                "worker.")
    if settings.node_id:
        return (f"--workers {workers} with CARDHALL_NODE_ID={settings.node_id!r}: every worker "
                "would claim that one node id. Unset it (each worker names itself), see "
                "docs/scaling.md.")
    return None


def serve(host: str | None = None, port: int | None = None, workers: int = 1) -> int:
    """Start uvicorn with the app; ``host``/``port`` override the settings; ``workers`` > 1
    runs that many worker processes (cluster mode only, :func:`workers_refusal`).

    Returns 0 after a graceful shutdown (SIGTERM or SIGINT: the app is drained first, see
    ``server/drain.py``), :data:`USAGE_ERROR` (2) for a refused ``workers`` (the reason on
    stderr); exits with status 3 when the server could not start.
    """
    settings = Settings()
    refusal = workers_refusal(settings, workers)
    if refusal is not None:
        print(f"cardhall serve: {refusal}", file=sys.stderr)
        return USAGE_ERROR
    configure_logging(settings.log_format, settings.log_level)
    options: dict[str, Any] = {"log_level": settings.log_level.lower(),
                               "log_config": None}  # keep the structlog handlers configured above
    bind_host, bind_port = host or settings.host, settings.port if port is None else port
    if workers > 1:
        _serve_workers(make_server(APP_FACTORY, settings, host=bind_host, port=bind_port,
                                   **worker_options(workers), **options))
        return 0
    server = make_server(create_app(settings), settings, host=bind_host, port=bind_port,
                         **options)
    server.run()
    if not server.started:
        sys.exit(STARTUP_FAILURE)
    return 0


def worker_options(workers: int) -> dict[str, Any]:
    """The ``uvicorn.Config`` arguments of ``workers`` worker processes of :data:`APP_FACTORY`,
    each given :data:`WORKER_HEALTHCHECK_SECONDS` to answer the supervisor."""
    return {"factory": True, "workers": workers,
            "timeout_worker_healthcheck": WORKER_HEALTHCHECK_SECONDS}


def _serve_workers(server: DrainingServer) -> None:
    """Run ``server.config.workers`` processes on one socket bound here, under uvicorn's
    supervisor (it restarts a worker that dies and passes SIGTERM on to each). Each worker
    runs a :class:`DrainingServer` (:class:`DrainingProcess`), so SIGTERM drains it."""
    sock = server.config.bind_socket()
    # uvicorn's supervisor makes its workers with the module's ``Process`` (four places, no
    # hook): ours for the time it runs, so that restarted workers drain too
    original = multiprocess.Process
    multiprocess.Process = DrainingProcess  # type: ignore[misc]
    try:
        multiprocess.Multiprocess(server.config, sockets=[sock]).run()
    finally:
        multiprocess.Process = original  # type: ignore[misc]


class DrainingProcess(multiprocess.Process):
    """A uvicorn worker process whose server is a :class:`DrainingServer` (with the worker's
    own ``CARDHALL_SHUTDOWN_GRACE_SECONDS``)."""

    @property
    def server(self) -> uvicorn.Server:
        """The worker's server (made in the worker process, on first use)."""
        if self._server is None:
            self._server = DrainingServer(self.config, Settings().shutdown_grace_seconds)
        return self._server

    def _healthcheck(self, timeout: float) -> bool | None:
        """uvicorn's health check (the worker's startup flag, ``None`` without an answer in
        ``timeout``), but it stops waiting once the worker has died: the supervisor holds the
        worker's end of the pipe too, so a worker killed after the ping never closes it, and
        uvicorn's waited the whole ``timeout`` (60 s), restarting nothing and handling no
        signal meanwhile."""
        deadline = time.monotonic() + timeout
        try:
            self.parent_conn.send(b"ping")
            while True:
                left = deadline - time.monotonic()
                if self.parent_conn.poll(max(0.0, min(left, HEALTHCHECK_POLL_SECONDS))):
                    started: bool = self.parent_conn.recv()
                    return started
                if left <= 0 or not self.process.is_alive():
                    return None
        except (OSError, EOFError, pickle.UnpicklingError):
            return None
