"""``cardhall arena``: bots against bots through a real server, over the real protocol.

:func:`run` plays ``games`` games of one game between a lineup of bots, one per seat: built-in
kinds (``random``, ``rule``, wrapped as SDK bots) or SDK bots named ``module:Class``. Every
seat is a bot identity of its own (``POST /api/players`` with ``bot: true``, owned by an
``arena`` guest) driven by one :class:`cardhall.client.Client` over the WebSocket; each client
plays up to ``concurrency`` tables at once on its one connection. Game ``g`` is a fresh table
(created over REST) where table seat ``s`` is taken by lineup entry ``(s + g) % n``, so every
bot sits in every seat equally often. A poker game is one hand (every seat starts with
``stack`` chips); a Bazaar Blot game is one match.

The server is started in-process on a free port (in-memory store, or a temporary SQLite file)
unless ``url`` names a running one. Deals come from the server's secret seeds, so a run is not
reproducible; ``seed`` seeds only the bots' own random choices.

Statistics (per bot name; seats with the same name are pooled, e.g. a Blot team): per game,
``mean_return`` is the mean of its seats' returns (chips in poker, the team's match points in
Blot), ``edge`` that minus the mean return of the other seats, ``win_rate`` 1/½/0 as its mean
beats/ties/loses to the others'. Each is reported as a mean over games with a 95% confidence
interval: the normal approximation (``mean ± 1.96·s/√n``) for returns and edge, the Wilson
score interval for the win rate (it stays inside [0, 1]); games are independent deals.
"""

from __future__ import annotations

import asyncio
import contextlib
import statistics
import tempfile
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from .bots.evaluate import interval, result_rows, wilson
from .client import Client, load_bot
from .engine import get_game

GAME_TIMEOUT_SECONDS = 600.0
QUOTA_POLL_SECONDS = 1.0
"""Longest wait before asking again for a table a server refused with 429 (its quota)."""


@dataclass(frozen=True)
class ArenaSpec:
    """One arena run. ``bots`` has one entry per seat; ``url`` is an HTTP base URL
    (``http://host:port``) or ``None`` for an in-process server."""

    game: str
    bots: Sequence[str]
    games: int
    seed: int = 1
    url: str | None = None
    concurrency: int = 8
    turn_timeout_seconds: float = 5.0
    config: dict[str, Any] = field(default_factory=dict)
    stack: int = 100
    store: str = "memory"
    """``memory`` or ``sqlite`` (a temporary file) for the in-process server."""


@contextlib.asynccontextmanager
async def local_server(store: str = "memory", **settings: Any) -> AsyncIterator[str]:
    """Run the app under uvicorn on 127.0.0.1 with a free port, in this event loop; yields its
    HTTP base URL. No bot thinking delay, a generous message rate (the arena's clients pace
    themselves anyway), no per-player table quota nor REST rate (one owner creates every table),
    and a long pause between poker hands (the arena leaves after one)."""
    import uvicorn

    from .config import Settings
    from .server.app import create_app

    with tempfile.TemporaryDirectory(prefix="cardhall-arena-") as tmp:
        url = "memory://" if store == "memory" else f"sqlite+aiosqlite:///{Path(tmp) / 'a.db'}"
        values: dict[str, Any] = {
            "database_url": url, "bot_delay_seconds": 0.0, "next_hand_pause_seconds": 60.0,
            "ws_rate_per_second": 100_000.0, "ws_rate_burst": 100_000,
            "ws_outbound_queue": 8192, "min_turn_timeout_seconds": 0.05,
            # one owner creates every table, as fast as games end: no per-player quotas
            "max_live_tables_per_player": 1_000_000, "max_waiting_tables_per_address": 1_000_000,
            "rest_rate_limit": "100000000/minute", "max_sockets_per_address": 1_000_000,
            **settings}
        cfg = Settings(**values)
        config = uvicorn.Config(create_app(cfg), host="127.0.0.1", port=0,
                                ws=cfg.ws_implementation, ws_max_size=cfg.ws_max_size_bytes,
                                ws_per_message_deflate=False, log_level="warning",
                                lifespan="on")
        server = uvicorn.Server(config)
        task = asyncio.create_task(server.serve())
        async with asyncio.timeout(30):
            while not server.started:
                if task.done():
                    task.result()
                await asyncio.sleep(0.01)  # polling start-up, bounded by the timeout
        port = server.servers[0].sockets[0].getsockname()[1]
        try:
            yield f"http://127.0.0.1:{port}"
        finally:
            server.should_exit = True
            async with asyncio.timeout(30):
                await task


