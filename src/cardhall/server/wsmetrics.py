"""WebSocket connection metrics as a pure ASGI middleware (prometheus-fastapi-instrumentator
measures HTTP requests only; it passes WebSocket scopes through untouched).

Per connection, not per message: the hot path (frames) is not touched, only the accept, the
close and the disconnect messages are looked at.
"""

from __future__ import annotations

import time

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from starlette.types import ASGIApp, Message, Receive, Scope, Send

SESSION_BUCKETS = (1.0, 10.0, 60.0, 300.0, 900.0, 1800.0, 3600.0, 4 * 3600.0, 24 * 3600.0)
"""Buckets (seconds) of ``cardhall_ws_connection_seconds``: a game lasts minutes, a session
hours."""


class WebSocketMetrics:
    """Count WebSocket connections into ``registry``:

    * ``cardhall_ws_connections_total``: handshakes the server accepted;
    * ``cardhall_ws_rejected_total``: handshakes closed before being accepted;
    * ``cardhall_ws_connections_active``: accepted connections not yet closed (gauge);
    * ``cardhall_ws_closed_total{code}``: closed connections by close code (the server's
      ``websocket.close`` code, else the client's ``websocket.disconnect`` code);
    * ``cardhall_ws_connection_seconds``: how long accepted connections stayed open.
    """

    def __init__(self, app: ASGIApp, registry: CollectorRegistry) -> None:
        self.app = app
        self.accepted = Counter("cardhall_ws_connections", "WebSocket connections accepted",
                                registry=registry)
        self.rejected = Counter("cardhall_ws_rejected",
                                "WebSocket handshakes closed before being accepted",
                                registry=registry)
        self.active = Gauge("cardhall_ws_connections_active", "Open WebSocket connections",
                            registry=registry)
        self.closed = Counter("cardhall_ws_closed", "WebSocket connections closed, by code",
                              ["code"], registry=registry)
        self.duration = Histogram("cardhall_ws_connection_seconds",
                                  "How long WebSocket connections stayed open",
                                  buckets=SESSION_BUCKETS, registry=registry)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        opened: float | None = None
        code: int | None = None

        async def sending(message: Message) -> None:
            nonlocal opened, code
            if message["type"] == "websocket.accept" and opened is None:
                opened = time.monotonic()
                self.accepted.inc()
                self.active.inc()
            elif message["type"] == "websocket.close" and code is None:
                code = int(message.get("code", 1000))
            await send(message)

        async def receiving() -> Message:
            nonlocal code
            message = await receive()
            if message["type"] == "websocket.disconnect" and code is None:
                code = int(message.get("code", 1005))
            return message

        try:
            await self.app(scope, receiving, sending)
        finally:
            self._finish(opened, code)

    def _finish(self, opened: float | None, code: int | None) -> None:
        if opened is None:
            self.rejected.inc()
            return
        self.active.dec()
        self.duration.observe(time.monotonic() - opened)
        self.closed.labels(str(code if code is not None else 1006)).inc()
