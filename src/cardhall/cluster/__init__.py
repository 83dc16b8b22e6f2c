"""Cluster mode: several cardhall processes acting as one hall over Redis (``docs/scaling.md``).

Enabled by ``CARDHALL_REDIS_URL``; without it nothing here runs and one process serves
everything (:class:`~cardhall.hall.local.LocalHall`, which :mod:`.hall` extends). The parts:

* :mod:`.keys`: every Redis key and channel name.
* :mod:`.bus`: one Redis pub/sub subscriber per node and one ordered publisher.
* :mod:`.remote`: the two ends of a socket whose table runs on another node: the owner's
  :class:`~.remote.RemoteConnection` (a table sends to it as to any connection; the frame is
  redacted for its recipient before it leaves) and the holder's :class:`~.remote.Sockets`.
* :mod:`.rpc`: requests to another node (create, close, kick, inspect) and their answers.
* :mod:`.node`: leases and their fencing epochs, the shared registry of tables and nodes,
  and failover (taking over the tables of a node that died).
* :mod:`.hall`: :class:`~.hall.ClusterHall`, what the REST routes and the WebSocket handler
  use in a cluster.
* :mod:`.ops`: the operations a node serves to the others (``hall/ops.py`` by name).
* :mod:`.authbus`: identity-cache invalidations between the nodes (``server/authcache.py``).
"""
