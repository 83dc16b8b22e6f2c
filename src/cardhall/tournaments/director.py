"""The tournament director: runs each tournament's rounds on the table manager.

One asyncio task per running tournament. A round is paired and its boards' seeds drawn
(:func:`~.rounds.plan_round`) and the document saved *before* any table of it exists, so the
boards' commitments are fixed first; then one table per pairing and board is created through
:meth:`~cardhall.tables.manager.TableManager.create`, all four seats taken by the entrants'
built-in bots, with the board's seed as the table's server seed (``seed_source``); each
table's finished history gives the board's ``returns`` and ``game_id``; the round is scored
(:func:`~.rounds.score_round`) and its seeds revealed. The document is saved after every step
(:mod:`cardhall.storage.tournaments`).

**Limits** (``docs/tournaments.md``, "Limits"): :meth:`Director.create` refuses a tournament
over ``max_running_tournaments`` (the server), ``max_running_tournaments_per_player`` or
``max_running_tournaments_per_address``; a round's tables are their creator's
(``created_by``: they count towards ``max_live_tables_per_player`` and the server's
``max_tables``), and all tournaments keep at most ``max_tournament_tables`` open at once: a
table with no room waits for one (it is made when another closes), so a round never fails
for a quota.

**Restart**: :meth:`Director.start` resumes every ``running`` tournament from its document. A
table of the current round that still runs (restored from the table log) is waited for; one
that is gone before its result was recorded is created again with the same board seed, so
the board is dealt the same cards (a board's result is recorded only from a finished game).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import secrets
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from ..storage.tournaments import TournamentStore
from ..tables.errors import LogBacklogError, TableLimitError, TableQuotaError
from ..tables.manager import TableManager
from .arena import start_arena
from .arenaloop import run_arena
from .boardtables import ended, game_result, table_args
from .entry import open_entry
from .limits import check_quota
from .registration import wait_for_start
from .rounds import (
    new_tournament,
    plan_round,
    public,
    score_round,
    summary,
    too_few_alive,
    unscored_tables,
)
from .spec import TournamentRequest
from .verify import check_tournament

log = logging.getLogger(__name__)

POLL_SECONDS = 0.05
"""How often a waiting round looks at its tables (real time)."""


class TournamentNotFoundError(LookupError):
    """No tournament has this id (REST: 404 ``tournament.not_found``)."""


class Director:
    """Creates, runs and answers tournaments.

    Args:
        manager: the table manager the rounds' tables are created on.
        store: where the documents are kept.
        new_seed: a board's 32-byte server seed (``secrets`` unless a test fixes it).
        poll_seconds: see :data:`POLL_SECONDS`.
        now: the wall clock an arena's window is read on (UTC; a test gives a fake one).
    """

    def __init__(self, manager: TableManager, store: TournamentStore, *,
                 new_seed: Callable[[], bytes] | None = None,
                 poll_seconds: float = POLL_SECONDS,
                 now: Callable[[], datetime] | None = None) -> None:
        self.manager = manager
        self.now = now or (lambda: datetime.now(UTC))
        """The wall clock of an arena's window (a test's fake clock)."""
        self.store = store
        self.new_seed = new_seed or (lambda: secrets.token_bytes(32))
        self.poll_seconds = poll_seconds
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.owners: dict[str, str | None] = {}
        """Running (or being created) tournament id -> the player who created it."""
        self.addresses: dict[str, str | None] = {}
        """Running tournament id -> the client address it was created from (``None``: not
        known, e.g. resumed after a restart; never stored nor answered)."""
        self._saving = asyncio.Lock()
        """Held while a document is saved: the tables of a round save concurrently, and two
        saves of one document in flight could commit out of order (an older copy last)."""
        self._creating = asyncio.Lock()
        """Held while a table is checked for room and made (no two take the last room)."""
        self.live: dict[str, dict[str, Any]] = {}
        """The document of each tournament this director runs (``registering`` or
        ``running``): joins and withdrawals change it (:mod:`.registration`)."""
        self.watchers: dict[str, list[Callable[[dict[str, Any]], None]]] = {}
        """Tournament id -> who follows it (``watch_tournament``): each is called with the
        public document after every save (:meth:`watch`)."""
        self.start_events: dict[str, asyncio.Event] = {}
        """Set when a registering tournament's creator starts it."""
        self.withheld: set[str] = set()
        """Table ids of rounds not yet scored: their finished games (any copy, the replay,
        the game list) are withheld from everyone but the admin until the round is scored,
        since another table may still be playing the same board (the same cards)."""

    async def start(self) -> None:
        """Resume every ``registering`` and ``running`` tournament of the store."""
        for status in ("registering", "running"):
            for doc in await self.store.list_tournaments(status=status, limit=1000):
                self._spawn(doc)

    async def stop(self) -> None:
        """Stop running tournaments (their documents stay ``running``: resumed at the next
        start). A save in flight is let finish first (the tasks are cancelled while this
        holds :attr:`_saving`), so no document save is cut in half. (The shutdown hang seen
        in tests was aiosqlite 0.22's close, held off by the pin in ``pyproject.toml``; this
        alone did not stop it.)"""
        async with self._saving:
            tasks = list(self.tasks.values())
            for task in tasks:
                task.cancel()
            self.owners.clear()
            self.addresses.clear()
            for task in tasks:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
            self.tasks.clear()

    async def create(self, req: TournamentRequest, created_by: str | None,
                     created_from: str | None = None) -> dict[str, Any]:
        """Create a tournament, pair its first round and start it; returns its public
        document, with round 1 (pairs, boards' commitments, tables laid out: each gets its
        ``table_id`` once made). ``created_from`` is the client address (its network).

        Raises:
            InvalidConfigError: the board config is refused by the game.
            TournamentLimitError: the server runs ``max_running_tournaments``.
            TournamentQuotaError: ``created_by`` runs ``max_running_tournaments_per_player``,
                or ``created_from`` ``max_running_tournaments_per_address``.
        """
        check_quota(self.manager.settings, self.owners, self.addresses, created_by, created_from)
        doc = new_tournament(uuid.uuid4().hex[:12], req, created_by, datetime.now(UTC))
        self.owners[doc["id"]], self.addresses[doc["id"]] = created_by, created_from  # held
        try:
            if req.open:
                open_entry(doc, req, self.now())
            elif doc["kind"] == "arena":
                start_arena(doc, req, self.new_seed, self.now())
            else:
                rnd = plan_round(doc, self.new_seed)
                rnd["started_at"] = datetime.now(UTC).isoformat()
            await self._save(doc)  # the commitments come first
        except BaseException:
            self._done(doc["id"], None)
            raise
        self._spawn(doc, created_from)
        return public(doc)

    async def _doc(self, tournament_id: str) -> dict[str, Any]:
        """The stored document of ``tournament_id``.

        Raises:
            TournamentNotFoundError: no such tournament.
        """
        doc = await self.store.get_tournament(tournament_id)
        if doc is None:
            raise TournamentNotFoundError(f"no tournament {tournament_id!r}")
        return doc

    async def get(self, tournament_id: str) -> dict[str, Any]:
        """The public document (:func:`~.rounds.public`).

        Raises:
            TournamentNotFoundError: no such tournament.
        """
        doc = await self._doc(tournament_id)
        return public(doc)

    async def verify(self, tournament_id: str) -> dict[str, Any]:
        """:func:`~.verify.check_tournament` on the stored games of the finished rounds.

        Raises:
            TournamentNotFoundError: no such tournament.
        """
        doc = await self._doc(tournament_id)
        ids = [t["game_id"] for r in doc["rounds"] if r["status"] == "finished"
               for t in r["tables"] if t["game_id"]]
        histories = {gid: await self.manager.store.get_game(gid) for gid in ids}
        return check_tournament(doc, histories)

    async def withheld_now(self) -> set[str]:
        """Every table whose finished games are withheld now: this process's
        (:attr:`withheld`) and those of every running tournament's unscored rounds in the
        store, so a node that does not run a tournament withholds its boards too (cluster
        mode). A table's id is in its document before the table exists (:meth:`_table`).

        Raises:
            Any store error (the game route then fails rather than answer a withheld game).
        """
        docs = await self.store.list_tournaments(status="running", limit=1000)
        return self.withheld.union(*(unscored_tables(d) for d in docs))

    async def list_tournaments(self, *, status: str | None = None, limit: int = 50) -> list[dict[str, Any]]:
        """Summaries (:func:`~.rounds.summary`), newest first."""
        return [summary(d) for d in await self.store.list_tournaments(status=status, limit=limit)]

    async def wait(self, tournament_id: str) -> None:
        """Until the tournament's task ends (tests)."""
        task = self.tasks.get(tournament_id)
        if task is not None:
            await asyncio.shield(task)

    def _spawn(self, doc: dict[str, Any], created_from: str | None = None) -> None:
        task = asyncio.get_running_loop().create_task(self._run(doc),
                                                      name=f"tournament-{doc['id']}")
        self.tasks[doc["id"]] = task
        self.live[doc["id"]] = doc
        self.owners[doc["id"]] = doc["created_by"]
        self.addresses[doc["id"]] = created_from
        task.add_done_callback(functools.partial(self._done, doc["id"]))

    def _done(self, tournament_id: str, _task: object) -> None:
        self.tasks.pop(tournament_id, None)
        self.live.pop(tournament_id, None)
        self.start_events.pop(tournament_id, None)
        self.owners.pop(tournament_id, None)
        self.addresses.pop(tournament_id, None)

    async def _run(self, doc: dict[str, Any]) -> None:
        try:
            if doc["status"] == "registering":
                await wait_for_start(self, doc)
            if doc["status"] == "running" and doc["kind"] == "arena":
                await run_arena(self, doc)
            while doc["status"] == "running":
                rnd = doc["rounds"][-1] if doc["rounds"] and \
                    doc["rounds"][-1]["status"] == "playing" else None
                if rnd is None and too_few_alive(doc):  # withdrawn since the last round
                    doc["status"] = "finished"
                    await self._save(doc)
                    break
                if rnd is None:
                    rnd = plan_round(doc, self.new_seed)
                    rnd["started_at"] = datetime.now(UTC).isoformat()
                    await self._save(doc)  # the commitments come first
                await self._play(doc, rnd)
                await self.stored(doc, rnd)
                score_round(doc, rnd)
                await self._save(doc)
                self.withheld.difference_update(t["table_id"] for t in rnd["tables"])
                log.info("tournament %s: round %d scored", doc["id"], rnd["round"])
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.exception("tournament %s failed", doc["id"])
            doc["status"], doc["error"] = "failed", f"{type(exc).__name__}: {exc}"
            await self._save(doc)

    async def _play(self, doc: dict[str, Any], rnd: dict[str, Any]) -> None:
        """Play every table of the round not yet recorded: each is made when there is room
        (:meth:`_table`), then its finished game recorded (:meth:`_record` deals a board
        again only when its table left no stored game). With people among the entrants the
        round's boards are played one after the other (every table of board 1, then of board
        2, ...): a person plays one table at a time."""
        for t in rnd["tables"]:
            if t["table_id"] is not None:
                self.withheld.add(t["table_id"])
        todo = [t for t in rnd["tables"] if t["returns"] is None]
        people = any(e.get("player_id") for e in doc["entrants"])
        waves = sorted({t["board"] for t in todo}) if people else [None]
        for board in waves:
            await asyncio.gather(*(self._board(doc, rnd, t) for t in todo
                                   if board is None or t["board"] == board))

    async def _board(self, doc: dict[str, Any], rnd: dict[str, Any], t: dict[str, Any]) -> None:
        """Make table ``t`` if it is not made yet, then record its game."""
        if t["table_id"] is None:
            await self._table(doc, rnd, t)
            t["status"] = "playing"
            await self._save(doc)
        await self._record(doc, t)

    async def _save(self, doc: dict[str, Any]) -> None:
        """Save ``doc``, one save at a time (:attr:`_saving`), so the last saved is the
        newest."""
        async with self._saving:
            await self.store.save_tournament(doc)
        fns = self.watchers.get(doc["id"])
        if fns:
            shown = public(doc)
            for fn in list(fns):
                fn(shown)

    def watch(self, tournament_id: str,
              fn: Callable[[dict[str, Any]], None]) -> Callable[[], None]:
        """Call ``fn(public document)`` after every save of ``tournament_id`` until the
        returned function is called (it must not raise: a connection's ``send``)."""
        self.watchers.setdefault(tournament_id, []).append(fn)

        def unwatch() -> None:
            fns = self.watchers.get(tournament_id, [])
            if fn in fns:
                fns.remove(fn)
            if not fns:
                self.watchers.pop(tournament_id, None)

        return unwatch

    def log_cancelled(self, doc: dict[str, Any]) -> None:
        """Log an open tournament that could not start (:func:`.entry.begin`)."""
        log.info("tournament %s cancelled: %s", doc["id"], doc["error"])

    def live_tables(self) -> int:
        """Tables of unscored rounds still open (what ``max_tournament_tables`` bounds)."""
        return sum(1 for tid in self.withheld
                   if (table := self.manager.get(tid)) is not None and not table.stopped)

    async def _table(self, doc: dict[str, Any], rnd: dict[str, Any], t: dict[str, Any]) -> str:
        """Create table ``t`` of the round under a new id, saved in the document first (so
        every node withholds its games, :meth:`withheld_now`), the creator's
        (``created_by``), each seat a built-in bot of its entrant or held for its person,
        labelled with the tournament, round and board; waits
        while all tournaments hold ``max_tournament_tables`` open tables or the manager
        refuses it for a quota, the server's table limit or the log's backlog."""
        args = table_args(doc, rnd, t)
        told = False
        t["table_id"] = uuid.uuid4().hex[:12]  # in the stored document before any game of it
        self.withheld.add(t["table_id"])
        await self._save(doc)
        while True:
            async with self._creating:
                why = "max_tournament_tables"
                if self.live_tables() < self.manager.settings.max_tournament_tables:
                    try:
                        table = await self.manager.create(
                            doc["game"], created_by=doc["created_by"],
                            table_id=t["table_id"], **args)
                    except (TableQuotaError, TableLimitError, LogBacklogError) as exc:
                        why = str(exc)
                    else:
                        self.withheld.add(table.id)
                        return table.id
            if not told:
                log.info("tournament %s: a table of round %d waits for room (%s)", doc["id"],
                         rnd["round"], why)
                told = True
            await asyncio.sleep(self.poll_seconds)

    async def _record(self, doc: dict[str, Any], t: dict[str, Any]) -> None:
        """Wait until table ``t`` has finished its game; keep its ``game_id`` and ``returns``,
        save the document and close the table. A table that is gone, or was restored after
        its game ended, gives the stored game of that table; only when there is none is the
        board dealt again at a new table (same seed, same cards)."""
        while True:
            table = self.manager.get(t["table_id"])
            result = None if table is None else game_result(table)
            if result is not None:
                await self._finished(doc, t, *result)
                return
            if table is None or ended(table):  # gone, or restored after its end
                stored = await self._stored(doc, t["table_id"])
                if stored is not None:
                    await self._finished(doc, t, *stored)
                    return
                if table is not None:  # restored after an end that was never stored
                    await self.manager.close(table.id)
                await self._table(doc, doc["rounds"][-1], t)
                await self._save(doc)
                continue
            await asyncio.sleep(self.poll_seconds)

    async def stored(self, doc: dict[str, Any], rnd: dict[str, Any]) -> None:
        """Wait until every game of ``rnd``'s tables is in the store, so a scored round's
        games (and the tournament's verify) can all be read. A durable table hands its game
        to the writer only once its log step committed, which may land after the director
        saw the table's result; each turn flushes the writer and looks again, every
        ``poll_seconds``, logging once if a game is late (the store may be down)."""
        ids = [t["game_id"] for t in rnd["tables"] if t["game_id"]]
        told = False
        while True:
            await self.manager.writer.flush()
            missing = [gid for gid in ids if await self.manager.store.get_game(gid) is None]
            if not missing:
                return
            ids = missing
            if not told:
                log.info("tournament %s: %d game(s) of round %d not stored yet", doc["id"],
                         len(missing), rnd["round"])
                told = True
            await asyncio.sleep(self.poll_seconds)

    async def _finished(self, doc: dict[str, Any], t: dict[str, Any], game_id: str,
                        returns: list[int]) -> None:
        t["game_id"], t["returns"], t["status"] = game_id, returns, "finished"
        await self._save(doc)
        await self.manager.close(t["table_id"])

    async def _stored(self, doc: dict[str, Any], table_id: str) -> tuple[str, list[int]] | None:
        """``(game_id, returns)`` of the stored game of ``table_id`` (after the writer's
        flush), or ``None``."""
        await self.manager.writer.flush()
        since = datetime.fromisoformat(doc["rounds"][-1]["started_at"]) - timedelta(minutes=1)
        games = await self.manager.store.list_games(game=doc["game"], since=since, limit=1000)
        for game in games:
            if game.table_id == table_id:
                return game.id, list(game.outcome["returns"])
        return None