def summarize(lineup: Sequence[str], games: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per bot name: seats, ``mean_return``, ``edge``, ``win_rate`` (each mean + 95% CI).

    ``games[i]["seats"][s]`` is the lineup index at table seat ``s``; ``returns`` per seat.
    """
    out: dict[str, dict[str, Any]] = {}
    for name in sorted(set(lineup)):
        own_l, edge_l, win_l = [], [], []
        for g in games:
            mine = [r for r, i in zip(g["returns"], g["seats"], strict=True) if lineup[i] == name]
            rest = [r for r, i in zip(g["returns"], g["seats"], strict=True) if lineup[i] != name]
            own = statistics.fmean(mine)
            other = statistics.fmean(rest) if rest else 0.0
            own_l.append(own)
            edge_l.append(own - other)
            win_l.append(1.0 if own > other else 0.5 if own == other else 0.0)
        out[name] = {"seats": list(lineup).count(name), "mean_return": interval(own_l),
                     "edge": interval(edge_l), "win_rate": wilson(win_l)}
    return out


class _Arena:
    def __init__(self, spec: ArenaSpec, base_url: str) -> None:
        self.spec, self.base = spec, base_url.rstrip("/")
        self.ws_url = self.base.replace("http", "ws", 1) + "/ws"
        # idle connections expire before uvicorn's 5 s keep-alive, so a POST never races the
        # server closing the connection it reuses (seen as httpx.ReadError under load)
        self.http = httpx.AsyncClient(base_url=self.base, timeout=30.0,
                                      limits=httpx.Limits(keepalive_expiry=2.0))
        self.owner = ""
        self.clients: list[Client] = []
        self.bots: list[Any] = []

    async def setup(self, stack: contextlib.AsyncExitStack) -> None:
        stack.push_async_callback(self.http.aclose)
        r = await self.http.post("/api/players", json={"name": "arena"})
        r.raise_for_status()
        self.owner = r.json()["token"]
        for i, name in enumerate(self.spec.bots):
            label = name.rsplit(":", 1)[-1][:24]
            r = await self.http.post("/api/players", json={"name": f"{label}-{i}", "bot": True},
                                     headers=self._auth)
            r.raise_for_status()
            client = Client(self.ws_url, r.json()["token"], rate_burst=100)
            await stack.enter_async_context(client)
            self.clients.append(client)
            self.bots.append(load_bot(name, self.spec.game, seed=self.spec.seed * 1000 + i))

    @property
    def _auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.owner}"}

    async def _table(self) -> str:
        from .engine import get_game

        body: dict[str, Any] = {"game": self.spec.game, "seats": len(self.spec.bots),
                                "config": self.spec.config,
                                "turn_timeout_seconds": self.spec.turn_timeout_seconds}
        if get_game(self.spec.game).uses_stacks:
            body["starting_stack"] = self.spec.stack
        async with asyncio.timeout(GAME_TIMEOUT_SECONDS):
            while True:
                r = await self.http.post("/api/tables", json=body, headers=self._auth)
                if r.status_code != 429:
                    break
                # a server's quota (quota.tables: the owner's finished tables close a moment
                # after everyone left) or rate: wait as told, at most QUOTA_POLL_SECONDS
                wait = float(r.headers.get("Retry-After", "1") or 1)
                await asyncio.sleep(min(wait, QUOTA_POLL_SECONDS))
        if r.status_code != 201:
            raise RuntimeError(f"could not create a table: {r.status_code} {r.text}")
        return str(r.json()["id"])

    async def play(self, g: int) -> dict[str, Any]:
        """Game ``g``: a fresh table, seat ``s`` to lineup entry ``(s + g) % n``."""
        n = len(self.spec.bots)
        seats = [(s + g) % n for s in range(n)]
        table_id = await self._table()
        sessions = [await self.clients[i].join(table_id, self.bots[i], seat=s)
                    for s, i in enumerate(seats)]
        async with asyncio.timeout(GAME_TIMEOUT_SECONDS):
            over = await sessions[0].next_game_over()
        st = sessions[0].state
        seat_map = st.seat_map if st is not None and st.seat_map else list(range(n))
        returns = [0] * n
        for gs, ret in enumerate(over.outcome["returns"]):
            returns[seat_map[gs]] = ret
        for i in seats:
            with contextlib.suppress(Exception):
                await self.clients[i].leave(table_id)
        return {"game_id": over.game_id, "table_id": table_id, "seats": seats,
                "returns": returns, "reason": over.outcome.get("reason"),
                "errors": sum(len(s.errors) for s in sessions)}


async def run(spec: ArenaSpec,
              on_game: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """Play the arena; returns ``{"game", "games", "lineup", "url", "concurrency", "seconds",
    "ci", "bots": {name: stats}, "game_ids", "games_played": [...]}``. ``on_game`` (if given)
    is called with each game's entry of ``games_played`` as it ends (the command's live
    standings: :func:`summarize` over the games so far).

    Raises:
        UnknownGameError: no such game.
        ValueError: fewer than one game, or a bot spec that cannot be loaded.
        RuntimeError: a table could not be created; TimeoutError: a game did not end.
    """
    if spec.games < 1:
        raise ValueError(f"games must be >= 1, got {spec.games}")
    get_game(spec.game)  # UnknownGameError before any bot is loaded
    for name in spec.bots:  # fail before starting anything (one-line ValueError)
        load_bot(name, spec.game)
    started = time.perf_counter()
    async with contextlib.AsyncExitStack() as stack:
        base = spec.url
        if base is None:
            base = await stack.enter_async_context(local_server(spec.store))
        arena = _Arena(spec, base)
        await arena.setup(stack)
        limit = asyncio.Semaphore(max(1, spec.concurrency))

        async def one(g: int) -> dict[str, Any]:
            async with limit:
                played = await arena.play(g)
            if on_game is not None:
                on_game(played)
            return played

        played = await asyncio.gather(*(one(g) for g in range(spec.games)))
    lineup = list(spec.bots)
    return {
        "game": spec.game, "games": spec.games, "lineup": lineup,
        "url": spec.url or "in-process", "concurrency": spec.concurrency,
        "seconds": round(time.perf_counter() - started, 2),
        "ci": "95% over games: normal approximation (returns, edge), Wilson score (win rate)",
        "bots": summarize(lineup, played),
        "game_ids": [g["game_id"] for g in played],
        "games_played": played,
    }


def format_table(result: dict[str, Any]) -> str:
    """The plain-text results table of :func:`run`, then the games' ids."""
    width = max(10, *(len(n) + 2 for n in result["bots"]))
    lines = [f"{result['game']}: {result['games']} games through {result['url']} "
             f"(concurrency {result['concurrency']}) in {result['seconds']} s, "
             f"lineup {','.join(result['lineup'])}",
             *result_rows("bot", result["bots"], width), f"({result['ci']})"]
    lines.append("game ids: " + " ".join(result["game_ids"]))
    return "\n".join(lines)
