"""Identity-cache invalidations between nodes (``server/authcache.py``; issue 26).

Each node answers socket ``hello`` from an in-process identity cache. When a route revokes a
session, bans, disables, upgrades or changes the password of a player, every node must drop
that player's entries at once: :meth:`AuthBus.publish` sends the player ids on the channel
``<p>:auth`` and each node's handler drops them (:attr:`AuthBus.on_drop`). Pub/sub loses what
is sent while a node's subscriber is cut off, so a node whose bus read fails drops its
whole cache when it reads again (:meth:`AuthBus.gap`): the next ``hello`` of each token asks
the database. What a node holds is also bounded by ``auth_cache_seconds``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import orjson

from .bus import Bus
from .keys import Keys

log = logging.getLogger(__name__)

Drop = Callable[[list[str] | None], None]
"""Drop these players' entries (``None``: every entry)."""


class AuthBus:
    """The ``<p>:auth`` channel of one node (see the module docstring)."""

    def __init__(self, bus: Bus, keys: Keys) -> None:
        self.bus, self.channel = bus, keys.auth
        self.on_drop: Drop | None = None
        """Set by the app: the node's cache drops what the other nodes say (and, ``None``,
        everything after a gap)."""
        self.received = 0
        """Invalidations received (a counter)."""

    def publish(self, player_ids: list[str]) -> None:
        """Tell every node (this one too) to drop ``player_ids``' entries (never blocks)."""
        self.bus.publish(self.channel, orjson.dumps(player_ids).decode())

    def on_message(self, data: str) -> None:
        """A node published an invalidation: drop those players here."""
        ids = orjson.loads(data)
        if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
            log.warning("cluster auth: ignored a malformed invalidation %.80r", data)
            return
        self.received += 1
        if self.on_drop is not None:
            self.on_drop(ids)

    def gap(self) -> None:
        """The bus lost messages: an invalidation may be among them; drop everything."""
        if self.on_drop is not None:
            self.on_drop(None)
