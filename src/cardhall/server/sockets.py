"""Who may keep a WebSocket open (``docs/protocol.md``, "Limits" and "Close codes";
``docs/security.md``, "Sessions, sockets and proxies").

* **Per address**: at most ``max_sockets_per_address`` sockets per client address in this
  process (:class:`AddressCap`), authenticated or not; the address is the one the trusted
  proxies make it (``trusted_proxies``), counted by its network (an IPv6 address by its /64,
  :func:`~.quotas.client_network`), the same the REST rates count. One more is told ``quota.address_sockets`` and closed
  (:data:`CLOSE_ADDRESS_SOCKETS`).
* **Hello deadline**: a socket not authenticated ``hello_timeout_seconds`` after it opened
  is told ``auth.hello_timeout`` and closed (:data:`CLOSE_HELLO_TIMEOUT`).
* **Revoked sessions**: when a player's sessions are revoked (log-out, ``DELETE
  /api/sessions/{id}``, a password change, the admin's reset), every socket of that player
  whose token no longer authenticates is told ``auth.session_revoked`` and closed
  (:data:`CLOSE_REVOKED`), on every node: the route asks the hall
  (:meth:`~cardhall.hall.local.LocalHall.close_sockets`), which in cluster mode asks every
  node, the path a ban's closes take. The socket's seats stay (a disconnect): the owner logs
  in again and resumes them.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING, Literal

from ..storage.interface import Store
from .quotas import give_back, take

if TYPE_CHECKING:
    from ..hall.local import LocalHall
    from .authcache import AuthCache
    from .ws import Session

log = logging.getLogger(__name__)

CLOSE_REVOKED = 4001
"""Close code after ``auth.session_revoked``: the token this socket authenticated with was
revoked (like HTTP 401: log in again, then resume the seats)."""
CLOSE_HELLO_TIMEOUT = 4009
"""Close code after ``auth.hello_timeout``: no authenticated ``hello`` within
``hello_timeout_seconds`` of opening."""
CLOSE_ADDRESS_SOCKETS = 4030
"""Close code after ``quota.address_sockets``: the client address already holds
``max_sockets_per_address`` sockets in this process."""

Why = Literal["banned", "revoked"]
"""Why sockets are closed: ``banned`` (a ban or a disable: ``auth.banned``, 4003, whatever
the token) or ``revoked`` (only the sockets whose token no longer authenticates)."""


class AddressCap:
    """Open sockets per client address in this process, at most :attr:`limit` at once.

    Only socket tasks of this process call it and neither method awaits: no lock needed.

    Args:
        limit: sockets one address may hold (>= 1).
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.open: dict[str, int] = {}
        """Open sockets per address (addresses with none are absent)."""

    def acquire(self, address: str) -> bool:
        """Count one more socket of ``address``; ``False`` (nothing counted) at :attr:`limit`."""
        return take(self.open, address, self.limit)

    def release(self, address: str) -> None:
        """Count one socket of ``address`` less (a socket that was counted has ended)."""
        give_back(self.open, address)


async def close_sockets(sessions: Iterable[Session], player_ids: set[str], why: Why,
                        store: Store, auth_cache: AuthCache | None = None) -> int:
    """Close this process's open sockets of ``player_ids``; returns how many. The players'
    identities are dropped from ``auth_cache`` first (``server/authcache.py``, here and, in
    cluster mode, on the bus), so that no ``hello`` of a banned player or a revoked token is
    answered from it (the valid tokens are cached again at their next ``hello``).

    ``banned``: every authenticated one (:meth:`~.ws.Session.ban`). ``revoked``: each whose
    token no longer authenticates (:meth:`Store.player_for_token` finds no player: the session
    was revoked; :meth:`~.ws.Session.revoke`); the player's other sockets stay. A store that
    fails to answer for a socket leaves that socket open (logged).
    """
    if auth_cache is not None:
        auth_cache.invalidate(player_ids)
    mine = [s for s in list(sessions)
            if s.authed and s.conn.player.id in player_ids and not s.conn.closed]
    closed = 0
    for session in mine:
        if why == "banned":
            session.ban()
            closed += 1
            continue
        token = session.token
        try:
            live = token is not None and await store.player_for_token(token) is not None
        except Exception as exc:
            log.warning("ws %s: could not recheck its token after a revocation (%s: %s); "
                        "left open", session.conn.id, type(exc).__name__, exc)
            continue
        if not live and not session.conn.closed:
            session.revoke()
            closed += 1
    return closed


async def end_revoked_sockets(hall: LocalHall, player_id: str) -> int:
    """After ``player_id``'s sessions were revoked: close its sockets of revoked tokens on
    every node (:meth:`~cardhall.hall.local.LocalHall.close_sockets`, ``revoked``); how
    many. The revocation itself is already stored, so a node that does not answer (cluster
    mode) is logged and does not fail the caller's request."""
    try:
        return await hall.close_sockets({player_id}, "revoked")
    except Exception as exc:
        log.warning("revoked sessions of %s: not every node closed its sockets (%s: %s)",
                    player_id, type(exc).__name__, exc)
        return 0
