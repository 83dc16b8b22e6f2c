"""Every Redis key and channel of a cluster, under one prefix (``CARDHALL_REDIS_PREFIX``).

=================================  ======================================================
``<p>:lease:<table>``              the owner's node id; ``PX`` = the lease time (string)
``<p>:table:<table>``              the table's lobby summary, JSON (string, expires)
``<p>:tables``                     ids of the tables in the registry (set)
``<p>:node:<node>``                the node's heartbeat: load figures, JSON (expires)
``<p>:nodes``                      ids of the nodes that announced themselves (set)
``<p>:in:<table>``                 channel: client requests for the table, to its owner
``<p>:to:<node>``                  channel: frames for the node's sockets, RPC traffic
``<p>:events``                     channel: ``moved`` (a table has a new owner)
``<p>:auth``                       channel: player ids to drop from every identity cache
=================================  ======================================================
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Keys:
    """Key and channel names under ``prefix``."""

    prefix: str

    def lease(self, table_id: str) -> str:
        return f"{self.prefix}:lease:{table_id}"

    def summary(self, table_id: str) -> str:
        return f"{self.prefix}:table:{table_id}"

    @property
    def tables(self) -> str:
        return f"{self.prefix}:tables"

    def node(self, node_id: str) -> str:
        return f"{self.prefix}:node:{node_id}"

    @property
    def nodes(self) -> str:
        return f"{self.prefix}:nodes"

    def inbox(self, table_id: str) -> str:
        return f"{self.prefix}:in:{table_id}"

    def to_node(self, node_id: str) -> str:
        return f"{self.prefix}:to:{node_id}"

    @property
    def events(self) -> str:
        return f"{self.prefix}:events"

    @property
    def auth(self) -> str:
        return f"{self.prefix}:auth"
