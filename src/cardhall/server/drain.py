"""Graceful shutdown: drain the app before uvicorn closes its connections.

On SIGTERM or SIGINT, :class:`DrainingServer` (the ``uvicorn.Server`` that ``cardhall serve``
and the in-process test server run) calls :func:`drain` before uvicorn's own shutdown, which
closes the listening sockets, sends close 1012 to every WebSocket still open and then runs the
app's lifespan shutdown. Without the drain uvicorn's 1012 came first and nobody was told
``table_closed``.

The drain, in order (``docs/protocol.md``, "Shutdown"):

1. ``app.state.draining = True``: new tables and quick seats are refused (REST 503
   ``server.draining``, :func:`refuse_if_draining`), so are ``hello`` and ``join`` on the socket
   (``error`` ``server.draining``, ``server/ws.py``);
2. ``await app.state.tables.stop()``: every table sends ``table_closed`` (reason ``shutdown``)
   to its connections; its log stays, so it is restored at the next start; then the drain waits
   until every step of the table log (``app.state.log``) is durable: committed, or during a
   database outage in the log's local spill (``storage/spill.py``);
3. every open socket is closed with 1012 after what its queue holds, and the drain waits for
   the writers to have sent it all (a client reads ``table_closed`` before the close frame).

Steps 2 and 3 share one deadline of ``grace_seconds``; a step that overruns it is cut short
(logged) and shutdown goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import threading
import time
from collections.abc import Iterator
from typing import Any, Protocol

import uvicorn
from fastapi import FastAPI
from starlette.requests import HTTPConnection

from .errors import ApiError

log = logging.getLogger(__name__)

EXIT_SIGNALS = (signal.SIGTERM, signal.SIGINT)
"""The signals that start a drain: SIGTERM (deploys, ``docker stop``) and SIGINT (Ctrl-C); a
second SIGINT forces the exit, as in uvicorn."""
SHUTDOWN_CLOSE_CODE = 1012
"""The WebSocket close code of a drained socket: "service restart" (come back later)."""


class Drainable(Protocol):
    """An open socket as the drain sees it (``server/ws.py``'s ``Session``)."""

    def shut(self, code: int, reason: str) -> None:
        """Close after what is already queued (never blocks)."""

    async def flushed(self) -> None:
        """Return once the socket's writer has sent everything, close frame included."""


def is_draining(app: Any) -> bool:
    """Whether ``app`` (a FastAPI app, or anything with ``state``) is shutting down."""
    return bool(getattr(app.state, "draining", False))


def refuse_if_draining(conn: HTTPConnection) -> None:
    """REST dependency: raise ``ApiError`` ``server.draining`` (503) while the app drains."""
    if is_draining(conn.app):
        raise ApiError("server.draining", "the server is shutting down; try again shortly")


async def drain(app: FastAPI, grace_seconds: float) -> None:
    """Drain ``app``: refuse new work, close every table, flush and close every socket.

    Args:
        app: the app of :func:`~cardhall.server.app.create_app` (its lifespan has started:
            ``app.state.tables`` exists).
        grace_seconds: the most the drain may take, seconds; what is still running then is
            left to uvicorn's shutdown. Never raises for a step that overruns it.
    """
    app.state.draining = True
    log.info("draining: refusing new tables and seats, closing the tables (grace %.1f s)",
             grace_seconds)
    deadline = time.monotonic() + grace_seconds
    tables = getattr(app.state, "tables", None)
    node = getattr(getattr(app.state, "hall", None), "cluster", None)
    if node is not None:  # other nodes' sockets move with the tables: no table_closed for them
        node.forget_remote_sockets()
    if tables is not None:
        await _bounded("close the tables", tables.stop(), deadline)
    table_log = getattr(app.state, "log", None)
    if table_log is not None:  # every step the tables logged is durable before the sockets go
        settle = getattr(table_log, "settle", table_log.flush)  # committed, or in the spill
        await _bounded("flush the table log", settle(), deadline)
    if node is not None:  # another node takes the tables over at its next scan
        await _bounded("release the leases", node.release_all(), deadline)
    sessions: set[Drainable] = getattr(app.state, "sessions", set())
    open_now = list(sessions)
    for session in open_now:
        session.shut(SHUTDOWN_CLOSE_CODE, "server shutting down")
    if open_now:
        flushed = asyncio.gather(*(s.flushed() for s in open_now), return_exceptions=True)
        await _bounded(f"flush {len(open_now)} sockets", flushed, deadline)
    log.info("drained: %d sockets closed with %d", len(open_now), SHUTDOWN_CLOSE_CODE)


async def _bounded(what: str, aw: Any, deadline: float) -> None:
    """Await ``aw`` until ``deadline`` (``time.monotonic()``); log and go on when it overruns."""
    try:
        async with asyncio.timeout(max(deadline - time.monotonic(), 0.0)):
            await aw
    except TimeoutError:
        log.warning("shutdown: %s did not finish within the grace period", what)


class DrainingServer(uvicorn.Server):
    """``uvicorn.Server`` that runs :func:`drain` before uvicorn's shutdown.

    ``handle_exit`` (:data:`EXIT_SIGNALS`; tests call it directly) asks the main loop to stop as
    usual; :meth:`shutdown` then drains the app, and gives uvicorn's wait for open connections
    what is left of ``grace_seconds`` (``timeout_graceful_shutdown``, whole seconds, at least
    1) before the lifespan
    shutdown (which saves queued games, bounded on its own by the game writer's timeout).

    Unlike ``uvicorn.Server`` it does not re-raise the caught signal after serving: a drained
    server exits normally (``cardhall serve`` exits 0 on SIGTERM).

    Args:
        config: the uvicorn config; ``config.app`` is the FastAPI app to drain, or an import
            string (``cardhall serve --workers N``: each worker process loads the app, and the
            drain finds it inside ``config.loaded_app``'s middleware).
        grace_seconds: the drain's and the connections' shared time limit, seconds.

    Raises:
        TypeError: ``config.app`` is neither a FastAPI app nor an import string.
    """

    def __init__(self, config: uvicorn.Config, grace_seconds: float) -> None:
        super().__init__(config)
        self.grace_seconds = grace_seconds
        if not isinstance(config.app, FastAPI | str):
            raise TypeError(f"DrainingServer needs a FastAPI app, got {type(config.app)!r}")

    @property
    def app(self) -> FastAPI | None:
        """The FastAPI app served: ``config.app``, or once loaded the one ``loaded_app``
        wraps (uvicorn's middleware keep it as ``.app``); ``None`` before it is loaded."""
        if isinstance(self.config.app, FastAPI):
            return self.config.app
        inner = getattr(self.config, "loaded_app", None)
        for _ in range(16):  # uvicorn wraps it in a few middleware at most
            if inner is None or isinstance(inner, FastAPI):
                return inner
            inner = getattr(inner, "app", None)
        return None

    async def shutdown(self, sockets: list[Any] | None = None) -> None:
        """Drain the app, then uvicorn's shutdown within the rest of the grace period."""
        started = time.monotonic()
        app = self.app
        if not self.force_exit and app is not None:
            await drain(app, self.grace_seconds)
        left = self.grace_seconds - (time.monotonic() - started)
        self.config.timeout_graceful_shutdown = max(int(left), 1)
        await super().shutdown(sockets)

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        """Route SIGTERM/SIGINT to ``handle_exit`` while serving (main thread only), then put
        the previous handlers back. ``uvicorn.Server`` also re-raises the caught signal at
        that point, which would end a drained ``cardhall serve`` as killed (exit 143); this
        one does not."""
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        previous = {sig: signal.signal(sig, self.handle_exit) for sig in EXIT_SIGNALS}
        try:
            yield
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)
