"""Timers of a table: the turn deadline, the pause between poker hands, idle reaping
(``design.md`` section 5).

A part of :class:`~.actor.Table` (held as ``table.timers``); runs only inside the table's
task. One deadline per table, armed through the injected clock for the current decision point:
when it expires it posts a versioned :class:`~.messages.DeadlineExpired` and the game flow
applies the game's timeout action, logged with ``timeout=True``
(:meth:`~.flow.GameFlow.timeout`). An idle table (finished, or waiting with no client
connected) posts :class:`~.messages.Reap` after its time to live, counted from ``idle_since``
(the wall time it became idle), which the table's snapshot keeps: a restart does not start it
again.
"""

from __future__ import annotations

from .clock import Handle
from .messages import DeadlineExpired, NextHand, Reap
from .state import TableState


class Timers:
    """The timers of one table (see the module docstring).

    Args:
        t: the table's state (its clock, status, game and inbox).
    """

    def __init__(self, t: TableState) -> None:
        self.t = t
        self._deadline_handle: Handle | None = None
        self.deadline_version: int | None = None
        """The version the running deadline was armed at (its decision point)."""
        self._pause_handle: Handle | None = None
        self._reap_handle: Handle | None = None

    # ----- the deadline ---------------------------------------------------------------------
    def arm_deadline(self) -> None:
        """Cancel the running deadline and arm one for the current decision point, if any."""
        t = self.t
        if self._deadline_handle is not None:
            self._deadline_handle.cancel()
        self._deadline_handle, t.deadline, self.deadline_version = None, None, None
        if t.status != "playing" or t.recorder is None:
            return
        if t.recorder.state.timer_seat() is None:
            return
        timeout = t.spec.turn_timeout_seconds
        t.deadline = t.clock.now() + timeout
        self.deadline_version = t.version
        self._deadline_handle = t.clock.call_later(timeout, t.post, DeadlineExpired(t.version))

    def arm_pause(self, seconds: float) -> None:
        """Arm the pause before the next poker hand."""
        if self._pause_handle is not None:
            self._pause_handle.cancel()
        self._pause_handle = self.t.clock.call_later(seconds, self.t.post, NextHand(self.t.hand))

    def arm_reap(self, *, resumed: bool = False) -> None:
        """(Re-)arm the idle timer if the table is idle now, else cancel it (and forget
        ``idle_since``). The time to live counts from ``idle_since``: now, or, when a restored
        table ``resumed``, the time it had been idle since before the restart (so restarts
        never keep an idle table alive)."""
        t = self.t
        if self._reap_handle is not None:
            self._reap_handle.cancel()
            self._reap_handle = None
        if not t.idle():
            t.idle_since = None
            return
        now = t.clock.wall()
        if not resumed or t.idle_since is None or t.idle_since > now:
            t.idle_since = now
        ttl = t.spec.abandoned_ttl_seconds if t.abandoned() else t.spec.idle_ttl_seconds
        left = ttl - (now - t.idle_since).total_seconds()
        self._reap_handle = t.clock.call_later(max(0.0, left), t.post, Reap(t.version))

    def cancel(self) -> None:
        """Cancel every timer (the game ended, or the table closes)."""
        for h in (self._deadline_handle, self._pause_handle, self._reap_handle):
            if h is not None:
                h.cancel()
        self._deadline_handle = self._pause_handle = self._reap_handle = None
        self.t.deadline = self.deadline_version = None
