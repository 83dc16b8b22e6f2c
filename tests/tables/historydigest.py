"""A digest of seeded table play and seeded self-play: what must stay byte-identical when the
table's structure changes (issue 25).

For each registered game, one table is played through the real table actor and manager on a
fake clock, with a table log: two people (one acts through ``act`` requests, retries one
action id and sends a stale version and a chat line; the other stays silent, so its seat times
out and a stand-in takes it over), built-in bots in the other seats and a spectator. Every
frame each connection got, every log entry written (snapshots, games, actions, outbox) and
every stored history go into the digest, with seeded self-play (``cardhall.selfplay``) of each
game. Randomness (ids, tokens, seeds, bot choices) is fixed by patching ``uuid``/``secrets``
with seeded generators for the run.

``python tests/tables/historydigest.py`` prints the digest per part (the golden lives in
``test_history_digest.py``).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import secrets
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cardhall import selfplay
from cardhall.config import Settings
from cardhall.engine import game_names, get_game
from cardhall.protocol import messages as p
from cardhall.storage.interface import LogBatch
from cardhall.storage.log import TableLog
from cardhall.storage.memory import MemoryStore
from cardhall.tables.clock import FakeClock
from cardhall.tables.connections import RecordingConnection
from cardhall.tables.manager import TableManager
from cardhall.tables.messages import ClientRequest

TICKS = 400
"""Seconds of fake time each table plays (one tick per second)."""


def _canon(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, default=str, separators=(",", ":"))


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


@contextmanager
def seeded(seed: int) -> Iterator[None]:
    """Replace ``uuid.uuid4`` and the ``secrets`` functions the runtime uses by seeded ones."""
    rng = random.Random(seed)
    saved = (uuid.uuid4, secrets.token_bytes, secrets.token_hex, secrets.token_urlsafe,
             secrets.randbits)
    uuid.uuid4 = lambda: uuid.UUID(int=rng.getrandbits(128), version=4)  # type: ignore[assignment]
    secrets.token_bytes = lambda n=32: rng.randbytes(n)  # type: ignore[assignment]
    secrets.token_hex = lambda n=32: rng.randbytes(n).hex()  # type: ignore[assignment]
    secrets.token_urlsafe = lambda n=32: rng.randbytes(n).hex()  # type: ignore[assignment]
    secrets.randbits = rng.getrandbits  # type: ignore[assignment]
    try:
        yield
    finally:
        (uuid.uuid4, secrets.token_bytes, secrets.token_hex, secrets.token_urlsafe,
         secrets.randbits) = saved  # type: ignore[assignment]


class LoggingStore(MemoryStore):
    """A memory store that keeps a canonical line for every log batch it writes."""

    def __init__(self) -> None:
        super().__init__()
        self.batches: list[str] = []

    async def write_log(self, batch: LogBatch) -> set[str]:
        self.batches.append(_canon({
            "rows": [[r.table_id, r.seq, r.kind, r.data] for r in batch.rows],
            "compact": batch.compact, "drop": sorted(batch.drop),
            "outbox": [[g.game_id, g.history] for g in batch.outbox],
            "chips": [repr(c) for c in batch.chips]}))
        return await super().write_log(batch)


async def _settle(manager: TableManager, table: Any, log: TableLog) -> None:
    await table.inbox.join()
    for _ in range(3):
        await log.settle(5.0)
        await table.inbox.join()
    await manager.writer.flush()


async def play_table(game: str) -> dict[str, Any]:
    """One seeded table of ``game`` (see the module docstring); its canonical record."""
    rules = get_game(game)
    n = 4 if rules.min_seats <= 4 <= rules.max_seats else rules.min_seats
    clock = FakeClock()
    store = LoggingStore()
    log = TableLog(store)
    settings = Settings(database_url="memory://", bot_delay_seconds=1.0,
                        next_hand_pause_seconds=2.0, turn_timeout_seconds=5.0,
                        insecure_fixed_seed=f"digest:{game}", abandon_after_seconds=60.0)
    manager = TableManager(settings, store, clock, log=log)
    await manager.start()
    log.start()
    rng = random.Random(f"play:{game}")
    try:
        bots = {s: "rule" if s % 2 else "random" for s in range(2, n)}
        table = await manager.create(game, num_seats=n, bots=bots, turn_timeout_seconds=5.0)
        people = []
        for i in range(3):
            rec, _ = await store.create_player(f"p{i}")
            people.append(RecordingConnection(rec))
        actor, silent, watcher = people

        async def send(conn: RecordingConnection, msg: Any) -> None:
            table.post(ClientRequest(conn, msg))
            await _settle(manager, table, log)

        await send(watcher, p.Join(type="join", table_id=table.id, spectate=True))
        await send(actor, p.Join(type="join", table_id=table.id, seat=0))
        await send(silent, p.Join(type="join", table_id=table.id, seat=1))
        await send(actor, p.Chat(type="chat", table_id=table.id, text="good luck"))
        acted = 0
        for _tick in range(TICKS):
            if table.status == "finished" or table.stopped:
                break
            rec = table.recorder
            gs = table.game_seat(0) if rec is not None else None
            if (rec is not None and table.status == "playing" and gs is not None
                    and gs in rec.state.to_act() and not rec.state.chance_due()):
                legal = rec.state.legal_actions(gs)
                if legal:
                    action = selfplay.sample(rng.choice(legal), rng)
                    acted += 1
                    aid = f"a{acted}"
                    act = p.Act(type="act", table_id=table.id, version=table.version,
                                action_id=aid, action=action)
                    await send(actor, act)
                    if acted == 2:  # a retry of the same id: answered again, not re-applied
                        await send(actor, act)
                    if acted == 3:  # a stale version
                        await send(actor, p.Act(type="act", table_id=table.id, version=0,
                                                action_id="stale", action=action))
                    continue
            clock.advance(1.0)
            await _settle(manager, table, log)
        await _settle(manager, table, log)
        games = sorted(store.games.values(), key=lambda g: g[1]["started_at"])
        return {
            "frames": {name: [_canon(f) for f in c.frames]
                       for name, c in zip(("actor", "silent", "watcher"), people, strict=True)},
            "log": list(store.batches),
            "histories": [_canon(h) for _s, h in games],
            "acted": acted,
        }
    finally:
        await manager.stop()
        await log.close(1.0)


def selfplay_histories(game: str, games: int = 3) -> list[str]:
    """Seeded self-play of ``game``: each game's history, canonical."""
    rules = get_game(game)
    out = []
    for i in range(games):
        rec, violations, _ = selfplay.play_one(game, rules.min_seats, 25_000 + i)
        assert violations == [], violations
        out.append(_canon(rec.history.to_json()))
    return out


def digests() -> dict[str, str]:
    """``"<game>/<part>" -> sha256`` of every part (frames per connection, log, histories,
    self-play)."""
    out: dict[str, str] = {}
    for game in game_names():
        if game not in ("soldiers_bluff", "palace_poker", "bazaar_blot"):
            continue  # a test's toy game registered in this process
        with seeded(hash_seed(game)):
            record = asyncio.run(play_table(game))
        for name, frames in record["frames"].items():
            out[f"{game}/frames/{name}"] = _sha("\n".join(frames))
        out[f"{game}/log"] = _sha("\n".join(record["log"]))
        out[f"{game}/histories"] = _sha("\n".join(record["histories"]))
        out[f"{game}/counts"] = (f"frames={sum(len(f) for f in record['frames'].values())} "
                                 f"log={len(record['log'])} games={len(record['histories'])} "
                                 f"acted={record['acted']}")
        out[f"{game}/selfplay"] = _sha("\n".join(selfplay_histories(game)))
    return out


def hash_seed(game: str) -> int:
    return int.from_bytes(hashlib.sha256(game.encode()).digest()[:8], "big")


if __name__ == "__main__":
    for key, value in digests().items():
        print(f"{key} {value}")
