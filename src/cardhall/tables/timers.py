"""Timers of a table actor: the turn deadline, the pause between poker hands, idle reaping
(``design.md`` section 5).

Mixed into :class:`~.actor.Table`; runs only inside the table's task. One deadline per table,
armed through the injected clock for the current decision point: when it expires it posts a
versioned :class:`~.messages.DeadlineExpired` and the actor applies the game's timeout action,
logged with ``timeout=True``. An idle table (finished, or waiting with no client connected)
posts :class:`~.messages.Reap` after its time to live, counted from ``idle_since`` (the wall
time it became idle), which the table's snapshot keeps: a restart does not start it again.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from .clock import Handle
from .messages import DeadlineExpired, NextHand, Reap

if TYPE_CHECKING:
    from ..engine import Event, Recorder


class TableTimers:
    """The timer half of a table (see the module docstring)."""

    if TYPE_CHECKING:  # provided by Table and GameFlow
        spec: Any
        clock: Any
        seats: list[Any]
        spectators: dict[str, Any]
        status: str
        version: int
        hand: int
        had_client: bool
        recorder: Recorder | None
        _deadline: float | None
        _deadline_handle: Handle | None
        _deadline_version: int | None
        _pause_handle: Handle | None
        _reap_handle: Handle | None
        idle_since: datetime | None

        def post(self, msg: Any) -> None: ...
        def t_ms(self) -> int: ...
        def table_seat(self, game_seat: int | None) -> int | None: ...
        async def after_action(self, events: list[Event], seat: int | None, *,
                               timeout: bool) -> None: ...
        def count_timeout(self, index: int | None) -> None: ...

    # ----- the deadline ---------------------------------------------------------------------
    def arm_deadline(self) -> None:
        """Cancel the running deadline and arm one for the current decision point, if any."""
        if self._deadline_handle is not None:
            self._deadline_handle.cancel()
        self._deadline_handle, self._deadline, self._deadline_version = None, None, None
        if self.status != "playing" or self.recorder is None:
            return
        if self.recorder.state.timer_seat() is None:
            return
        timeout = self.spec.turn_timeout_seconds
        self._deadline = self.clock.now() + timeout
        self._deadline_version = self.version
        self._deadline_handle = self.clock.call_later(timeout, self.post,
                                                      DeadlineExpired(self.version))

    def deadline_ms(self) -> int | None:
        """Milliseconds left on the running deadline (``None`` if none runs)."""
        if self._deadline is None:
            return None
        return max(0, round((self._deadline - self.clock.now()) * 1000))

    async def _deadline_expired(self, version: int) -> None:
        # Keyed by the decision point it was armed for, not the table version: a seat taken or
        # freed outside the hand bumps the version without re-arming, and must not void it.
        if version != self._deadline_version or self.status != "playing" or self.recorder is None:
            return  # something happened first: the timer lost the race
        state = self.recorder.state
        gs = state.timer_seat()
        action = None if gs is None else state.timeout_action(gs)
        if gs is None or action is None:
            return
        events = self.recorder.act(gs, action, timeout=True, t_ms=self.t_ms())
        self.version += 1
        await self.after_action(events, self.table_seat(gs), timeout=True)
        self.count_timeout(self.table_seat(gs))

    def arm_pause(self, seconds: float) -> None:
        """Arm the pause before the next poker hand."""
        if self._pause_handle is not None:
            self._pause_handle.cancel()
        self._pause_handle = self.clock.call_later(seconds, self.post, NextHand(self.hand))

    def idle(self) -> bool:
        """Finished, or waiting with no client (only built-in bots, or nobody, or only clients
        whose sockets are gone) connected. SDK bots are clients."""
        return (self.status == "finished" or (self.status == "waiting" and not self.people_present())
                or self.abandoned())

    def abandoned(self) -> bool:
        """A game was played here with a client (person or SDK bot) seated, none is running, and
        no client holds a seat any more: everyone left (only built-in bots, or nobody, remain)."""
        return self.had_client and self.hand > 0 and self.status != "playing" and not any(
            s.taken and s.bot_kind is None for s in self.seats)

    def people_present(self, among: list[int] | None = None) -> bool:
        """Whether a client (a person or an SDK bot, not a built-in bot or a stand-in) holding
        one of the seats ``among`` (default: all) is connected now."""
        seats = self.seats if among is None else [self.seats[i] for i in among]
        return any(s.taken and s.bot_kind is None and not s.leaving and (
            self._holder_watching(s) if s.stand_in is not None
            else s.conn is not None and not s.conn.closed) for s in seats)

    def _holder_watching(self, seat: Any) -> bool:
        """A stand-in plays ``seat`` after its holder's timeouts, and the holder's socket is
        still here (watching): the holder is present."""
        return any(c.player.id == seat.player_id and not c.closed
                   for c in self.spectators.values())

    def arm_reap(self, *, resumed: bool = False) -> None:
        """(Re-)arm the idle timer if the table is idle now, else cancel it (and forget
        ``idle_since``). The time to live counts from ``idle_since``: now, or, when a restored
        table ``resumed``, the time it had been idle since before the restart (so restarts
        never keep an idle table alive)."""
        if self._reap_handle is not None:
            self._reap_handle.cancel()
            self._reap_handle = None
        if not self.idle():
            self.idle_since = None
            return
        now = self.clock.wall()
        if not resumed or self.idle_since is None or self.idle_since > now:
            self.idle_since = now
        ttl = self.spec.abandoned_ttl_seconds if self.abandoned() \
            else self.spec.idle_ttl_seconds
        left = ttl - (now - self.idle_since).total_seconds()
        self._reap_handle = self.clock.call_later(max(0.0, left), self.post, Reap(self.version))

    def _cancel_timers(self) -> None:
        for h in (self._deadline_handle, self._pause_handle, self._reap_handle):
            if h is not None:
                h.cancel()
        self._deadline_handle = self._pause_handle = self._reap_handle = None
        self._deadline = self._deadline_version = None

