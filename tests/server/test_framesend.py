"""Text frames go past the middleware stack (server/framesend.py); accept and close do not."""

from __future__ import annotations

from typing import Any, ClassVar

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import WebSocketRoute
from starlette.testclient import TestClient
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket

from cardhall.config import Settings
from cardhall.server.app import create_app
from cardhall.server.framesend import FrameSend, frame_sender


class Spy:
    """A middleware inside FrameSend that records every message it forwards."""

    seen: ClassVar[list[str]] = []

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def spying(message: Message) -> None:
            if scope["type"] == "websocket":
                Spy.seen.append(message["type"])
            await send(message)

        await self.app(scope, receive, spying)


async def endpoint(ws: WebSocket) -> None:
    await ws.accept()
    send_text = frame_sender(ws)
    await send_text("one")
    await send_text("two")
    await ws.close()


def app_with(*middleware: Any) -> Starlette:
    return Starlette(routes=[WebSocketRoute("/ws", endpoint)],
                     middleware=[Middleware(m) for m in middleware])


def test_frames_skip_the_middleware_but_accept_and_close_do_not() -> None:
    Spy.seen = []
    with TestClient(app_with(FrameSend, Spy)) as client, client.websocket_connect("/ws") as ws:
        assert ws.receive_text() == "one"
        assert ws.receive_text() == "two"
    assert Spy.seen == ["websocket.accept", "websocket.close"]


def test_without_the_middleware_frames_go_through_the_stack() -> None:
    Spy.seen = []
    with TestClient(app_with(Spy)) as client, client.websocket_connect("/ws") as ws:
        assert ws.receive_text() == "one"
        assert ws.receive_text() == "two"
    assert Spy.seen == ["websocket.accept", "websocket.send", "websocket.send",
                        "websocket.close"]


def test_the_app_puts_it_outermost() -> None:
    app = create_app(Settings(database_url="sqlite+aiosqlite:///:memory:"))
    assert app.user_middleware[0].cls is FrameSend
