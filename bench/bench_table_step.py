"""CPU cost of one table step (``make bench``): a client's ``act`` through ``TableCore.handle``.

``run()`` plays ``ACTIONS`` random legal actions of 4-seat Bazaar Blot matches (target 1001, as
the closed loop plays) through the synchronous table core (``tables/core.py``) with a fake
clock and an (unstarted) table log, so each step also builds its log entries, and encodes
every frame of the step to its JSON text as a socket writer would. No event loop, no socket,
no database: what is left is the table's own work per action (the engine applying it, the
fan-out's frames, the log entries, the bookkeeping), in CPU time of this process
(``time.process_time`` around each ``handle`` and the frames' encoding). ``ROUNDS`` rounds;
reports the minimum and the median round (``us_per_action``), and the bytes per action, a
check that the frames did not change (the same seeds play the same games).

The WebSocket arms measure the whole server against a baseline; this isolates the table core,
whose share of the server's CPU per action is about a quarter (``docs/performance.md``,
"Table core refactor, before/after").
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from cardhall.engine import get_game
from cardhall.protocol import messages as p
from cardhall.selfplay import sample
from cardhall.storage.interface import PlayerRecord
from cardhall.storage.log import TableLog
from cardhall.storage.memory import MemoryStore
from cardhall.storage.writer import GameWriter
from cardhall.tables.clock import FakeClock
from cardhall.tables.connections import Outgoing, encode
from cardhall.tables.core import TableCore
from cardhall.tables.messages import ClientRequest
from cardhall.tables.state import TableSpec

ACTIONS = 3_000
ROUNDS = 5
GAME = "bazaar_blot"
CONFIG = {"target_score": 1001}


class _Sink:
    """A connection that encodes what it is sent (as the socket writer does) and counts bytes."""

    def __init__(self, name: str) -> None:
        self.id = name
        self.player = PlayerRecord(f"id-{name}", name)
        self.closed = False
        self.bytes = 0

    def send(self, msg: Outgoing) -> None:
        self.bytes += len(encode(msg))


def _table(k: int) -> tuple[TableCore, list[_Sink]]:
    """Table ``k`` with its four seats joined (the match has started)."""
    rules = get_game(GAME)
    store = MemoryStore()
    table = TableCore(f"t{k}", rules, rules.config(CONFIG),
                      TableSpec(GAME, num_seats=4, turn_timeout_seconds=600.0, config=CONFIG),
                      store=store, writer=GameWriter(store), clock=FakeClock(),
                      log=TableLog(store), seed_source=lambda hand: bytes([hand % 256, k % 256]) * 16)
    conns = [_Sink(f"s{k}-{i}") for i in range(4)]
    for i, conn in enumerate(conns):
        step = table.handle(ClientRequest(conn, p.Join(type="join", table_id=table.id, seat=i)))
        for c, msg in step.frames:
            c.send(msg)
    return table, conns


def one_round(actions: int = ACTIONS, seed: int = 1) -> dict[str, Any]:
    """``actions`` acts (new tables as matches end): CPU microseconds per action, bytes per
    action."""
    rng = random.Random(seed)
    done = k = 0
    cpu = 0.0
    sent = 0
    while done < actions:
        k += 1
        table, conns = _table(k)
        while done < actions and table.status == "playing":
            assert table.recorder is not None
            state = table.recorder.state
            gs = state.to_act()[0]
            action = sample(rng.choice(state.legal_actions(gs)), rng)
            msg = ClientRequest(conns[table.seat_map[gs]],
                                p.Act(type="act", table_id=table.id, version=table.version,
                                      action_id=f"a{done}", action=action))
            c0 = time.process_time()
            step = table.handle(msg)
            for c, out in step.frames:
                c.send(out)
            cpu += time.process_time() - c0
            done += 1
        sent += sum(c.bytes for c in conns)
    return {"us_per_action": 1e6 * cpu / done, "bytes_per_action": round(sent / done)}


def run() -> dict[str, Any]:
    """``ROUNDS`` rounds: ``{"actions", "rounds", "us_per_action_min", "us_per_action_median",
    "bytes_per_action"}``."""
    rounds = [one_round() for _ in range(ROUNDS)]
    us = [r["us_per_action"] for r in rounds]
    return {"actions": ACTIONS, "rounds": ROUNDS, "us_per_action_min": round(min(us), 1),
            "us_per_action_median": round(statistics.median(us), 1),
            "bytes_per_action": rounds[0]["bytes_per_action"]}


if __name__ == "__main__":
    print(run())
