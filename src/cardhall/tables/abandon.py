"""Tables that nobody plays end (``design.md`` section 5, "Table lifecycle").

A table is *unattended* while a client (a person or an SDK bot; built-in bots are not clients)
has held a seat there, a game has started (``playing``, ``between_hands``, or ``waiting`` after
a hand because nobody connected was left to deal to), and no client holding a seat is connected
now. The turn timer keeps acting for disconnected seats, so without this a Bazaar Blot table
whose four clients all closed their sockets passed and redealt forever, and counted against
``max_tables``.

Whether a table is unattended is :meth:`~.state.TableState.unattended`. When a table becomes
unattended the core arms one timer of ``abandon_after_seconds``
(:class:`AbandonWatch`; an effect of its step, :mod:`.timers`); a client connecting or resuming a seat cancels
it, and the next time the table is unattended a fresh timer starts from zero. When the timer
runs out (:class:`~.messages.AbandonExpired`), the running game, if any, ends with the
engine's :meth:`~cardhall.engine.GameState.abandon` (logged as the ``abandon`` step, finished
like any other game: saved with outcome reason ``abandoned``, ``game_over`` sent, no next
poker hand), then the table closes with ``table_closed`` reason ``abandoned`` and leaves the
registry, freeing its ``max_tables`` slot.
"""

from __future__ import annotations

from .clock import Clock
from .messages import AbandonExpired
from .state import WATCHED_STATUSES
from .timers import Timers

__all__ = ["WATCHED_STATUSES", "AbandonWatch"]


class AbandonWatch:
    """The one abandon timer of a table (an effect, like every table timer: :mod:`.timers`).

    Args:
        clock: the table's injected clock (read for :attr:`since`).
        timers: the table's timers part (records the ``abandon`` timer's arming and
            cancelling for the step).
    """

    def __init__(self, clock: Clock, timers: Timers) -> None:
        self.clock, self.timers = clock, timers
        self.armed = False
        """Whether the abandon timer runs (armed, not fired, not cancelled)."""
        self._arming = 0
        self.since: float | None = None
        """Clock seconds since which the table has been unattended (``None``: attended)."""

    def update(self, unattended: bool, seconds: float) -> None:
        """Arm the timer for ``seconds`` when the table has just become unattended, cancel it
        when it has just become attended; otherwise leave it running (a timer move or a bot
        move while nobody is connected does not restart it)."""
        if unattended and not self.armed:
            self._arming += 1
            self.since = self.clock.now()
            self.timers.arm("abandon", seconds, AbandonExpired(self._arming))
            self.armed = True
        elif not unattended and self.armed:
            self.cancel()

    def fired(self, arming: int) -> bool:
        """Whether an :class:`~.messages.AbandonExpired` of number ``arming`` is the running
        timer's (then the timer is spent); False for one cancelled or re-armed since."""
        if not self.armed or arming != self._arming:
            return False
        self.armed, self.since = False, None
        self.timers.spent("abandon")
        return True

    def cancel(self) -> None:
        """Cancel the timer (the table is attended again, or closing)."""
        self.timers.disarm("abandon")
        self.armed, self.since = False, None
