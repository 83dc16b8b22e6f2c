"""Outgoing WebSocket frames past the middleware stack (issue 26: CPU per frame).

Every ``websocket.send`` through Starlette's :class:`~starlette.websockets.WebSocket` passes
each middleware's ``send`` wrapper on its way to uvicorn: the request-id, the connection
metrics, Starlette's exception handler, ... five coroutine calls per frame: 2.2 against 0.7
CPU microseconds per frame by ``bench/bench_frame_send.py``, about 1% of a closed-loop
action's CPU (``docs/performance.md``, "Frames past the middleware"). None of them looks at a
text frame: they care about the accept, the
close and the disconnect. So :class:`FrameSend`, the outermost middleware, keeps the server's
own ``send`` in the WebSocket's scope and a session's writer sends its text frames there
(:func:`frame_sender`); the accept and the close still go through the stack.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket

SCOPE_KEY = "cardhall.server_send"
"""Where :class:`FrameSend` keeps the server's ``send`` in a WebSocket scope."""


class FrameSend:
    """ASGI middleware (add it last, so it is the outermost): in a ``websocket`` scope, keep
    the ASGI server's ``send`` under :data:`SCOPE_KEY`; every scope goes on unchanged."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            scope[SCOPE_KEY] = send
        await self.app(scope, receive, send)


def frame_sender(ws: WebSocket) -> Callable[[str], Awaitable[None]]:
    """A coroutine function sending one text frame on ``ws`` once it is accepted: straight to
    the server's ``send`` when :class:`FrameSend` kept it, else ``ws.send_text`` (an app
    without the middleware, e.g. a test's). Raises what the server's ``send`` raises when the
    client is gone (uvicorn: ``ClientDisconnected``)."""
    server_send = ws.scope.get(SCOPE_KEY)
    if server_send is None:
        return ws.send_text

    async def send_text(text: str) -> None:
        await server_send({"type": "websocket.send", "text": text})

    return send_text
