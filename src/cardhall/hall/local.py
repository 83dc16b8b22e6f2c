"""The one-process hall: what the REST routes and the WebSocket handler ask when this process
serves every table (the default; ``cluster/hall.py``'s :class:`~cardhall.cluster.hall.
ClusterHall` extends it over Redis). The process's own
:class:`~cardhall.tables.manager.TableManager` answers everything: a table is its lobby
summary (``Table.summary()``), the admin's answers are those of :mod:`.ops`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from ..protocol import messages as p
from ..tables.connections import QueueConnection
from ..tables.lobby import Key, lobby_row, page, table_key
from ..tables.manager import TableManager
from ..tables.messages import Disconnected
from . import ops
from .ops import KICK_FLUSH_SECONDS

OPEN_STATUSES = ("waiting", "between_hands")
"""Statuses in which a table deals a newcomer in (quick seat)."""


def _abandoned(summary: dict[str, Any]) -> bool:
    """A table that dealt hands and whose seats hold only built-in bots (or nobody): everyone
    who played left, and it closes within seconds (``Timers.abandoned``, over a summary)."""
    return summary["hand"] > 0 and summary["status"] != "playing" and not any(
        seat["player_id"] is not None and not seat.get("bot_level") for seat in summary["seats"])


def pick_quick_seat(summaries: list[dict[str, Any]]) -> tuple[dict[str, Any], int] | None:
    """The open table with a free seat closest to starting (most seats taken), and the seat,
    never an abandoned one (:func:`_abandoned`); ``None`` when there is none (``TableManager.quick_seat``'s rule, over summaries)."""
    best: tuple[int, dict[str, Any], int] | None = None
    for s in summaries:
        free = [seat["seat"] for seat in s["seats"] if seat["player_id"] is None]
        if s["status"] in OPEN_STATUSES and free and not _abandoned(s):
            taken = s["num_seats"] - len(free)
            if best is None or taken > best[0]:
                best = (taken, s, free[0])
    return None if best is None else (best[1], best[2])


class LocalHall:
    """One process: every table is the manager's."""

    cluster: object | None = None
    """The cluster node (``cluster/hall.py``'s ``ClusterHall``); ``None`` in one process."""

    def __init__(self, manager: TableManager) -> None:
        self.manager = manager
        self.on_sockets: Callable[[set[str], str], Awaitable[int]] | None = None
        """Closes this process's sockets of some players (set by the app: ``players, why``
        -> how many; ``server/sockets.py``)."""

    async def summaries(self, game: str | None = None) -> list[dict[str, Any]]:
        """The lobby: live public tables (private ones are never listed)."""
        return [t.summary() for t in self.manager.list(game) if not t.spec.private]

    async def lobby(self, game: str | None, limit: int, after: Key | None,
                    full: bool = False) -> tuple[list[dict[str, Any]], Key | None]:
        """One page of the lobby (:func:`~cardhall.tables.lobby.page`): the rows
        (:func:`~cardhall.tables.lobby.lobby_row`, or full summaries) of the ``limit`` live
        public tables after ``after``, and the key to continue after (``None``: the last
        page). Only the page's tables are summarized. A table whose match ended
        (``finished``) is no longer live: it leaves the list at once, before it is reaped."""
        tables = [t for t in self.manager.list(game)
                  if not t.spec.private and t.status != "finished"]
        chosen, last = page(tables, table_key, limit, after)
        summaries = [t.summary() for t in chosen]
        return [s if full else lobby_row(s) for s in summaries], last

    async def summary(self, table_id: str) -> dict[str, Any] | None:
        table = self.manager.get(table_id)
        return None if table is None else table.summary()

    async def create(self, game: str, **kwargs: Any) -> dict[str, Any]:
        """Create a table (``TableManager.create``'s arguments and errors)."""
        return (await self.manager.create(game, **kwargs)).summary()

    async def quick_seat(self, game: str, *, created_by: str | None) -> tuple[dict[str, Any], int]:
        table, seat = await self.manager.quick_seat(game, created_by=created_by)
        return table.summary(), seat

    async def close(self, table_id: str) -> bool:
        """Close a live table; False if it is closing already. Raises TableNotFoundError."""
        return await ops.close(self.manager, table_id)

    async def kick(self, table_id: str, seat: int) -> dict[str, Any]:
        return await ops.kick(self.manager, table_id, seat)

    async def kick_player(self, player_id: str, reason: str = "kicked") -> list[str]:
        kicked = await self.manager.kick_player(player_id, reason)
        if kicked and self.manager.log is not None:  # the kicked get their table_closed first
            await self.manager.log.flush(KICK_FLUSH_SECONDS)
        return kicked

    async def inspect(self, table_id: str) -> dict[str, Any]:
        return await ops.inspect_table(self.manager, table_id)

    async def close_sockets(self, player_ids: set[str], why: str) -> int:
        """Close the open sockets of ``player_ids`` for ``why`` (``banned``: all of them;
        ``revoked``: those whose token was revoked) on every node; how many."""
        return 0 if self.on_sockets is None else await self.on_sockets(player_ids, why)

    async def admin_list(self) -> list[dict[str, Any]]:
        return (await self.admin_tables())[0]

    async def my_tables(self, player_id: str) -> tuple[list[dict[str, Any]], list[str]]:
        """Every live table where ``player_id`` holds a seat (:func:`.ops.seat_tables`),
        and the nodes that did not answer in time (none in one process)."""
        return ops.seat_tables(self.manager, player_id), []

    async def admin_tables(self) -> tuple[list[dict[str, Any]], list[str]]:
        """The admin's list: every live table's row, and the nodes that did not answer in
        time (none in one process)."""
        return [{**ops.admin_row(t), "node": None} for t in self.manager.list()], []

    async def stats(self) -> dict[str, Any]:
        return {**self.manager.stats(), "nodes": 1, "tables_by_node": None, "unreachable": []}

    def watch(self, conn: QueueConnection) -> None:
        """A new socket (nothing to note in one process)."""

    async def route(self, conn: QueueConnection, msg: Any) -> None:
        """Post a socket's table request to its table (``table.not_found`` if none)."""
        table = self.manager.get(msg.table_id)
        if table is None:
            conn.send(p.Error(code="table.not_found", message=f"no live table {msg.table_id!r}",
                              table_id=msg.table_id, request=_ref(msg)))
            return
        if isinstance(msg, p.Join):
            conn.tables.add(table.id)
        self.manager.post_request(table, conn, msg)

    async def remove_chat(self, table_id: str, chat_id: int) -> bool:
        """Remove a chat line of a live table (admin). Raises TableNotFoundError."""
        return await ops.remove_chat(self.manager, table_id, chat_id)

    async def disconnected(self, conn: QueueConnection) -> None:
        for table_id in conn.tables:
            table = self.manager.get(table_id)
            if table is not None:
                table.post(Disconnected(conn))


def _ref(msg: Any) -> p.RequestRef:
    return p.RequestRef(type=msg.type, rid=msg.rid, action_id=getattr(msg, "action_id", None))
