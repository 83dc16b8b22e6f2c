"""Tables that nobody plays end (``design.md`` section 5, "Table lifecycle").

A table is *unattended* while a client (a person or an SDK bot; built-in bots are not clients)
has held a seat there, a game has started (``playing``, ``between_hands``, or ``waiting`` after
a hand because nobody connected was left to deal to), and no client holding a seat is connected
now. The turn timer keeps acting for disconnected seats, so without this a Bazaar Blot table
whose four clients all closed their sockets passed and redealt forever, and counted against
``max_tables``.

When a table becomes unattended the actor arms one timer of ``abandon_after_seconds``
(:class:`AbandonWatch`, on the injected clock); a client connecting or resuming a seat cancels
it, and the next time the table is unattended a fresh timer starts from zero. When the timer
runs out (:class:`~.messages.AbandonExpired`), the running game, if any, ends with the
engine's :meth:`~cardhall.engine.GameState.abandon` (logged as the ``abandon`` step, finished
like any other game: saved with outcome reason ``abandoned``, ``game_over`` sent, no next
poker hand), then the table closes with ``table_closed`` reason ``abandoned`` and leaves the
registry, freeing its ``max_tables`` slot.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..protocol import messages as p
from .clock import Clock, Handle
from .messages import AbandonExpired, InboxMessage

if TYPE_CHECKING:
    from ..engine import Event, Recorder

log = logging.getLogger(__name__)

WATCHED_STATUSES = ("playing", "between_hands", "waiting")
"""Statuses in which an unattended table is abandoned (``waiting`` only after a hand)."""


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


class Abandonment:
    """The abandon half of a table (mixed into :class:`~.actor.Table`; runs in its task)."""

    if TYPE_CHECKING:  # provided by Table / GameFlow
        id: str
        spec: Any
        status: str
        hand: int
        version: int
        had_client: bool
        recorder: Recorder | None
        abandon_watch: AbandonWatch

        def people_present(self, among: list[int] | None = None) -> bool: ...
        def t_ms(self) -> int: ...
        async def after_action(self, events: list[Event], seat: int | None, *,
                               timeout: bool) -> None: ...
        def _close(self, reason: p.TableClosedReason) -> None: ...

    def unattended(self) -> bool:
        """A client has held a seat here, a game has started and is running, between hands
        or stopped for want of connected players, and no client holding a seat is connected
        (a seat being left counts as not connected)."""
        return (self.had_client and self.hand > 0 and self.status in WATCHED_STATUSES
                and not self.people_present())

    def watch_abandon(self) -> None:
        """Arm or cancel the abandon timer after the actor handled a message."""
        self.abandon_watch.update(self.unattended(), self.spec.abandon_after_seconds)

    async def abandon_expired(self, arming: int) -> bool:
        """Handle :class:`~.messages.AbandonExpired`: if it is the running timer and the table
        is still unattended, end the running game as ``abandoned`` (saved, ``game_over``
        sent) and close the table (``table_closed``/``abandoned``). Returns whether the table
        closed (the actor then stops)."""
        if not self.abandon_watch.fired(arming) or not self.unattended():
            return False
        recorder = self.recorder
        if self.status == "playing" and recorder is not None and not recorder.state.is_over:
            events = recorder.abandon(t_ms=self.t_ms())
            self.version += 1
            await self.after_action(events, None, timeout=False)
        log.info("table %s abandoned: no client connected for %.1f s", self.id,
                 self.spec.abandon_after_seconds)
        self._close("abandoned")
        return True
