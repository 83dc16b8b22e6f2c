"""A tournament push is encoded once for all its watchers (attack29: a 32-team Swiss of
10 rounds has a ~400 KB document, saved ~2000 times; each of 50 watching sockets re-encoded
it at every save, ~1.8 ms each: about 170 s of CPU for one address)."""

from __future__ import annotations

from typing import Any

import orjson

from cardhall.protocol import messages as p
from cardhall.server.tourwatch import TournamentFollow
from cardhall.storage.interface import PlayerRecord
from cardhall.tables.connections import encode


class Sink:
    """A connection that keeps what it was sent, as sent."""

    def __init__(self, n: int) -> None:
        self.id = f"s{n}"
        self.player = PlayerRecord(f"p{n}", f"p{n}")
        self.closed = False
        self.sent: list[Any] = []

    def send(self, msg: Any) -> None:
        self.sent.append(msg)


class OneTournament:
    """The director's ``get`` and ``watch``, for one tournament."""

    def __init__(self, doc: dict[str, Any]) -> None:
        self.doc = doc
        self.fns: list[Any] = []

    async def get(self, tid: str) -> dict[str, Any]:
        return self.doc

    def watch(self, tid: str, fn: Any) -> Any:
        self.fns.append(fn)
        return lambda: self.fns.remove(fn)


async def test_every_watcher_gets_the_same_encoded_push() -> None:
    doc = {"id": "t1", "status": "running", "rounds": [{"round": 1, "tables": []}]}
    director = OneTournament(doc)
    sinks = [Sink(n) for n in range(3)]
    for sink in sinks:
        await TournamentFollow(sink).watch(  # type: ignore[arg-type]
            director, p.WatchTournament(type="watch_tournament", tournament_id="t1"),
            lambda *a: None)
    shown = {**doc, "status": "finished"}
    for fn in list(director.fns):  # as Director._save: one public document, every watcher
        fn(shown)
    pushes = [sink.sent[-1] for sink in sinks]
    assert all(push is pushes[0] for push in pushes)  # one encoding, shared
    assert orjson.loads(encode(pushes[0])) == {"type": "tournament", "tournament_id": "t1",
                                               "document": shown, "rid": None}
