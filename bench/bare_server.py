"""The bare baseline of ``make bench``: a minimal WebSocket broadcast server with rooms of 4.

    python bench/bare_server.py --port 8765

One endpoint, ``ws://HOST:PORT/ws?room=R&seat=S``. A client sends a JSON move
``{"type": "move", "id": <any>}``; the server parses it, answers the mover with
``{"type": "ack", "id": ...}`` and broadcasts ``{"type": "move", "room", "seat", "id", "n",
"next"}`` to every client of the room (the mover included; ``n`` counts the room's moves,
``next`` = ``(seat + 1) % 4`` names who moves next, so a closed-loop client knows its turn).
That is the least a turn-based table server must do per move: parse, route, serialise,
fan out. FastAPI + uvicorn with ``ws="websockets-sansio"``, uvloop and orjson, the stack
cardhall itself runs on, so the ratio cardhall / bare is the cost of everything else.
``GET /healthz`` answers ``ok``.
"""

from __future__ import annotations

import argparse
import contextlib
from typing import Any

import orjson
from fastapi import FastAPI, WebSocket, WebSocketDisconnect
from fastapi.responses import PlainTextResponse

ROOM_SIZE = 4


def create_app() -> FastAPI:
    """The bare app: rooms (``room id -> {seat: websocket}``) live in this closure."""
    app = FastAPI()
    rooms: dict[str, dict[int, WebSocket]] = {}
    moves: dict[str, int] = {}

    @app.get("/healthz", response_class=PlainTextResponse)
    async def healthz() -> str:
        return "ok"

    @app.websocket("/ws")
    async def ws(websocket: WebSocket, room: str, seat: int) -> None:
        await websocket.accept()
        members = rooms.setdefault(room, {})
        members[seat % ROOM_SIZE] = websocket
        try:
            while True:
                raw = await websocket.receive_text()
                msg: dict[str, Any] = orjson.loads(raw)
                n = moves.get(room, 0) + 1
                moves[room] = n
                await websocket.send_text(orjson.dumps({"type": "ack", "id": msg.get("id")})
                                          .decode())
                out = orjson.dumps({"type": "move", "room": room, "seat": seat,
                                    "id": msg.get("id"), "n": n,
                                    "next": (seat + 1) % ROOM_SIZE}).decode()
                for peer in list(members.values()):
                    # a peer that went away: its own handler cleans up
                    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
                        await peer.send_text(out)
        except WebSocketDisconnect:
            pass
        finally:
            if members.get(seat % ROOM_SIZE) is websocket:
                del members[seat % ROOM_SIZE]
            if not members:
                rooms.pop(room, None)
                moves.pop(room, None)

    return app


def main() -> None:
    """Serve the bare app on ``--host``/``--port`` (uvloop, websockets-sansio, no deflate)."""
    import uvicorn

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8765)
    a = ap.parse_args()
    uvicorn.run(create_app(), host=a.host, port=a.port, ws="websockets-sansio", loop="uvloop",
                ws_per_message_deflate=False, log_level="warning")


if __name__ == "__main__":
    main()
