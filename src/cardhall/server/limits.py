"""Request-body size limit (``design.md`` section 7) as a pure ASGI middleware."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .errors import error_response


class BodySizeLimit:
    """Answer 413 ``request.too_large`` to any HTTP request whose body exceeds ``max_bytes``.

    A declared ``Content-Length`` over the limit is refused before reading; otherwise the body
    (at most ``max_bytes``, so buffering is cheap) is read in full and replayed to the app.
    WebSocket and lifespan traffic pass straight through (frames have their own limit).
    """

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers", ())).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            await self._refuse(scope, receive, send)
            return
        messages: list[Message] = []
        size = 0
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                break
            size += len(message.get("body", b""))
            if size > self.max_bytes:
                await self._refuse(scope, receive, send)
                return
            if not message.get("more_body", False):
                break

        async def replay() -> Message:
            return messages.pop(0) if messages else await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = error_response(413, "request.too_large",
                                  f"request body is over the {self.max_bytes}-byte limit")
        await response(scope, receive, send)
