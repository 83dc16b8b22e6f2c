"""Routing of a cluster node (``docs/scaling.md``, "Routing"): what arrives on the bus, and
the requests of this node's sockets, wherever their tables run.

Mixed into :class:`~.node.ClusterNode`. The owner side: ``Q``/``D`` messages on a table's
channel become requests and disconnects of the node's stand-in
:class:`~.remote.RemoteConnection` s (:meth:`Routing._on_inbox`). The holder side: a socket's
request goes to a local table or to the owner's channel (:meth:`Routing.route`), frames
coming back are handed to the sockets (:class:`~.remote.Sockets`), and a ``moved`` table is
rejoined.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import orjson
from redis.exceptions import RedisError

from ..protocol import messages as p
from ..tables.connections import QueueConnection
from ..tables.messages import Disconnected
from .remote import RESUME_RID, RemoteConnection, header

if TYPE_CHECKING:
    from ..tables.manager import TableManager
    from .bus import Bus
    from .keys import Keys
    from .remote import Peers, Sockets
    from .rpc import Rpc


class Routing:
    """The routing half of a node (see the module docstring)."""

    if TYPE_CHECKING:  # provided by ClusterNode
        id: str
        keys: Keys
        bus: Bus
        redis: Any
        rpc: Rpc
        peers: Peers
        sockets: Sockets
        manager: TableManager
        owned: dict[str, int]
        _owners: dict[str, str]

        def _chore(self, coro: Any) -> None: ...
        def _lost(self, table_id: str) -> None: ...
        def _on_attested(self, data: str) -> None: ...
        def _tell_closed(self, wire: str, table_id: str) -> None: ...

    # ----- the bus ---------------------------------------------------------------------------
    def _on_node_message(self, data: str) -> None:
        kind = data[:1]
        if kind == "F":
            self.sockets.deliver(data)
        elif kind == "R":
            self.rpc.requested(data)
        elif kind == "A":
            self.rpc.answered(data)
        elif kind == "K":
            self._on_attested(data)

    def _on_event(self, data: str) -> None:
        if not data.startswith("M "):
            return
        moved = orjson.loads(data[2:])
        table_id, node = moved["t"], moved["n"]
        if node != self.id and table_id in self.owned:
            self._lost(table_id)
        self._owners[table_id] = node
        self.sockets.rejoin(table_id)

    def _on_inbox(self, table_id: str, data: str) -> None:
        """A request or a disconnect from a socket of another node. A request of this node's
        own socket (sent before the table moved here) is served with that socket's own
        connection, never a stand-in for it (which no disconnect would remove); its disconnect is
        told to the table by :meth:`disconnected` already, or needs no telling."""
        kind, _, rest = data.partition(" ")
        head_text, _, body = rest.partition("\n")
        head = orjson.loads(head_text)
        table = self.manager.get(table_id)
        if kind == "D":
            gone = self.peers.conns.get((head["n"], head["c"]))
            if gone is None:
                return
            gone.tables.discard(table_id)
            if table is not None:
                table.post(Disconnected(gone))
            if not gone.tables:
                self.peers.forget(gone.node, gone.conn_id)
            return
        msg = p.CLIENT.validate_json(body)
        conn: QueueConnection | RemoteConnection | None
        if head["n"] == self.id:  # sent before the table moved here: served as a local one
            conn = self.sockets.local.get(head["c"])
            if conn is None or conn.closed:
                return
        else:
            conn = self.peers.connection(head)
        if table is None or table.stopped:
            if msg.rid == RESUME_RID and not isinstance(conn, RemoteConnection):
                return  # this node's own rejoin: retried, never answered as an error
            conn.send(p.Error(code="table.moving", message=f"table {table_id} is moving "
                              "to another node; retry shortly", table_id=table_id,
                              request=p.RequestRef(type=msg.type, rid=msg.rid)))
            if isinstance(conn, RemoteConnection) and not conn.tables:
                self.peers.forget(conn.node, conn.conn_id)  # the error is queued already
            return
        conn.tables.add(table_id)
        self.manager.post_request(table, conn, msg)

    # ----- the holder side -------------------------------------------------------------------
    def watch(self, conn: QueueConnection) -> None:
        """Note ``conn``'s ``joined`` answers (call once per socket)."""
        conn.observer = self.sockets.seen
        self.sockets.add(conn)

    async def route(self, conn: QueueConnection, msg: Any) -> None:
        """Send a socket's table request to the table, wherever it runs: posted to a table of
        this node, else queued for the owner's channel (one pipeline for every request of the
        loop turn, in order). A request nobody received (the table has no owner at the
        moment) is answered ``table.moving`` while the table is listed, else
        ``table.not_found``.

        ``conn.tables`` gets the table of a local ``join``, and of every request sent to a
        remote owner (a ``resync`` or ``act`` without a ``join`` too): the owner keeps a
        stand-in connection for each remote socket that sent it anything, which only the
        ``D`` sent for each of ``conn.tables`` at :meth:`disconnected` lets it forget. A
        request for a table nobody knows takes its table out again (no ``D`` to send for
        made-up table ids)."""
        table = self.manager.get(msg.table_id)
        if table is not None and not table.stopped and msg.table_id in self.owned:
            if isinstance(msg, p.Join):
                conn.tables.add(msg.table_id)
            self.manager.post_request(table, conn, msg)
            return
        data = f"Q {header(self.id, self.sockets.wire_id(conn), conn)}\n{msg.model_dump_json()}"
        conn.tables.add(msg.table_id)
        self.bus.publish(self.keys.inbox(msg.table_id), data,
                         unheard=lambda: self._chore(self._unheard(conn, msg)))

    async def _unheard(self, conn: QueueConnection, msg: Any) -> None:
        """Answer a request that reached no owner."""
        try:
            listed = await self.redis.exists(self.keys.summary(msg.table_id))
        except RedisError:
            listed = True  # Redis is away: the table may well exist; retrying is right
        if getattr(msg, "rid", None) == RESUME_RID:  # a rejoin: never answered as an error
            if not listed:
                self._tell_closed(self.sockets.wire_id(conn), msg.table_id)
            return  # moving: the moved event, or the watch's next renewal, rejoins
        if not listed:
            conn.tables.discard(msg.table_id)
        ref = p.RequestRef(type=msg.type, rid=msg.rid, action_id=getattr(msg, "action_id", None))
        if listed:
            conn.send(p.Error(code="table.moving", message=f"table {msg.table_id} is moving to "
                              "another node; retry shortly", table_id=msg.table_id, request=ref))
        else:
            conn.send(p.Error(code="table.not_found", message=f"no live table {msg.table_id!r}",
                              table_id=msg.table_id, request=ref))

    def _rejoin(self, conn: QueueConnection, msg: Any) -> None:
        self._chore(self.route(conn, msg))

    async def disconnected(self, conn: QueueConnection) -> None:
        """The socket went: every table it joined is told, wherever it runs."""
        for table_id in conn.tables:
            table = self.manager.get(table_id)
            if table is not None and table_id in self.owned:
                table.post(Disconnected(conn))
            else:
                self.bus.publish(self.keys.inbox(table_id),
                                 f"D {header(self.id, self.sockets.wire_id(conn), conn)}")
        self.sockets.remove(conn)
