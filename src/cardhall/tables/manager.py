"""The table registry (``design.md`` sections 5 and 8): create, find, list, close, kick.

The only in-process registry of the server. It owns every table task and cancels them all on
:meth:`TableManager.stop`. A table lives in exactly one process: in cluster mode the one
holding its lease (:mod:`.ownership`, ``docs/scaling.md``); recovery from the table log is in
:mod:`.recovery`; closing, kicking and the admin's figures in :mod:`.moderation`.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import logging
import uuid
from collections.abc import Callable
from typing import Any

from ..bots import get_policy, policy_names
from ..config import Settings
from ..engine import InvalidConfigError, get_game
from ..protocol import messages as p
from ..storage.interface import PlayerRecord, Store
from ..storage.log import TableLog
from ..storage.writer import CLOSE_TIMEOUT_SECONDS, GameWriter
from .actor import Table, TableSpec
from .balances import Balances, needs_balance
from .bots import BotConnection, bot_name
from .clock import Clock, RealClock
from .connections import Connection
from .errors import (
    LogBacklogError,
    TableLimitError,
    TableQuotaError,
)
from .messages import ClientRequest, Close, Control
from .moderation import Moderation
from .ownership import Ownership
from .recovery import Recovery
from .rematch import Rematches

log = logging.getLogger(__name__)

class TableManager(Recovery, Moderation):
    """Registry of live tables.

    Args:
        settings: limits and defaults (``max_tables``, ``bot_delay_seconds``, ...).
        store: where bot identities are created (and finished games saved, by the writer).
        clock: injected time (tests pass a :class:`~.clock.FakeClock`).
        writer: the :class:`~cardhall.storage.writer.GameWriter` the tables hand finished
            games to, started and closed by its owner (the app's lifespan). When omitted the
            manager makes one over ``store``, starts it in :meth:`start` and closes (flushes) it
            at the end of :meth:`stop`, after the tables.
        log: the :class:`~cardhall.storage.log.TableLog` (started and closed by its owner)
            that makes tables durable: :meth:`start` then restores every live table of the
            store's log and re-submits the outbox's finished games. ``None``: tables live in
            memory only.
    """

    def __init__(self, settings: Settings, store: Store, clock: Clock | None = None, *,
                 writer: GameWriter | None = None, log: TableLog | None = None) -> None:
        self.settings = settings
        self.store = store
        self.log = log
        self.balances = Balances(settings, store, log)
        """Chip balance lookups and holds of poker joins (:mod:`.balances`)."""
        self._lookups: dict[tuple[str, str], asyncio.Task[None]] = {}
        """(table id, connection id) -> the connection's latest request to that table waiting
        for a balance lookup (:meth:`post_request`)."""
        self.tables_restored = 0
        """Tables rebuilt from the log at start-up (since start; never goes down)."""
        self.tables_aborted = 0
        """Tables whose log could not be replayed (recorded as ``aborted``)."""
        self._bot_players: dict[str, PlayerRecord] = {}
        self._owns_writer = writer is None
        self.writer = writer if writer is not None else GameWriter(
            store, outbox=log is not None, max_attempts=None if log is not None else 6)
        if log is not None:  # a committed step's finished games go from the log to the writer
            log.deliver_to(self.writer)
        self.clock = clock or RealClock()
        self.tables: dict[str, Table] = {}
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.closed_count = 0
        self.games_saved_closed = 0
        """Games handed to the writer by tables that are gone (the counter never goes down)."""
        self._started = False
        self.rematches = Rematches(self)
        """The ``rematch`` requests of this manager's tables (:mod:`.rematch`)."""
        self.ownership: Ownership | None = None
        """Cluster mode: the leases of this node's tables (:mod:`.ownership`); set before
        :meth:`start`. ``None``: this process owns every table it runs."""

    async def start(self, *, restore_all: bool = True) -> None:
        """Start accepting tables (and the manager's own game writer, if it made one); with a
        table log, first re-submit the outbox and (``restore_all``) restore every live table
        of the log. Cluster mode restores none here: each table is taken over under a lease
        (:meth:`restore_table`)."""
        if self._owns_writer and not self.writer.running:
            self.writer.start()
        if self.log is not None:
            for record in await self.store.load_outbox():
                self.writer.submit(record)
            if restore_all:  # one process: no hold is settled any more but by its tables
                if self.settings.chip_balances:
                    await self.store.release_stale_holds()
                await self._restore(await self.store.load_log())
        self._started = True

    def _new_table(self, table_id: str, rules: Any, config: Any, spec: TableSpec, *,
                   seed_source: Callable[[int], bytes] | None = None) -> Table:
        table = Table(table_id, rules, config, spec, store=self.store, writer=self.writer,
                      clock=self.clock, log=self.log,
                      seed_source=seed_source or self._seed_source())
        table.chips.chip_balances = self.settings.chip_balances
        return table

    def _seed_source(self) -> Callable[[int], bytes] | None:
        """Each game's seed: ``secrets``, unless ``insecure_fixed_seed`` is set (tests only:
        the seed of hand ``n`` is then SHA-256 of ``"<fixed>:<n>"``)."""
        fixed = self.settings.insecure_fixed_seed
        if fixed is None:
            return None
        return lambda hand: hashlib.sha256(f"{fixed}:{hand}".encode()).digest()

    def _run(self, table: Table) -> None:
        self.tables[table.id] = table
        task = asyncio.create_task(table.run(), name=f"table-{table.id}")
        self.tasks[table.id] = task
        task.add_done_callback(functools.partial(self._gone, table.id))

    async def stop(self) -> None:
        """Close every table (players get ``table_closed``/``shutdown``) and cancel every task.
        With a table log the tables' logs stay: they are restored at the next start."""
        for lookup in list(self._lookups.values()):
            lookup.cancel()
        await self.rematches.stop()
        for table in list(self.tables.values()):
            table.post(Close("shutdown"))
        tasks = list(self.tasks.values())
        if tasks:
            _, pending = await asyncio.wait(tasks, timeout=2.0)
            for t in pending:
                t.cancel()
            for t in pending:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await t
        self.tables.clear()
        self.tasks.clear()
        await self.balances.drain()
        if self._owns_writer:
            await self.writer.close(timeout=CLOSE_TIMEOUT_SECONDS)
        self._started = False

    def spec_for(self, game: str, *, config: dict[str, Any] | None = None,
                 num_seats: int | None = None, bots: dict[int, str] | None = None,
                 turn_timeout_seconds: float | None = None,
                 starting_stack: int | None = None, private: bool = False,
                 invite_code: str | None = None,
                 label: dict[str, Any] | None = None,
                 watchable: bool = True, rated: bool = True) -> tuple[Any, Any, TableSpec]:
        """Validate a table request. Returns ``(rules, config, spec)``; ``label`` is a
        tournament's (:attr:`~.state.TableSpec.label`), and so is ``watchable``; ``rated``
        ``False`` makes a casual table (:attr:`~.state.TableSpec.rated`).

        Raises:
            UnknownGameError: no such game. InvalidConfigError: bad config, seat count, bot seat or kind,
            timeout or stack (the message names the value).
        """
        rules = get_game(game)
        cfg = rules.config(config or {})
        n = rules.min_seats if num_seats is None else num_seats
        stack: int | None = None
        if rules.uses_stacks:
            stack = self.settings.default_starting_stack if starting_stack is None \
                else starting_stack
            most = self.settings.max_starting_stack
            if type(stack) is not int or not 0 < stack <= most:
                raise InvalidConfigError(f"starting_stack must be whole chips from 1 to {most}, "
                                    f"got {stack!r}")
        elif starting_stack is not None:
            raise InvalidConfigError(f"{game} takes no starting_stack, got {starting_stack!r}")
        rules.check_table(cfg, n, stack)
        bots = dict(bots or {})
        for seat, kind in bots.items():
            if not 0 <= seat < n:
                raise InvalidConfigError(f"bot seat {seat!r} is not a seat of {n}")
            if kind not in policy_names():
                raise InvalidConfigError(f"unknown bot kind {kind!r}; known: {policy_names()}")
        timeout = turn_timeout_seconds
        if timeout is None:
            timeout = self.settings.turn_timeout_seconds
        lo, hi = self.settings.min_turn_timeout_seconds, self.settings.max_turn_timeout_seconds
        if not lo <= timeout <= hi:
            raise InvalidConfigError(f"turn_timeout_seconds {timeout!r} is outside [{lo}, {hi}]")
        if private and not invite_code:
            raise InvalidConfigError("a private table needs an invite_code")
        spec = TableSpec(private=private, invite_code=invite_code if private else None,
                         game=game, config=dict(config or {}), num_seats=n,
                         turn_timeout_seconds=float(timeout), starting_stack=stack, bots=bots,
                         next_hand_pause_seconds=self.settings.next_hand_pause_seconds,
                         bot_delay_seconds=self.settings.bot_delay_seconds,
                         idle_ttl_seconds=self.settings.idle_table_ttl_seconds,
                         abandon_after_seconds=self.settings.abandon_after_seconds,
                         stand_in_after_timeouts=self.settings.stand_in_after_timeouts,
                         label=label, watchable=watchable, rated=bool(rated))
        return rules, cfg, spec

    async def create(self, game: str, *, created_by: str | None = None,
                     created_from: str | None = None,
                     seed_source: Callable[[int], bytes] | None = None,
                     held: dict[int, PlayerRecord] | None = None,
                     table_id: str | None = None,
                     **kwargs: Any) -> Table:
        """Create and start a table; its bots take their seats at once.

        ``seed_source`` (``hand number -> 32-byte server seed``, hands from 1) fixes the
        server seeds of the table's games (a tournament's duplicate boards,
        ``docs/tournaments.md``); ``None``: ``secrets`` (or the test-only fixed seed). A
        restored table keeps the seeds its log holds, whatever its source was.

        ``held`` (seat -> person) gives those seats to people who are not connected yet (a
        tournament's entrants, ``docs/tournaments.md``, "People as entrants"): each joins by
        resuming it (``join`` as that player); until then the seat is a holder without a
        connection, so a stand-in plays it from its first timeout (:mod:`.standin`). At a
        poker table the seat gets the table's ``starting_stack`` (house chips, not the
        person's balance).

        ``table_id`` names the new table (``None``: a fresh random id): a tournament's
        director records the id before the table exists, so that every node knows its
        games are withheld before one can end (``docs/tournaments.md``, "A round").

        ``created_by`` is the id of the player asking (``None``: the server itself); the table
        records it (:attr:`Table.created_by`) and it counts towards that player's
        ``max_live_tables_per_player`` until the table closes.

        Raises:
            UnknownGameError, InvalidConfigError: see :meth:`spec_for`.
            TableQuotaError: ``created_by`` already has ``max_live_tables_per_player`` live
                tables it created.
            TableLimitError: the server already runs ``max_tables`` tables.
            LogBacklogError: the table log's backlog is full (the database is down or slow).
            Any store error looking up the bot identities (no table is created then).
        """
        rules, cfg, spec = self.spec_for(game, **kwargs)
        held = dict(held or {})
        if any(not 0 <= s < spec.num_seats or s in spec.bots for s in held):
            raise InvalidConfigError(f"held seats {sorted(held)} must be seats of "
                                     f"{spec.num_seats} that no bot takes")
        self._check_room(created_by, created_from)
        bots = {seat: await self._bot_player(kind, seat) for seat, kind in spec.bots.items()}
        self._check_room(created_by, created_from)  # again: other requests ran meanwhile
        if table_id is not None and table_id in self.tables:
            raise InvalidConfigError(f"table id {table_id!r} is taken")
        table = self._new_table(table_id or uuid.uuid4().hex[:12], rules, cfg, spec,
                                seed_source=seed_source)
        table.created_by, table.created_from = created_by, created_from
        if self.ownership is not None:
            self._own(table, await self.ownership.claim(table.id))
        self._run(table)
        try:
            if held:  # before the bots: the last bot's seat starts the game
                await table.call(functools.partial(_hold_seats, held))
            for seat, kind in sorted(spec.bots.items()):
                bot = BotConnection(bots[seat], get_policy(game, kind, cfg), self.clock,
                                    spec.bot_delay_seconds, table.post)
                await table.call(_seat_bot(seat, bot, kind))
            await table.call(lambda t: t.timers.arm_reap())
        except BaseException:
            await self.close(table.id, "error")  # no empty table left in the lobby
            raise
        log.info("table %s created (%s, %d seats, %d bots, by %s)", table.id, game,
                 spec.num_seats, len(spec.bots), created_by)
        return table

    def live_tables_created_by(self, player_id: str) -> int:
        """How many live tables ``player_id`` created (what ``max_live_tables_per_player``
        bounds; a table counts until it closes)."""
        return sum(1 for t in self.tables.values() if t.created_by == player_id and not t.stopped)

    def waiting_tables_from(self, address: str) -> int:
        """How many live tables created from client ``address`` wait for their first game
        (what ``max_waiting_tables_per_address`` bounds)."""
        return sum(1 for t in self.tables.values()
                   if t.created_from == address and t.status == "waiting" and not t.stopped)

    def _check_room(self, created_by: str | None, created_from: str | None = None) -> None:
        """Refuse a new table for ``created_by`` or its address ``created_from`` (quotas),
        then for the server (limit, log).

        Raises:
            TableQuotaError, TableLimitError, LogBacklogError: see :meth:`create`.
        """
        most = self.settings.max_live_tables_per_player
        if created_by is not None and (mine := self.live_tables_created_by(created_by)) >= most:
            raise TableQuotaError(f"player {created_by} already has {mine} live tables "
                                  f"(max_live_tables_per_player={most}); leave or finish one")
        most = self.settings.max_waiting_tables_per_address
        if created_from is not None and (n := self.waiting_tables_from(created_from)) >= most:
            raise TableQuotaError(f"{n} tables created from this address wait for players "
                                  f"(max_waiting_tables_per_address={most}); play or close one")
        if len(self.tables) >= self.settings.max_tables:
            raise TableLimitError(f"the server already runs {len(self.tables)} tables "
                                  f"(max_tables={self.settings.max_tables})")
        if self.log is not None and self.log.full:
            raise LogBacklogError(f"{self.log.backlog} table log entries wait for the database "
                                  f"(log_backlog_max={self.log.max_backlog}); no new tables")

    async def _bot_player(self, kind: str, seat: int) -> PlayerRecord:
        """The identity of a built-in bot of ``kind`` (one ``players`` row per kind,
        ``rule-bot``/``random-bot``, reused by every table: the player id ratings and game
        records use), shown under the readable name of its seat (:func:`.bots.bot_name`:
        ``Cleo`` at seat 2); the seat's ``bot_level`` says the kind."""
        shared = self._bot_players.get(kind)
        if shared is None:
            async with asyncio.timeout(self.settings.db_timeout_seconds):
                shared = await self.store.bot_identity(f"{kind}-bot")
            self._bot_players[kind] = shared
        return PlayerRecord(shared.id, bot_name(seat), is_bot=True)

    def _gone(self, table_id: str, _task: object = None) -> None:
        self.rematches.forget(table_id)
        table = self.tables.pop(table_id, None)
        if table is not None:
            self.closed_count += 1
            self.games_saved_closed += table.flow.games_saved
            if self.ownership is not None:
                self.ownership.released(table_id, closed=table.status == "closed" and not (
                    table.durable.keep_log or table.durable.fenced_out))
        self.tasks.pop(table_id, None)

    def post_request(self, table: Table, conn: Connection, msg: Any) -> None:
        """Post a socket's request to ``table`` (never blocks). A poker ``join`` waits for
        its balance lookup (:meth:`request`) on a task, and every later request of the same
        connection to that table waits behind it, so a table sees each connection's requests
        in their order (another connection's requests never wait for this one's lookups: a
        stranger's joins must not hold up the players' moves). A ``rematch`` is served beside
        the table (:mod:`.rematch`: it makes a table)."""
        if isinstance(msg, p.Rematch):
            self.rematches.request(table, conn, msg)
            return
        key = (table.id, conn.id)
        prev = self._lookups.get(key)
        if prev is None and not (self.settings.chip_balances
                                 and needs_balance(table, msg, conn.player.is_bot)):
            table.post(ClientRequest(conn, msg))
            return

        async def post_in_order() -> None:
            if prev is not None:
                with contextlib.suppress(Exception):
                    await prev
            table.post(await self.request(table, conn, msg))

        task = asyncio.get_running_loop().create_task(post_in_order())
        self._lookups[key] = task

        def done(t: asyncio.Task[None]) -> None:
            if self._lookups.get(key) is t:
                del self._lookups[key]
        task.add_done_callback(done)

    async def request(self, table: Table, conn: Connection, msg: Any) -> ClientRequest:
        """The inbox record of a socket's request to ``table``: a ``join`` taking or resuming
        a seat at a poker table carries the player's chip balance, read now with the free
        top-up, and the hold of what this join may take, debited now (:mod:`.balances`);
        built-in bots' requests never come this way."""
        if not (self.settings.chip_balances and needs_balance(table, msg, conn.player.is_bot)):
            return ClientRequest(conn, msg)
        return await self.balances.lookup(table, conn, msg)

    def get(self, table_id: str) -> Table | None:
        return self.tables.get(table_id)

    def list(self, game: str | None = None) -> list[Table]:
        return [t for t in self.tables.values() if game is None or t.rules.name == game]

    async def quick_seat(self, game: str, *,
                         created_by: str | None = None) -> tuple[Table, int]:
        """A seat for a lone player. Returns ``(table, free seat index)``.

        Prefers a live table of ``game`` that deals the player in: ``waiting`` (or, poker,
        ``between_hands``) with a free seat, the one with the most seats taken first (the
        closest to starting), never one everyone who played there has left (it is about to
        close: :meth:`~.state.TableState.abandoned`). When there is none, creates a table with the server's defaults
        (the game's minimum seats) whose other seats are taken at once by built-in ``rule``
        bots, so the game starts as soon as the player joins seat 0.

        A created table is ``created_by``'s (it counts towards their quota).

        Raises:
            UnknownGameError: no such game. TableQuotaError, TableLimitError,
            LogBacklogError: no table could be created (see :meth:`create`).
        """
        open_statuses = ("waiting", "between_hands")
        best: tuple[int, Table, int] | None = None
        for t in self.list(game):
            free = [s.index for s in t.seats if not s.taken]
            # an abandoned table (everyone who played left) closes within seconds: not offered
            if t.status in open_statuses and free and not t.spec.private and not t.abandoned():
                taken = len(t.seats) - len(free)
                if best is None or taken > best[0]:
                    best = (taken, t, free[0])
        if best is not None:
            return best[1], best[2]
        seats = get_game(game).min_seats
        table = await self.create(game, created_by=created_by,
                                  bots={s: "rule" for s in range(1, seats)})
        return table, 0


def _hold_seats(held: dict[int, PlayerRecord], table: Table) -> None:
    """Give each seat of ``held`` to its person, not connected (:meth:`TableManager.create`);
    a table with no bot seat starts its game here."""
    for seat, player in sorted(held.items()):
        table.seats[seat].take(player.id, player.name, stack=table.spec.starting_stack)
    table.version += 1
    if len(held) == len(table.seats):
        table.flow.start_game_if_ready()


def _seat_bot(seat: int, bot: BotConnection, kind: str) -> Callable[[Table], None]:
    def run(table: Table) -> None:
        table.seating.seat_player(table.seats[seat], bot, bot_kind=kind)

    return run


__all__ = ["Control", "TableManager"]
