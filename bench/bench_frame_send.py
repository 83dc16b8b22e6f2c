"""CPU cost of sending one text frame from a session's writer (``make bench``, issue 26).

The app of ``create_app`` (every middleware of a default server) gets one more WebSocket
route whose endpoint sends ``FRAMES`` frames of a closed-loop state's size two ways: through
Starlette's ``WebSocket.send_text`` (down the middleware stack's ``send`` wrappers, as every
frame went before ``server/framesend.py``) and through :func:`frame_sender` (straight to the
server's ``send``, as a session's writer does now). The server's ``send`` is a no-op, so what
is timed (``time.process_time``) is the path from the writer to uvicorn, not uvicorn's framing
or the socket. ``ROUNDS`` rounds, the two ways alternating; reports the minimum and median
microseconds per frame of each and their ratio. A closed-loop action sends about 5 frames.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from starlette.websockets import WebSocket

from cardhall.config import Settings
from cardhall.server.app import create_app
from cardhall.server.framesend import frame_sender

FRAMES = 20_000
ROUNDS = 5
TEXT = '{"type":"state","full":false,' + '"x":"' + "y" * 500 + '"}'
"""About the size of a closed loop's delta state frame."""


def _scope() -> dict[str, Any]:
    return {"type": "websocket", "path": "/bench-frames", "raw_path": b"/bench-frames",
            "headers": [(b"host", b"127.0.0.1")], "query_string": b"",
            "client": ("127.0.0.1", 50000), "server": ("127.0.0.1", 8000), "scheme": "ws",
            "root_path": "", "subprotocols": [], "asgi": {"version": "3.0"}}


async def _measure(frames: int, rounds: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {"stack": [], "direct": []}
    app = create_app(Settings(database_url="memory://"))

    async def endpoint(ws: WebSocket) -> None:
        await ws.accept()
        ways = {"stack": ws.send_text, "direct": frame_sender(ws)}
        for _ in range(rounds):
            for name, send_text in ways.items():
                t0 = time.process_time()
                for _ in range(frames):
                    await send_text(TEXT)
                times[name].append((time.process_time() - t0) / frames * 1e6)

    app.add_api_websocket_route("/bench-frames", endpoint)
    sent = 0

    async def server_send(message: Any) -> None:
        nonlocal sent
        sent += 1

    async def receive() -> Any:
        return {"type": "websocket.connect"}

    await app(_scope(), receive, server_send)
    if sent < 2 * frames * rounds:
        raise RuntimeError(f"only {sent} messages reached the server's send")
    return times


def run(frames: int = FRAMES, rounds: int = ROUNDS) -> dict[str, Any]:
    """``{"stack": {"us_per_frame_min", "us_per_frame_median"}, "direct": {...},
    "direct_to_stack": ratio of the medians, "frames", "rounds"}``."""
    # a loop of its own in a thread: make bench calls this from inside its own event loop
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        times = pool.submit(asyncio.run, _measure(frames, rounds)).result()
    out: dict[str, Any] = {name: {"us_per_frame_min": round(min(ts), 2),
                                  "us_per_frame_median": round(statistics.median(ts), 2)}
                           for name, ts in times.items()}
    out["direct_to_stack"] = round(out["direct"]["us_per_frame_median"]
                                   / out["stack"]["us_per_frame_median"], 3)
    return {**out, "frames": frames, "rounds": rounds}


if __name__ == "__main__":
    import json

    print(json.dumps(run(), indent=2))
