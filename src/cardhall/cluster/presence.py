"""The shared registry a node writes and reads: table summaries and node heartbeats.

The registry half of ``docs/scaling.md`` ("Registry"): every tick the owner writes the lobby
summary of each of its tables whose summary changed (``<p>:table:<id>``, expiring after three
lease times, and the id into ``<p>:tables``) and its heartbeat (``<p>:node:<id>``: tables and
sockets, expiring after two lease times). Reading the heartbeats tells which nodes live, and
which restarted (a new incarnation): their sockets are gone.

Split out of :mod:`.node`, which owns one :class:`Presence` (composition, like
:class:`~.failover.Failover`); nothing here holds a lease.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Protocol

import orjson

from ..tables.messages import Disconnected

if TYPE_CHECKING:
    from ..tables.manager import TableManager
    from .failover import Failover
    from .keys import Keys
    from .remote import Peers, Sockets


class PresenceNode(Protocol):
    """What :class:`Presence` needs of its node (:class:`~.node.ClusterNode`)."""

    id: str
    incarnation: str
    keys: Keys
    redis: Any
    manager: TableManager
    owned: dict[str, int]
    ttl_ms: int
    sockets: Sockets
    peers: Peers
    failover: Failover

    def _forget_node(self, node: str) -> None: ...


class Presence:
    """Summaries and heartbeats of one node (see the module docstring).

    Args:
        node: the node whose tables and sockets are published (its ``redis``, ``keys``,
            ``manager``, ``owned``, ``ttl_ms``, ``sockets``, ``peers``).
    """

    def __init__(self, node: PresenceNode) -> None:
        self.node = node
        self._written: dict[str, bytes] = {}
        """The summary text last written of each owned table (skip unchanged ones)."""
        self._incarnations: dict[str, str] = {}
        """The last incarnation seen in each node's heartbeat."""

    def forget(self, table_id: str) -> None:
        """The table's lease is given up: its next summary is written in full."""
        self._written.pop(table_id, None)

    async def publish_summaries(self, only: str | None = None) -> None:
        """Write the summaries that changed (or ``only`` that table's), refreshing the rest.

        A refresh that finds its key gone (Redis restarted, or the key expired during a pause)
        writes the summary again, and the table back into ``<p>:tables``: an idle table's
        summary never changes, and it would stay out of the lobby (and of the table quota,
        quick seat, ``table.moving``) for as long as it lives."""
        node, keys = self.node, self.node.keys
        ttl = 3 * node.ttl_ms
        refreshed: list[tuple[int, str, bytes]] = []  # (its PEXPIRE's answer, table, text)
        n = 0
        async with node.redis.pipeline(transaction=False) as pipe:
            for table in node.manager.list():
                if table.id not in node.owned or (only is not None and table.id != only):
                    continue
                text = orjson.dumps({**table.summary(), "node": node.id})
                key = keys.summary(table.id)
                if self._written.get(table.id) != text:
                    self._written[table.id] = text
                    pipe.set(key, text, px=ttl)
                    pipe.sadd(keys.tables, table.id)
                    n += 2
                else:
                    pipe.pexpire(key, ttl)
                    refreshed.append((n, table.id, text))
                    n += 1
            results = await pipe.execute()
        lost = [(t, text) for i, t, text in refreshed if not results[i]]
        if lost:
            async with node.redis.pipeline(transaction=False) as pipe:
                for table_id, text in lost:
                    pipe.set(keys.summary(table_id), text, px=ttl)
                    pipe.sadd(keys.tables, table_id)
                await pipe.execute()

    def load(self) -> dict[str, Any]:
        """This node's load figures (its heartbeat): ``{"node", "incarnation", "tables",
        "sockets", "owned"}`` (counts)."""
        node = self.node
        return {"node": node.id, "incarnation": node.incarnation,
                "tables": len(node.manager.tables),
                "sockets": len(node.sockets.local), "owned": len(node.owned)}

    async def heartbeat(self) -> None:
        """Write this node's heartbeat (expiring after two lease times) and list the node."""
        node = self.node
        await node.redis.set(node.keys.node(node.id), orjson.dumps(self.load()),
                             px=2 * node.ttl_ms)
        await node.redis.sadd(node.keys.nodes, node.id)

    async def nodes(self) -> list[dict[str, Any]]:
        """The live nodes' heartbeats (:meth:`load` of each); dead ones are dropped from the
        set and their sockets forgotten, a restarted one's old sockets too."""
        node = self.node
        ids = sorted(await node.redis.smembers(node.keys.nodes))
        beats = await node.redis.mget([node.keys.node(n) for n in ids]) if ids else []
        live = []
        for name, beat in zip(ids, beats, strict=True):
            if beat is None:
                if asyncio.get_running_loop().time() < node.failover.grace_until:
                    continue  # Redis just came back: its heartbeat may not be written yet
                await node.redis.srem(node.keys.nodes, name)
                self._incarnations.pop(name, None)
                self._sockets_gone(name)
                continue
            load = orjson.loads(beat)
            live.append(load)
            if self._incarnations.get(name, load["incarnation"]) != load["incarnation"]:
                self._sockets_gone(name, keep=load["incarnation"])  # it restarted
            self._incarnations[name] = load["incarnation"]
        return live

    def _sockets_gone(self, name: str, keep: str | None = None) -> None:
        """The sockets of node ``name`` (of its other incarnations than ``keep``) are gone."""
        node = self.node
        node._forget_node(name)
        for conn in node.peers.of_node(name, keep):
            for table_id in conn.tables:
                table = node.manager.get(table_id)
                if table is not None:
                    table.post(Disconnected(conn))
