"""Both ends of a socket whose table runs on another node (``docs/scaling.md``).

**Wire format.** Every bus message is text. A client request travelling to the table's owner
on ``<p>:in:<table>`` is ``Q <header JSON>`` + newline + the request's JSON; a socket that
went away is ``D <header JSON>``. The header names the socket: ``{"n": holder node, "c":
connection id, "p": [player id, name, is_bot, owner_id]}``. Frames travelling back to the
holder on ``<p>:to:<node>`` are ``F`` + newline + one line per frame, ``<connection id>
<frame JSON>`` (JSON text never holds a raw newline), every frame the owner made for that
node in one loop turn in one message.

**Redaction** happens where the table runs: the owner's table sends to a
:class:`RemoteConnection` exactly what it would send to a local socket of that seat, already
encoded; the holder only forwards the text.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

import orjson

from ..protocol import messages as p
from ..protocol.frames import RawFrame
from ..storage.interface import PlayerRecord
from ..tables.connections import Outgoing, QueueConnection, encode
from .bus import Bus
from .keys import Keys

log = logging.getLogger(__name__)

RESUME_RID = "cluster.resume"
"""The ``rid`` of the ``join`` a holder sends for its socket when the socket's table moved to
another node; the answering ``joined`` is not forwarded (the client sees only the full state,
as after a short pause)."""


def _moving_resume(text: str) -> bool:
    """Whether an ``error`` frame refuses a rejoin (:data:`RESUME_RID`) as ``table.moving``:
    never forwarded (the client sent no such ``join``; the rejoin is retried)."""
    data = orjson.loads(text)
    return bool(data.get("code") == "table.moving"
                and (data.get("request") or {}).get("rid") == RESUME_RID)


def header(node: str, conn_id: str, conn: QueueConnection) -> str:
    """The header naming socket ``conn`` of node ``node`` as ``conn_id`` (see the module
    docstring)."""
    pl = conn.player
    return orjson.dumps({"n": node, "c": conn_id,
                         "p": [pl.id, pl.name, pl.is_bot, pl.owner_id]}).decode()


class RemoteConnection:
    """The owner's side of a socket held by node ``node``: what a table sends to it is
    queued for that node (:meth:`Peers.push`)."""

    def __init__(self, node: str, conn_id: str, player: PlayerRecord, peers: Peers) -> None:
        self.id = f"{node}/{conn_id}"
        self.node = node
        self.conn_id = conn_id
        self.player = player
        self._peers = peers
        self._closed = False
        self.tables: set[str] = set()

    @property
    def closed(self) -> bool:
        return self._closed

    def send(self, msg: Outgoing) -> None:
        if not self._closed:
            self._peers.push(self.node, self.conn_id, encode(msg))

    def close(self) -> None:
        self._closed = True


class Peers:
    """The owner's registry of remote sockets, and the per-node frame batches.

    Every remote socket is one :class:`RemoteConnection` object, whatever table it joins here
    (tables compare connections by identity).
    """

    def __init__(self, bus: Bus, keys: Keys) -> None:
        self.bus = bus
        self.keys = keys
        self.conns: dict[tuple[str, str], RemoteConnection] = {}
        self._pending: dict[str, list[str]] = {}
        self._scheduled = False
        self.frames = 0

    def connection(self, head: dict[str, Any]) -> RemoteConnection:
        """The connection named by a request ``head`` (made on first sight)."""
        key = (head["n"], head["c"])
        conn = self.conns.get(key)
        pid, name, is_bot, owner = head["p"]
        if conn is None:
            conn = self.conns[key] = RemoteConnection(
                key[0], key[1], PlayerRecord(pid, name, bool(is_bot), False, owner), self)
        return conn

    def forget(self, node: str, conn_id: str) -> RemoteConnection | None:
        conn = self.conns.pop((node, conn_id), None)
        if conn is not None:
            conn.close()
        return conn

    def of_node(self, node: str, keep: str | None = None) -> list[RemoteConnection]:
        """Forget and return every socket of ``node`` (it died), or of its incarnations other
        than ``keep`` (it restarted under the same name)."""
        gone = [c for (n, cid), c in self.conns.items()
                if n == node and (keep is None or not cid.endswith(f".{keep}"))]
        for conn in gone:
            self.forget(conn.node, conn.conn_id)
        return gone

    def push(self, node: str, conn_id: str, text: str) -> None:
        self._pending.setdefault(node, []).append(f"{conn_id} {text}")
        self.frames += 1
        if not self._scheduled:
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        self._scheduled = False
        pending, self._pending = self._pending, {}
        for node, lines in pending.items():
            self.bus.publish(self.keys.to_node(node), "F\n" + "\n".join(lines))


class Sockets:
    """The holder's side: the node's sockets that joined tables of other nodes, and what each
    needs to rejoin its table when the table moves (the seat token from its ``joined``).

    Args:
        route: how to send a rejoin (the hall's request path).
    """

    def __init__(self, route: Callable[[QueueConnection, Any], Any], incarnation: str) -> None:
        self.incarnation = incarnation
        """Random per process: a socket's wire id is ``<connection id>.<incarnation>``, so a
        node restarted under the same name never gets the frames of its old sockets (their
        connection ids start again at ``c1``)."""
        self.local: dict[str, QueueConnection] = {}
        self.roles: dict[tuple[str, str], tuple[str, int | None, str | None]] = {}
        """``(wire id, table id) -> (role, seat, seat token)`` from the latest ``joined``; gone
        at a ``left`` or a ``table_closed`` (kicked, or the table closed: nothing to resume)."""
        self.unanswered: dict[tuple[str, str], float] = {}
        """``(wire id, table id) -> when`` (``time.monotonic()``) the latest rejoin of that
        socket was sent, while no ``joined`` has answered it here. An answer can be lost (the
        subscriber was away when the owner sent it): ``cluster/watch.py`` sends the rejoin
        again, so a socket counts as re-attached only once its full state reached it."""
        self._route = route

    def wire_id(self, conn: QueueConnection) -> str:
        return f"{conn.id}.{self.incarnation}"

    def add(self, conn: QueueConnection) -> None:
        self.local[self.wire_id(conn)] = conn

    def remove(self, conn: QueueConnection) -> None:
        wire = self.wire_id(conn)
        self.local.pop(wire, None)
        for key in [k for k in self.roles if k[0] == wire]:
            del self.roles[key]
            self.unanswered.pop(key, None)

    def left(self, conn: QueueConnection, table_id: str) -> None:
        self.roles.pop((self.wire_id(conn), table_id), None)
        self.unanswered.pop((self.wire_id(conn), table_id), None)

    def deliver(self, data: str) -> None:
        """An ``F`` message: hand each frame to its socket (and note ``joined`` answers)."""
        lines = data.split("\n")
        for line in lines[1:]:
            conn_id, _, text = line.partition(" ")
            conn = self.local.get(conn_id)
            if conn is None:
                continue
            if text.startswith('{"type":"joined"') and self._joined(conn, text):
                continue
            if text.startswith('{"type":"error"') and _moving_resume(text):
                continue  # a rejoin met a table between owners: the next one is due anyway
            if text.startswith(('{"type":"left"', '{"type":"table_closed"')):
                self.left(conn, orjson.loads(text)["table_id"])
            conn.send(RawFrame(text))

    def seen(self, conn: QueueConnection, msg: Outgoing) -> bool:
        """A local table's message to ``conn`` (noted like a remote ``joined``, ``left`` or
        ``table_closed``; the
        :attr:`~cardhall.tables.connections.QueueConnection.observer` of every socket).
        True for the answer to a rejoin (dropped)."""
        if isinstance(msg, p.Joined):
            self._note(conn, msg.table_id, msg.role, msg.seat, msg.seat_token)
            return msg.rid == RESUME_RID
        if isinstance(msg, p.Left | p.TableClosed):
            self.left(conn, msg.table_id)
        return False

    def _joined(self, conn: QueueConnection, text: str) -> bool:
        """Note a ``joined``; True when it answers a rejoin (not forwarded). The table joins
        ``conn.tables`` (the owner may seat a socket at a table it never sent a request for:
        a ``rematch``), so the socket's disconnect reaches it."""
        data = orjson.loads(text)
        conn.tables.add(data["table_id"])
        self._note(conn, data["table_id"], data["role"], data.get("seat"),
                   data.get("seat_token"))
        return bool(data.get("rid") == RESUME_RID)

    def _note(self, conn: QueueConnection, table_id: str, role: str, seat: int | None,
              token: str | None) -> None:
        self.roles[(self.wire_id(conn), table_id)] = (role, seat, token)
        self.unanswered.pop((self.wire_id(conn), table_id), None)  # the full state follows

    def rejoin(self, table_id: str, only: str | None = None) -> int:
        """The table moved (or its owner no longer lists the socket, ``cluster/watch.py``):
        send a ``join`` for each socket that had joined it (only the one of wire id ``only``
        when given): resume by seat token, or watch again. Each is :attr:`unanswered` until
        its ``joined`` comes. Returns how many."""
        n = 0
        for (conn_id, t), (role, seat, token) in list(self.roles.items()):
            conn = self.local.get(conn_id)
            if t != table_id or conn is None or conn.closed or only not in (None, conn_id):
                continue
            if role == "seat" and token is not None:
                msg = p.Join(type="join", table_id=t, seat=seat, seat_token=token, rid=RESUME_RID)
            else:
                msg = p.Join(type="join", table_id=t, spectate=True, rid=RESUME_RID)
            self._route(conn, msg)
            self.unanswered[(conn_id, t)] = time.monotonic()
            n += 1
        return n
