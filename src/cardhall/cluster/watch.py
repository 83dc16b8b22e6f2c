"""No socket left stranded (``docs/scaling.md``, "Faults"): each node checks that every socket
of its own attached to a table of another node is still attached there, and re-attaches it
(a ``join`` by seat token: the owner answers a full state) or tells it ``table_closed``.

Mixed into :class:`~.node.ClusterNode`.

**Attestations.** Every renewal (a third of the lease) the owner of a table sends each node
holding sockets at its tables a ``K`` message on ``<p>:to:<node>``: ``K {"n": owner, "t":
{table id: [wire ids of that node's sockets attached there]}}``, and an empty one (``"t":
{}``) to a node whose sockets it has just counted gone (its heartbeat expired), for three
leases. The holder notes, per (socket, table), when its table's owner last listed it
(:attr:`Watch._attested`).

**Re-attach.** At each renewal the holder re-attaches every socket at a remote table that
its owner has not listed for one lease, or that the last ``K`` of that owner left out, or
whose last rejoin got no ``joined`` answer here within a lease
(:attr:`~.remote.Sockets.unanswered`), at most once a lease per socket. It re-attaches every
such socket at once after a fault of its own: the first renewal that succeeds after failed
ones (its Redis link was down), a renewal that comes more than a lease after the one before
(the process was paused, SIGSTOP, or its loop blocked), and the first bus message after the
subscriber lost its connection (messages were lost). A table with no owner and no registry
entry any more (it closed meanwhile) is told ``table_closed`` (reason ``closed``, version 0)
instead; one with a registry entry but no owner (moving) is left to the ``moved`` event and
the next renewal.

**Only when the answer can arrive.** The owner answers a rejoin on this node's channel,
which only a reading subscriber hears. After a Redis cut the node's commands often work again
before its subscriber has reconnected (it retries every half second): a rejoin sent then is
answered to nobody, and the owner, which now has the socket attached, lists it in its ``K``.
So nothing is re-attached while the subscriber is not reading (:attr:`~.bus.Bus.listening`;
the fault stays due, and the read that ends the gap is a fault too), a fault makes the
rejoins still unanswered due again at once (not held back by "once a lease"), and a rejoin
counts as done only when its ``joined`` came back, not when the owner lists the socket.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from typing import TYPE_CHECKING, Any

import orjson

from ..protocol import messages as p

if TYPE_CHECKING:
    from .bus import Bus
    from .keys import Keys
    from .remote import Peers, Sockets

log = logging.getLogger(__name__)

FORGOTTEN_LEASES = 3
"""Leases during which an owner still sends an empty ``K`` to a node whose sockets it counted
gone (so that node learns it at once when it comes back)."""


class Watch:
    """The attachment watch of a node (see the module docstring)."""

    if TYPE_CHECKING:  # provided by ClusterNode
        id: str
        keys: Keys
        bus: Bus
        redis: Any
        peers: Peers
        sockets: Sockets
        owned: dict[str, int]
        settings: Any

    def _init_watch(self) -> None:
        self._attested: dict[tuple[str, str], float] = {}
        """(wire id, table id) -> when the table's owner last listed the socket (loop time;
        ``-inf``: its last ``K`` left it out). A socket not in it yet (it joined just now) is
        given a lease from the renewal that first sees it."""
        self._reattached: dict[tuple[str, str], float] = {}
        """(wire id, table id) -> when it was last re-attached (at most once a lease)."""
        self._forgotten: dict[str, float] = {}
        """Owner side: node -> until when it gets an empty ``K`` (its sockets counted gone)."""
        self._reattach_due: str | None = None
        """Why every remote socket is to be re-attached at the next renewal (a fault here)."""
        self.reattached = 0
        """Sockets re-attached or told ``table_closed`` by the watch (a counter)."""

    # ----- the owner's side ----------------------------------------------------------------
    def _attest(self) -> None:
        """Send each holding node its ``K`` (see the module docstring)."""
        now = asyncio.get_running_loop().time()
        by_node: dict[str, dict[str, list[str]]] = {}
        for (node, conn_id), conn in self.peers.conns.items():
            for table_id in conn.tables:
                if table_id in self.owned:
                    by_node.setdefault(node, {}).setdefault(table_id, []).append(conn_id)
        for node, until in list(self._forgotten.items()):
            if until < now:
                del self._forgotten[node]
            else:
                by_node.setdefault(node, {})
        for node, tables in by_node.items():
            self.bus.publish(self.keys.to_node(node),
                             "K " + orjson.dumps({"n": self.id, "t": tables}).decode())

    def _forget_node(self, node: str) -> None:
        """``node``'s sockets were counted gone here: tell it so for a while."""
        lease = self.settings.lease_seconds
        self._forgotten[node] = asyncio.get_running_loop().time() + FORGOTTEN_LEASES * lease

    # ----- the holder's side ---------------------------------------------------------------
    def _on_attested(self, data: str) -> None:
        """A ``K`` from an owner: note the sockets it lists; mark those it left out at tables
        it owns (as this node last saw them) as not listed (``-inf``: due at once)."""
        body = orjson.loads(data[2:])
        owner, tables = body["n"], body["t"]
        now = asyncio.get_running_loop().time()
        for table_id, wires in tables.items():
            for wire in wires:
                self._attested[(wire, table_id)] = now
        owners: dict[str, str] = getattr(self, "_owners", {})
        for key in [k for k in self._attested if k[0] not in tables.get(k[1], ())]:
            if owners.get(key[1]) == owner or key[1] in tables:
                self._attested[key] = -math.inf

    def _fault_here(self, why: str) -> None:
        """This node had a fault: re-attach every remote socket at the next renewal, those
        whose rejoin is still unanswered too (its answer may be what the fault lost)."""
        if self._reattach_due is None:
            self._reattach_due = why
        for key in self.sockets.unanswered:
            self._reattached.pop(key, None)

    async def _watch_remote(self, holders: dict[str, str | None]) -> None:
        """At a renewal: re-attach (or tell) the sockets that need it. ``holders``: lease
        holder of each remote table this node's sockets sit at (``None``: nobody's)."""
        closed: list[str] = []
        missing = [t for t, h in holders.items() if h is None]
        if missing:
            listed = await self.redis.mget([self.keys.summary(t) for t in missing])
            closed = [t for t, doc in zip(missing, listed, strict=True) if doc is None]
        if not self.bus.listening:
            return  # answers would reach nobody: the gap's end is a fault, re-attaching all
        now, lease = asyncio.get_running_loop().time(), self.settings.lease_seconds
        clock = time.monotonic()  # the clock of Sockets.unanswered
        everything, self._reattach_due = self._reattach_due, None
        due = 0
        for (wire, table_id) in list(self.sockets.roles):
            holder = holders.get(table_id, self.id)
            if holder == self.id:
                continue  # a table of this node (or not remote any more)
            key = (wire, table_id)
            if table_id in closed:
                self._tell_closed(wire, table_id)
                due += 1
                continue
            if holder is None:
                continue  # moving: the moved event (or the next renewal) rejoins
            fresh = now - self._attested.setdefault(key, now) < lease
            recent = now - self._reattached.get(key, -lease) < lease
            sent = self.sockets.unanswered.get(key)
            lost = sent is not None and clock - sent >= lease  # its answer never came
            if recent or (everything is None and fresh and not lost):
                continue
            self._reattached[key] = now
            self._attested[key] = now  # the owner's next K says whether it took
            due += self.sockets.rejoin(table_id, only=wire)
        for key in [k for k in self._reattached if k not in self.sockets.roles]:
            del self._reattached[key]
        for key in [k for k in self._attested if k not in self.sockets.roles]:
            del self._attested[key]
        for key in [k for k in self.sockets.unanswered if k not in self.sockets.roles]:
            del self.sockets.unanswered[key]
        if due:
            self.reattached += due
            log.info("cluster: re-attached %d sockets at tables of other nodes (%s)", due,
                     everything or "their owner stopped listing them, or no answer came")

    def _tell_closed(self, wire: str, table_id: str) -> None:
        """The table is gone: tell the socket ``table_closed`` (nothing to resume)."""
        conn = self.sockets.local.get(wire)
        self.sockets.roles.pop((wire, table_id), None)
        if conn is not None and not conn.closed:
            conn.tables.discard(table_id)
            conn.send(p.TableClosed(type="table_closed", table_id=table_id, version=0,
                                    reason="closed"))
