"""Play again (``docs/protocol.md``, "Play again"): a finished table's people at a new table.

A ``rematch`` request names a table (the *old* one). It is served outside the old table's
actor, by the manager that runs that table (in cluster mode: the table's owner, so the new
table is made on the same node, through :meth:`TableManager.create` like every table):

1. **Check**, inside the old table's actor (:func:`refusal`): the sender is a *player* of the
   table (:func:`players_of`) and the table's match is *over* for it (:func:`is_over`):

   * Bazaar Blot: the table is ``finished`` (one table game is one match).
   * Poker (Soldier's Bluff, Palace Poker deal hand after hand and never finish): the table
     stopped dealing (``waiting`` after its first hand: fewer seats with chips than the game
     needs, e.g. one player holds every chip), or the sender's own seat is out of chips and
     not in a running hand (it would only watch the others play on).

2. **One new table per old table**: the first request makes it (:func:`table_args`: the same
   game, partial config, seat count, turn timeout, starting stack and built-in bots at the
   same seats; a private table's rematch is private with a fresh invite code; created by the
   sender, so it counts towards the sender's ``max_live_tables_per_player``); requests while
   it is being made, and later ones while it lives, get the same table. Only when that table
   has closed does a request make another one.
3. **Seat the sender at once**: the answer ``rematch_ready`` is queued, then a ``join`` of the
   new table is posted for the sender's connection (``joined`` and ``state`` follow).
4. **Offer** (only by the request that made the table): one ``rematch_offer`` to each
   connection at the old table of another person who played there (:func:`offer`), who
   accepts by joining the new table (or by sending ``rematch`` too).

The link old -> new lives in this process's memory: a restart (or a failover) forgets it, and
a request after that makes a new table.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..engine import EngineError
from ..protocol import messages as p
from ..protocol.errors import ErrorCode
from .actor import Table
from .connections import Connection
from .errors import LogBacklogError, TableClosedError, TableLimitError, TableQuotaError

log = logging.getLogger(__name__)


class RematchRefused(Exception):
    """A ``rematch`` that is not allowed; ``code`` is its protocol error code."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        self.message = message


@dataclass
class RematchLink:
    """The new table made for an old one: its id, its invite code (private tables), and the
    players who asked for it (they are seated by their request, never offered it)."""

    table_id: str
    game: str
    invite_code: str | None
    asked: set[str] = field(default_factory=set)


def players_of(table: Table) -> set[str]:
    """The player ids that may ask for a rematch of ``table``: every seat holder who is not a
    built-in bot, and every player of its last game (the one whose history the table holds)
    who is not one of the table's built-in bot identities, less the players kicked from it
    (runs inside the table's task)."""
    builtin = {s.player_id for s in table.seats if s.bot_kind is not None} | table.kicked
    out = {s.player_id for s in table.seats if s.taken and s.bot_kind is None}
    if table.recorder is not None:
        out |= {s.player_id for s in table.recorder.history.seats if s.player_id is not None}
    return {pid for pid in out - builtin if pid is not None}


def is_over(table: Table, player_id: str) -> bool:
    """Whether the match at ``table`` is over for ``player_id`` (the rule of the module
    docstring, step 1)."""
    if table.status == "finished":
        return True
    if not table.rules.uses_stacks or table.hand == 0:
        return False
    if table.status == "waiting":  # dealt before, and cannot deal now ...
        with_chips = [s for s in table.seats if s.taken and not table.out_of_chips(s.index)]
        if not (all(s.taken for s in table.seats)
                and len(with_chips) >= table.rules.min_players(table.config)):
            return True  # ... for want of seats with chips (not a seat sitting out)
    own = next((s for s in table.seats if s.player_id == player_id and s.bot_kind is None), None)
    if own is None or not table.out_of_chips(own.index):
        return False
    return not (table.status == "playing" and table.in_hand(own.index))


def refusal(table: Table, player_id: str) -> int:
    """Check a rematch request of ``player_id`` at ``table``; returns the table's version.

    Raises:
        RematchRefused: ``rematch.not_a_player`` or ``rematch.not_over``.
    """
    if player_id not in players_of(table):
        raise RematchRefused("rematch.not_a_player", f"player {player_id} did not play at "
                             f"table {table.id}")
    if not is_over(table, player_id):
        raise RematchRefused("rematch.not_over", f"the match at table {table.id} is not over "
                             f"(status {table.status})")
    return table.version


def table_args(table: Table, created_by: str) -> dict[str, Any]:
    """The :meth:`TableManager.create` arguments of ``table``'s rematch (see the module
    docstring, step 2); a private table's gets a fresh invite code."""
    spec = table.spec
    return {"created_by": created_by, "config": dict(spec.config), "num_seats": spec.num_seats,
            "bots": dict(spec.bots), "turn_timeout_seconds": spec.turn_timeout_seconds,
            "starting_stack": spec.starting_stack, "private": spec.private,
            "invite_code": secrets.token_urlsafe(9) if spec.private else None}


