"""The cluster's hall (``CARDHALL_REDIS_URL`` set): :class:`ClusterHall` extends the one-process
:class:`~cardhall.hall.local.LocalHall` (the default) to answer from the shared registry and
send what changes a table to the table's owner (``docs/scaling.md``). Both give the same
shapes: a table is its lobby summary (``Table.summary()``), the admin's answers are those of
``hall/ops.py``.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import orjson
from redis.exceptions import RedisError

from ..engine import get_game
from ..hall import ops
from ..hall.local import LocalHall, pick_quick_seat
from ..tables.connections import QueueConnection
from ..tables.errors import TableNotFoundError, TableQuotaError
from ..tables.lobby import Key, lobby_row, page, summary_key
from ..tables.manager import TableManager
from .node import ClusterNode
from .rpc import ClusterUnavailableError

log = logging.getLogger(__name__)

ADMIN_FANOUT_SECONDS = 1.0
"""How long the admin's list and stats wait for each node (at most the cluster's request
timeout): a node that does not answer by then is named ``unreachable``, its tables left out."""

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
        live = [s for s in summaries if s["status"] != "finished"]  # a match over: not live
        chosen, last = page(live, summary_key, limit, after)
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
