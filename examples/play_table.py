"""Play one seat of a cardhall table from the terminal; built-in bots take the other seats.

    make run                                     # in another terminal: the server on :8000
    python examples/play_table.py                # Bazaar Blot, you at seat 0, three rule bots
    python examples/play_table.py --auto         # play randomly, just watch
    python examples/play_table.py --game soldiers_bluff --seats 3 --auto

It creates a guest (``POST /api/players``), a table whose other seats are bots
(``POST /api/tables``), then joins seat 0 over the WebSocket and answers each ``state`` that
offers legal actions: it lists them and asks for a number (and for amounts or cards when an
entry offers a choice), or with ``--auto`` picks at random. Each ``state`` frame (protocol 2:
a full state, or a delta applied to the state held, ``docs/protocol.md``) prints the events of
its step. When the server restarts (a deploy's ``table_closed``/``shutdown``, or a crash) it
reconnects with backoff and resumes seat 0 with its seat token: the table comes back. Needs
``httpx`` and ``websockets`` (both in the project's dependencies).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
from cardhall.engine.actions import sample
from cardhall.protocol.frames import StateGapError, apply_state


def ask_action(entry: dict[str, Any]) -> dict[str, Any]:
    """Turn a legal-action entry into a concrete action, asking for amounts and cards."""
    action = {k: v for k, v in entry.items()
              if not k.startswith(("min_", "max_")) and not k.endswith("_from")}
    for key in entry:
        if key.endswith("_from"):
            f = key[: -len("_from")]
            lo, hi = entry[f"min_{f}"], entry[f"max_{f}"]
            raw = input(f"  {f}: {lo}-{hi} of {' '.join(entry[key])} (space-separated): ")
            action[f] = raw.split()
        elif key.startswith("min_") and f"{key[4:]}_from" not in entry:
            f = key[4:]
            action[f] = int(input(f"  {f} ({entry[key]}..{entry['max_' + f]}): "))
    return action


def choose(state: dict[str, Any], auto: bool, rng: random.Random) -> dict[str, Any]:
    legal = state["legal_actions"]
    if auto:
        return sample(rng.choice(legal), rng)
    print(f"\nyour view: {json.dumps(state['view'])}")
    print(f"deadline: {state['deadline_ms']} ms")
    for i, entry in enumerate(legal):
        print(f"  [{i}] {json.dumps(entry)}")
    while True:
        raw = input("choose: ").strip()
        if raw.isdigit() and int(raw) < len(legal):
            return ask_action(legal[int(raw)])


def show(msg: dict[str, Any]) -> None:
    kind = msg["type"]
    if kind == "state":
        who = "table" if msg.get("actor") is None else f"seat {msg['actor']}"
        flag = " (timeout)" if msg.get("timeout") else ""
        for e in msg.get("events") or []:
            print(f"v{msg['version']:<4} {who}{flag}: {json.dumps(e)}")
    elif kind == "error":
        print(f"error {msg['code']}: {msg['message']}")
    elif kind == "game_over":
        print(f"game over: {json.dumps(msg['outcome'])}")
        print(f"seed {msg['history']['seed']} (commitment {msg['history']['seed_commitment']})")
    elif kind in ("welcome", "joined", "table_closed", "left"):
        print(f"{kind}: {json.dumps({k: v for k, v in msg.items() if k != 'type'})}")


async def main(args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    async with httpx.AsyncClient(base_url=args.server) as http:
        r = await http.post("/api/players", json={"name": args.name})
        r.raise_for_status()
        token = r.json()["token"]
        body = {"game": args.game, "seats": args.seats, "config": json.loads(args.config),
                "bots": [{"seat": s, "kind": args.bots} for s in range(1, args.seats)]}
        timeout = args.turn_timeout if args.turn_timeout is not None else (None if args.auto else 60)
        if timeout is not None:
            body["turn_timeout_seconds"] = timeout  # people typing need longer than 10 s
        r = await http.post("/api/tables", json=body, headers={"Authorization": f"Bearer {token}"})
        if r.status_code != 201:
            sys.exit(f"could not create the table: {r.text}")
        table_id = r.json()["id"]
    print(f"table {table_id}: {args.game}, you are seat 0")
    ws_url = args.server.replace("http", "ws", 1) + "/ws"
    session = Session(table_id, token, args, rng)
    delay = 0.5
    for _ in range(RECONNECTS):
        try:
            if await session.play(ws_url):
                return
            delay = 0.5  # the server restarted: it kept the table and our seat
        except (ConnectionClosed, OSError) as exc:
            print(f"-- connection lost ({type(exc).__name__}); reconnecting in {delay:.1f} s")
        await asyncio.sleep(delay)
        delay = min(delay * 2, 5.0)
    sys.exit("the server did not come back")


RECONNECTS = 30
"""Reconnect attempts (0.5 s doubling to 5 s apart) before giving up on a restarting server."""


class Session:
    """Our seat at one table, across reconnects: a server restart (``table_closed`` with
    reason ``shutdown``, close 1012, or a dropped socket) keeps the table, and we resume the
    seat with its ``seat_token`` (``docs/protocol.md``, "Shutdown")."""

    def __init__(self, table_id: str, token: str, args: argparse.Namespace,
                 rng: random.Random) -> None:
        self.table_id, self.token, self.args, self.rng = table_id, token, args, rng
        self.seat_token: str | None = None
        self.moves = self.games = 0

    async def play(self, ws_url: str) -> bool:
        """Play until the games are done (True) or the server restarts (False)."""
        async with connect(ws_url) as ws:
            await ws.send(json.dumps({"type": "hello", "token": self.token}))
            join: dict[str, Any] = {"type": "join", "table_id": self.table_id, "seat": 0}
            if self.seat_token is not None:
                join["seat_token"] = self.seat_token
            await ws.send(json.dumps(join))
            held: dict[str, Any] | None = None  # the full state, deltas applied
            async for text in ws:
                msg = json.loads(text)
                show(msg)
                if msg["type"] == "joined":
                    self.seat_token = msg.get("seat_token") or self.seat_token
                elif msg["type"] == "table_closed":
                    if msg["reason"] != "shutdown":
                        sys.exit(f"the table closed ({msg['reason']})")
                    print("-- the server is restarting; the table and our seat are kept")
                    return False
                elif msg["type"] == "error" and msg["code"] == "server.draining":
                    return False
                elif msg["type"] == "game_over":
                    self.games += 1
                    if self.games >= self.args.games:
                        return True
                if msg["type"] != "state":
                    continue
                try:
                    held = apply_state(held, msg)
                except StateGapError:  # a frame was missed: ask for a full state
                    await ws.send(json.dumps({"type": "resync", "table_id": self.table_id}))
                    continue
                if held["legal_actions"] and held["status"] == "playing":
                    await self._act(ws, held)
        return False

    async def _act(self, ws: Any, held: dict[str, Any]) -> None:
        self.moves += 1
        action = await asyncio.to_thread(choose, held, self.args.auto, self.rng)
        await ws.send(json.dumps({"type": "act", "table_id": self.table_id,
                                  "version": held["version"], "action_id": f"m{self.moves}",
                                  "action": action}))


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--server", default="http://127.0.0.1:8000")
    ap.add_argument("--game", default="bazaar_blot")
    ap.add_argument("--seats", type=int, default=4)
    ap.add_argument("--config", default="{}",
                    help='rules config as JSON, e.g. \'{"target_score": 101}\'')
    ap.add_argument("--bots", default="rule", choices=["rule", "random"])
    ap.add_argument("--name", default="you")
    ap.add_argument("--games", type=int, default=1, help="stop after this many games (hands)")
    ap.add_argument("--auto", action="store_true", help="play randomly instead of asking")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--turn-timeout", type=float, default=None,
                    help="seconds per decision (default: 60 when you play, the server's with --auto)")
    asyncio.run(main(ap.parse_args()))