def offer(table: Table, link: RematchLink, by: Any) -> int:
    """Send one ``rematch_offer`` of ``link`` (made by player ``by``) to each connection at
    ``table`` of another person who played there and has not asked for it; returns how many
    (runs inside the table's task)."""
    players = players_of(table) - link.asked - {by.id}
    msg = p.RematchOffer(table_id=table.id, version=table.version,
                         rematch_table_id=link.table_id, game=link.game,
                         invite_code=link.invite_code, by_player_id=by.id, by_name=by.name)
    sent = 0
    for conn in table.connections():
        if conn.player.id in players and not conn.player.is_bot and not conn.closed:
            table.send(conn, msg)
            sent += 1
    return sent


class TableMaker(Protocol):
    """What rematches need of the table manager (:class:`~.manager.TableManager`): find a
    live table, post a socket's request to one, create one."""

    def get(self, table_id: str) -> Table | None: ...

    def post_request(self, table: Table, conn: Connection, msg: Any) -> None: ...

    async def create(self, game: str, **kwargs: Any) -> Table: ...


class Rematches:
    """The rematch requests of one manager's tables (see the module docstring).

    Args:
        manager: makes and finds the tables (:class:`TableMaker`; rematch never imports the
            manager).
    """

    def __init__(self, manager: TableMaker) -> None:
        self.manager = manager
        self._made: dict[str, asyncio.Task[RematchLink]] = {}
        """Old table id -> the task making (or that made) its rematch."""
        self._serving: set[asyncio.Task[None]] = set()

    def request(self, table: Table, conn: Connection, msg: p.Rematch) -> None:
        """Serve ``msg`` from ``conn`` for ``table`` on a task of its own (never blocks)."""
        task = asyncio.get_running_loop().create_task(self._serve(table, conn, msg),
                                                      name=f"rematch-{table.id}")
        self._serving.add(task)
        task.add_done_callback(self._serving.discard)

    async def settle(self) -> None:
        """Return once every request being served now is served (tests; bounded by the
        requests themselves: each awaits one table creation and two actor calls)."""
        while self._serving:
            await asyncio.wait(set(self._serving))

    def forget(self, table_id: str) -> None:
        """The old table is gone: its link goes too."""
        self._made.pop(table_id, None)

    async def stop(self) -> None:
        """Cancel the requests being served (the manager stops)."""
        tasks = list(self._serving) + [t for t in self._made.values() if not t.done()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._made.clear()

    async def _serve(self, table: Table, conn: Connection, msg: p.Rematch) -> None:
        """Check, make or find the new table, seat ``conn`` there and (first request) offer it;
        every refusal is answered with a typed ``error``."""
        refused: tuple[ErrorCode, str] | None = None
        try:
            version = await table.call(lambda t: refusal(t, conn.player.id))
            link, created = await self._link(table, conn)
        except RematchRefused as exc:
            refused = (exc.code, exc.message)
        except TableClosedError:
            refused = ("table.not_found", f"table {msg.table_id!r} is closed")
        except TableQuotaError as exc:
            refused = ("quota.tables", str(exc))
        except (TableLimitError, LogBacklogError) as exc:
            refused = ("table.limit", str(exc))
        except EngineError as exc:  # the old table's options no longer pass (a changed limit)
            refused = (exc.code, exc.message)
        except Exception as exc:  # the store or the cluster failed making the table
            log.exception("table %s: rematch failed", msg.table_id)
            refused = ("server.unavailable", f"the rematch table could not be made: "
                       f"{type(exc).__name__}: {exc}")
        new = None if refused is not None else self.manager.get(link.table_id)
        if new is None:
            code, text = refused or ("table.not_found", "the rematch table closed; ask again")
            conn.send(p.Error(code=code, message=text, table_id=msg.table_id,
                              request=p.RequestRef(type=msg.type, rid=msg.rid)))
            return
        conn.send(p.RematchReady(table_id=table.id, version=version,
                                 rematch_table_id=link.table_id, game=link.game,
                                 invite_code=link.invite_code, created=created, rid=msg.rid))
        tables = getattr(conn, "tables", None)
        if tables is not None:  # a socket: its disconnect reaches the new table too
            tables.add(link.table_id)
        self.manager.post_request(new, conn, p.Join(type="join", table_id=link.table_id,
                                                    invite_code=link.invite_code, rid=msg.rid))
        if created:
            with contextlib.suppress(TableClosedError):
                await table.call(lambda t: offer(t, link, conn.player))

    async def _link(self, table: Table, conn: Connection) -> tuple[RematchLink, bool]:
        """The new table of ``table`` (made now if there is none alive) and whether this call
        made it. Raises what :meth:`TableManager.create` raises."""
        task = self._made.get(table.id)
        created = task is None or not self._alive(task)
        if task is None or created:
            task = asyncio.get_running_loop().create_task(self._make(table, conn.player.id))
            self._made[table.id] = task
        link = await asyncio.shield(task)
        link.asked.add(conn.player.id)
        return link, created

    def _alive(self, task: asyncio.Task[RematchLink]) -> bool:
        """Whether ``task`` is making its table, or made one that still runs here."""
        if not task.done():
            return True
        if task.cancelled() or task.exception() is not None:
            return False
        return self.manager.get(task.result().table_id) is not None

    async def _make(self, table: Table, created_by: str) -> RematchLink:
        args = table_args(table, created_by)
        new = await self.manager.create(table.spec.game, **args)
        log.info("table %s: rematch %s made by %s", table.id, new.id, created_by)
        return RematchLink(new.id, table.spec.game, args["invite_code"])
