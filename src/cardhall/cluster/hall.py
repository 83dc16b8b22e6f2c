"""The hall: what the REST routes and the WebSocket handler ask, one process or a cluster.

:class:`LocalHall` is the embedded default: the process's own
:class:`~cardhall.tables.manager.TableManager` answers everything. :class:`ClusterHall`
(``CARDHALL_REDIS_URL`` set) answers from the shared registry and sends what changes a table
to the table's owner (``docs/scaling.md``). Both give the same shapes: a table is its lobby
summary (``Table.summary()``), the admin's answers are those of :mod:`.ops`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import orjson
from redis.exceptions import RedisError

from ..engine import get_game
from ..protocol import messages as p
from ..tables.connections import QueueConnection
from ..tables.errors import TableNotFoundError, TableQuotaError
from ..tables.lobby import Key, lobby_row, page, summary_key, table_key
from ..tables.manager import TableManager
from ..tables.messages import Disconnected
from . import ops
from .node import ClusterNode
from .ops import KICK_FLUSH_SECONDS
from .rpc import ClusterUnavailableError

log = logging.getLogger(__name__)

ADMIN_FANOUT_SECONDS = 1.0
"""How long the admin's list and stats wait for each node (at most the cluster's request
timeout): a node that does not answer by then is named ``unreachable``, its tables left out."""

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

    cluster: ClusterNode | None = None

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
        page). Only the page's tables are summarized."""
        tables = [t for t in self.manager.list(game) if not t.spec.private]
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


