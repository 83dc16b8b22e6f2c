"""Tables over real WebSockets: throughput and act latency per uvicorn WebSocket implementation.

    python bench/ws_tables.py --tables 25 --ws websockets-sansio
    python bench/ws_tables.py --tables 25 --ws websockets

Starts the server in a subprocess (memory store, uvicorn with the chosen ``ws``
implementation, uvloop when installed), creates ``--tables`` Bazaar Blot tables, connects four
clients per table that answer each of their states with a random legal action, and plays
every match to the end. Prints one JSON object: wall seconds, actions, server messages
received per second, and the act -> accepted latency (p50/p99, ms). The clients share one
process, so on a small machine they are part of what is measured.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))


def serve(port: int, ws: str) -> None:
    import uvicorn

    from cardhall.config import Settings
    from cardhall.server.app import create_app

    settings = Settings(database_url="memory://", bot_delay_seconds=0.0, ws_rate_per_second=1000,
                        ws_rate_burst=1000, max_live_tables_per_player=1_000_000,
                        max_waiting_tables_per_address=1_000_000,
                        max_sockets_per_player=1_000_000, max_sockets_per_address=1_000_000,
                        rest_rate_limit="100000000/minute",
                        guest_rate_limit="100000000/minute")
    uvicorn.run(create_app(settings), host="127.0.0.1", port=port, ws=ws,  # type: ignore[arg-type]
                ws_per_message_deflate=False, log_level="warning")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def player(ws_url: str, token: str, table_id: str, seat: int, stats: dict[str, Any],
                 seed: int) -> None:
    from websockets.asyncio.client import connect

    from cardhall.engine.actions import sample

    rng = random.Random(seed)
    sent: dict[str, float] = {}
    async with connect(ws_url, max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        await ws.send(json.dumps({"type": "join", "table_id": table_id, "seat": seat}))
        n = 0
        async for text in ws:
            stats["messages"] += 1
            msg = json.loads(text)
            kind = msg["type"]
            if kind == "game_over":
                return
            if kind == "accepted":
                t = sent.pop(msg["action_id"], None)
                if t is not None:
                    stats["latency"].append(time.perf_counter() - t)
                    stats["actions"] += 1
            elif kind == "state" and msg["legal_actions"] and msg["status"] == "playing":
                n += 1
                aid = f"{seat}-{n}"
                action = sample(rng.choice(msg["legal_actions"]), rng)
                sent[aid] = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "table_id": table_id,
                                          "version": msg["version"], "action_id": aid,
                                          "action": action}))


async def run(args: argparse.Namespace) -> dict[str, Any]:
    import httpx

    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    proc = subprocess.Popen([sys.executable, __file__, "--serve", str(port), "--ws", args.ws],
                            env=env)
    try:
        base = f"http://127.0.0.1:{port}"
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            for _ in range(200):
                try:
                    if (await http.get("/healthz")).status_code == 200:
                        break
                except httpx.TransportError:
                    await asyncio.sleep(0.05)
            jobs = []
            for t in range(args.tables):
                tokens = [(await http.post("/api/players", json={"name": f"p{t}-{s}"})).json()
                          ["token"] for s in range(4)]
                table = (await http.post("/api/tables", json={
                    "game": "bazaar_blot", "seats": 4, "turn_timeout_seconds": 60,
                    "config": {"target_score": args.target}},
                    headers={"Authorization": f"Bearer {tokens[0]}"})).json()
                jobs += [(tokens[s], table["id"], s) for s in range(4)]
        stats: dict[str, Any] = {"messages": 0, "actions": 0, "latency": []}
        start = time.perf_counter()
        await asyncio.gather(*(player(f"ws://127.0.0.1:{port}/ws", tok, tid, s, stats, i)
                               for i, (tok, tid, s) in enumerate(jobs)))
        wall = time.perf_counter() - start
    finally:
        proc.terminate()
        proc.wait(10)
    lat = sorted(stats["latency"])
    return {
        "ws": args.ws, "tables": args.tables, "sockets": 4 * args.tables,
        "seconds": round(wall, 2), "actions": stats["actions"],
        "messages_per_second": round(stats["messages"] / wall),
        "actions_per_second": round(stats["actions"] / wall),
        "act_latency_ms_p50": round(1000 * lat[len(lat) // 2], 2),
        "act_latency_ms_p99": round(1000 * lat[int(len(lat) * 0.99)], 2),
    }


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=25)
    ap.add_argument("--target", type=int, default=101, help="Blot target_score")
    ap.add_argument("--ws", default="websockets-sansio",
                    choices=["websockets-sansio", "websockets", "wsproto"])
    ap.add_argument("--serve", type=int, default=None, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.serve is not None:
        serve(a.serve, a.ws)
    else:
        print(json.dumps(asyncio.run(run(a))))
