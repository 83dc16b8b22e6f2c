"""Tables that nobody plays end (``design.md`` section 5, "Table lifecycle").

A table is *unattended* while a client (a person or an SDK bot; built-in bots are not clients)
has held a seat there, a game has started (``playing``, ``between_hands``, or ``waiting`` after
a hand because nobody connected was left to deal to), and no client holding a seat is connected
now. The turn timer keeps acting for disconnected seats, so without this a Bazaar Blot table
whose four clients all closed their sockets passed and redealt forever, and counted against
``max_tables``.

Whether a table is unattended is :meth:`~.state.TableState.unattended`. When a table becomes
unattended the actor arms one timer of ``abandon_after_seconds``
(:class:`AbandonWatch`, on the injected clock); a client connecting or resuming a seat cancels
it, and the next time the table is unattended a fresh timer starts from zero. When the timer
runs out (:class:`~.messages.AbandonExpired`), the running game, if any, ends with the
engine's :meth:`~cardhall.engine.GameState.abandon` (logged as the ``abandon`` step, finished
like any other game: saved with outcome reason ``abandoned``, ``game_over`` sent, no next
poker hand), then the table closes with ``table_closed`` reason ``abandoned`` and leaves the
registry, freeing its ``max_tables`` slot.
"""

from __future__ import annotations

from collections.abc import Callable

from .clock import Clock, Handle
from .messages import AbandonExpired, InboxMessage
from .state import WATCHED_STATUSES

__all__ = ["WATCHED_STATUSES", "AbandonWatch"]


class AbandonWatch:
    """The one abandon timer of a table.

    Args:
        clock: the table's injected clock.
        post: the table's inbox (the timer only posts :class:`~.messages.AbandonExpired`).
    """

    def __init__(self, clock: Clock, post: Callable[[InboxMessage], None]) -> None:
        self.clock, self.post = clock, post
        self._handle: Handle | None = None
        self._arming = 0
        self.since: float | None = None
        """Clock seconds since which the table has been unattended (``None``: attended)."""

    @property
    def armed(self) -> bool:
        return self._handle is not None

    def update(self, unattended: bool, seconds: float) -> None:
        """Arm the timer for ``seconds`` when the table has just become unattended, cancel it
        when it has just become attended; otherwise leave it running (a timer move or a bot
        move while nobody is connected does not restart it)."""
        if unattended and self._handle is None:
            self._arming += 1
            self.since = self.clock.now()
            self._handle = self.clock.call_later(seconds, self.post,
                                                 AbandonExpired(self._arming))
        elif not unattended and self._handle is not None:
            self.cancel()

    def fired(self, arming: int) -> bool:
        """Whether an :class:`~.messages.AbandonExpired` of number ``arming`` is the running
        timer's (then the timer is spent); False for one cancelled or re-armed since."""
        if self._handle is None or arming != self._arming:
            return False
        self._handle, self.since = None, None
        return True

    def cancel(self) -> None:
        """Cancel the timer (the table is attended again, or closing)."""
        if self._handle is not None:
            self._handle.cancel()
        self._handle, self.since = None, None