class ClusterHall(LocalHall):
    """Many processes: the registry lists, the owner acts (see the module docstring)."""

    def __init__(self, manager: TableManager, node: ClusterNode) -> None:
        super().__init__(manager)
        self.cluster = node
        self.node = node

    async def summaries(self, game: str | None = None) -> list[dict[str, Any]]:
        """Every node's tables from the registry; only this node's while Redis does not
        answer (a partial lobby beats none)."""
        try:
            return await self._registry(game)
        except RedisError as exc:
            log.warning("lobby from this node only: Redis did not answer (%s)", exc)
            return await super().summaries(game)

    async def lobby(self, game: str | None, limit: int, after: Key | None,
                    full: bool = False) -> tuple[list[dict[str, Any]], Key | None]:
        """One page of every node's lobby from the registry (:meth:`LocalHall.lobby`); this
        node's only while Redis does not answer."""
        try:
            summaries = await self._registry(game)
        except RedisError as exc:
            log.warning("lobby from this node only: Redis did not answer (%s)", exc)
            return await super().lobby(game, limit, after, full)
        chosen, last = page(summaries, summary_key, limit, after)
        return [s if full else lobby_row(s) for s in chosen], last

    async def _registry(self, game: str | None) -> list[dict[str, Any]]:
        redis, keys = self.node.redis, self.node.keys
        ids = sorted(await redis.smembers(keys.tables))
        docs = await redis.mget([keys.summary(t) for t in ids]) if ids else []
        gone = [t for t, d in zip(ids, docs, strict=True) if d is None]
        if gone:
            await redis.srem(keys.tables, *gone)
        out = [orjson.loads(d) for d in docs if d is not None]
        out = [s for s in out if (game is None or s["game"] == game) and s["status"] != "closed"
               and not s.get("private")]
        return sorted(out, key=lambda s: (s["created_at"], s["id"]))

    async def summary(self, table_id: str) -> dict[str, Any] | None:
        try:
            doc = await self.node.redis.get(self.node.keys.summary(table_id))
        except RedisError:
            return await super().summary(table_id)
        return None if doc is None else dict(orjson.loads(doc))

    async def create(self, game: str, **kwargs: Any) -> dict[str, Any]:
        """Create the table on the least-loaded live node (this one on a tie).

        When that node does not answer in time (it died a moment ago: its heartbeat lives on
        for up to two leases, and a dead node's load looks lightest), the table is made here
        instead of failing every create of the hall meanwhile. Should the other node have
        made it after all (only its answer lost), that one is an empty table its idle timer
        closes."""
        self.manager.spec_for(game, **{k: v for k, v in kwargs.items()
                                       if k not in ("created_by", "created_from")})
        await self._check_quota(kwargs.get("created_by"))
        target = await self._least_loaded()
        if target != self.node.id:
            args = dict(kwargs)
            if args.get("bots") is not None:
                args["bots"] = {str(k): v for k, v in args["bots"].items()}
            try:
                result: dict[str, Any] = await self.node.rpc.call(target, "create", game=game,
                                                                  **args)
                return result
            except ClusterUnavailableError as exc:
                log.warning("cluster: %s; creating the table here", exc)
        out = await ops.create(self.manager, {"game": game, **kwargs})
        await self.node.publish_summaries(only=out["id"])
        return out

    async def _least_loaded(self) -> str:
        loads = {n["node"]: n["tables"] for n in await self.node.nodes()}
        loads[self.node.id] = len(self.manager.tables)
        return min(loads, key=lambda n: (loads[n], n != self.node.id, n))

    async def _check_quota(self, created_by: str | None) -> None:
        """``max_live_tables_per_player`` over the whole cluster."""
        most = self.manager.settings.max_live_tables_per_player
        if created_by is None:
            return
        mine = sum(1 for s in await self.summaries() if s.get("created_by") == created_by)
        if mine >= most:
            raise TableQuotaError(f"player {created_by} already has {mine} live tables "
                                  f"(max_live_tables_per_player={most}); leave or finish one")

    async def quick_seat(self, game: str, *, created_by: str | None) -> tuple[dict[str, Any], int]:
        found = pick_quick_seat(await self.summaries(game))
        if found is not None:
            return found
        seats = get_game(game).min_seats
        out = await self.create(game, created_by=created_by,
                                bots={s: "rule" for s in range(1, seats)})
        return out, 0

    async def _owner(self, table_id: str) -> str:
        owner: str | None = await self.node.redis.get(self.node.keys.lease(table_id))
        if owner is None:
            raise TableNotFoundError(f"no live table {table_id!r}")
        return owner

    async def _at_owner(self, table_id: str, op: str, **args: Any) -> Any:
        owner = await self._owner(table_id)
        if owner == self.node.id:
            return await self.node.rpc.ops[op]({"table_id": table_id, **args})
        return await self.node.rpc.call(owner, op, table_id=table_id, **args)

    async def close(self, table_id: str) -> bool:
        return bool(await self._at_owner(table_id, "close"))

    async def kick(self, table_id: str, seat: int) -> dict[str, Any]:
        result: dict[str, Any] = await self._at_owner(table_id, "kick", seat=seat)
        return result

    async def inspect(self, table_id: str) -> dict[str, Any]:
        result: dict[str, Any] = await self._at_owner(table_id, "inspect")
        return result

    async def remove_chat(self, table_id: str, chat_id: int) -> bool:
        return bool(await self._at_owner(table_id, "remove_chat", chat_id=chat_id))

    async def _answering(self, op: str, **args: Any) -> tuple[list[Any], list[str]]:
        """``op(args)`` on every live node at once, each given :data:`ADMIN_FANOUT_SECONDS`: the
        answers of those that answered in time, and the names of those that did not (a
        stopped node costs one second, not a 503).

        Raises:
            Any error of a node other than not answering (the first).
        """
        names = sorted({n["node"] for n in await self.node.nodes()} | {self.node.id})
        wait = min(ADMIN_FANOUT_SECONDS, self.node.rpc.timeout_seconds)

        async def one(name: str) -> Any:
            if name == self.node.id:
                return await self.node.rpc.ops[op](args)
            return await self.node.rpc.call(name, op, timeout=wait, **args)

        results = await asyncio.gather(*(one(n) for n in names), return_exceptions=True)
        for r in results:
            if isinstance(r, BaseException) and not isinstance(r, ClusterUnavailableError):
                raise r
        missing = [n for n, r in zip(names, results, strict=True)
                   if isinstance(r, ClusterUnavailableError)]
        if missing:
            log.warning("cluster: node %s did not answer %s within %.1f s; left out",
                        ", ".join(missing), op, wait)
        return [r for r in results if not isinstance(r, BaseException)], missing

    async def _everywhere(self, op: str, **args: Any) -> list[Any]:
        """``op`` on every live node (this one always), all at once: a node that does not
        answer costs one request timeout, not one per node, and never keeps ``op`` from the
        nodes after it (a ban still kicks the player's seats on every node that answers).

        Raises:
            ClusterUnavailableError: naming the nodes that did not answer, once every other
            node did its part. Any other error of a node (the first).
        """
        names = sorted({n["node"] for n in await self.node.nodes()} | {self.node.id})

        async def one(name: str) -> Any:
            if name == self.node.id:
                return await self.node.rpc.ops[op](args)
            return await self.node.rpc.call(name, op, **args)

        results = await asyncio.gather(*(one(n) for n in names), return_exceptions=True)
        missing = [n for n, r in zip(names, results, strict=True)
                   if isinstance(r, ClusterUnavailableError)]
        for r in results:
            if isinstance(r, BaseException) and not isinstance(r, ClusterUnavailableError):
                raise r
        if missing:
            raise ClusterUnavailableError(
                f"node {', '.join(missing)} did not answer {op} within "
                f"{self.node.rpc.timeout_seconds} s (every other node did)")
        return list(results)

    async def kick_player(self, player_id: str, reason: str = "kicked") -> list[str]:
        kicked: list[str] = []
        for part in await self._everywhere("kick_player", player_id=player_id, reason=reason,
                                           close_sockets=reason == "banned"):
            kicked.extend(part)
        return kicked

    async def close_sockets(self, player_ids: set[str], why: str) -> int:
        """:meth:`LocalHall.close_sockets` on every live node, the way a ban's closes go
        (:meth:`_everywhere`; raises ``ClusterUnavailableError`` naming a node that did not
        answer, once every other node did its part)."""
        parts = await self._everywhere("close_sockets", player_ids=sorted(player_ids), why=why)
        return sum(int(n) for n in parts)

    async def admin_tables(self) -> tuple[list[dict[str, Any]], list[str]]:
        """Every answering node's tables, and the nodes that did not answer within
        :data:`ADMIN_FANOUT_SECONDS`."""
        parts, missing = await self._answering("admin_list")
        rows: list[dict[str, Any]] = []
        for part in parts:
            rows.extend(part)
        return rows, missing

    async def my_tables(self, player_id: str) -> tuple[list[dict[str, Any]], list[str]]:
        """:meth:`LocalHall.my_tables` of every answering node (the admin list's fan-out,
        :meth:`_answering`), oldest first, and the nodes left out."""
        parts, missing = await self._answering("my_tables", player_id=player_id)
        rows = [row for part in parts for row in part]
        return sorted(rows, key=lambda r: (r["created_at"], r["id"])), missing

    async def stats(self) -> dict[str, Any]:
        """The answering nodes' figures added up; ``unreachable``: the nodes left out."""
        parts, missing = await self._answering("stats")
        total: dict[str, Any] = {"tables_by_status": {}, "nodes": len(parts),
                                 "tables_by_node": {}, "unreachable": missing}
        for s in parts:
            for key, value in s.items():
                if isinstance(value, dict):
                    for name, n in value.items():
                        total[key][name] = total[key].get(name, 0) + n
                elif key != "unreachable":
                    total[key] = total.get(key, 0) + value
        return total

    def watch(self, conn: QueueConnection) -> None:
        self.node.watch(conn)

    async def route(self, conn: QueueConnection, msg: Any) -> None:
        """:meth:`ClusterNode.route` (which notes the socket's tables)."""
        await self.node.route(conn, msg)

    async def disconnected(self, conn: QueueConnection) -> None:
        await self.node.disconnected(conn)


Hall = LocalHall
"""The interface (:class:`ClusterHall` is a :class:`LocalHall` with every method answered
over the cluster)."""
