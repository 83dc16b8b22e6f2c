"""Timers of a table as effects: the turn deadline, the pause between poker hands, idle reaping
(``design.md`` section 5).

The core never arms a timer. Its :class:`Timers` part (held as ``table.timers``) records what
must be armed or cancelled as data - :class:`TimerArm` (a timer of a kind, due at a clock
time, posting a message) and :class:`TimerCancel` - and each step hands them on
(:attr:`~.core.Step.timers`, in the order they were made). The async shell applies them on
the clock with a :class:`TimerBoard` before it carries the step's messages out, and a fired
timer posts its message to the table's inbox like any other.

One timer of each kind (:data:`TimerKey`) runs per table; arming a kind replaces the running
one. The deadline is armed for the current decision point: when it expires it posts a
versioned :class:`~.messages.DeadlineExpired` and the game flow applies the game's timeout
action, logged with ``timeout=True`` (:meth:`~.flow.GameFlow.timeout`). The pause posts
:class:`~.messages.NextHand`. An idle table (finished, or waiting with no client connected)
posts :class:`~.messages.Reap` after its time to live, counted from ``idle_since`` (the wall
time it became idle), which the table's snapshot keeps: a restart does not start it again.
The abandon timer (:mod:`.abandon`) is armed through the same part.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from .clock import Clock, Handle
from .messages import DeadlineExpired, InboxMessage, NextHand, Reap
from .state import TableState

TimerKey = Literal["deadline", "pause", "reap", "abandon"]
"""The kinds of table timer; one of each runs at most."""


@dataclass(frozen=True, slots=True)
class TimerArm:
    """Arm the ``key`` timer (replacing a running one of that kind): at clock time
    ``at_seconds`` (monotonic seconds of the table's clock) post ``message`` to the inbox."""

    key: TimerKey
    at_seconds: float
    message: InboxMessage


@dataclass(frozen=True, slots=True)
class TimerCancel:
    """Cancel the ``key`` timer (a no-op if it fired already)."""

    key: TimerKey


TimerEffect = TimerArm | TimerCancel
"""What a step asks of the table's timers (:attr:`~.core.Step.timers`)."""

_GAME_TIMERS: tuple[TimerKey, ...] = ("deadline", "pause", "reap")


def _nowhere(_msg: InboxMessage) -> None:
    """Where a stopped table's timers would post (nowhere)."""


class TimerBoard:
    """The shell's side: the armed handles of one table, one per :data:`TimerKey`.

    Args:
        clock: the table's clock (``call_at``).
        post: where a fired timer's message goes (the table's inbox).
    """

    def __init__(self, clock: Clock, post: Callable[[InboxMessage], None]) -> None:
        self.clock, self.post = clock, post
        self._handles: dict[TimerKey, Handle] = {}

    def apply(self, effects: list[TimerEffect]) -> None:
        """Carry out ``effects`` in order (arming a kind cancels the running one first)."""
        for effect in effects:
            old = self._handles.pop(effect.key, None)
            if old is not None:
                old.cancel()
            if isinstance(effect, TimerArm):
                self._handles[effect.key] = self.clock.call_at(effect.at_seconds, self.post,
                                                               effect.message)

    def close(self) -> None:
        """Cancel every timer and forget the handles and the inbox (the table stopped; the
        board no longer points back at the table, so a closed table is freed by reference
        counting alone)."""
        for handle in self._handles.values():
            handle.cancel()
        self._handles.clear()
        self.post = _nowhere


class Timers:
    """The timers of one table as effects (see the module docstring).

    Args:
        t: the table's state (its clock, status, game and version).
    """

    def __init__(self, t: TableState) -> None:
        self.t = t
        self._effects: list[TimerEffect] = []
        self._armed: set[TimerKey] = set()
        """Kinds armed and not cancelled since (one may have fired meanwhile)."""
        self.deadline_version: int | None = None
        """The version the running deadline was armed at (its decision point)."""

    # ----- the effects ----------------------------------------------------------------------
    def arm(self, key: TimerKey, delay_seconds: float, message: InboxMessage) -> float:
        """Record arming ``key`` to post ``message`` after ``delay_seconds`` (>= 0 counted)
        from now; returns the clock time it is due at."""
        at = self.t.clock.now() + max(0.0, delay_seconds)
        self._effects.append(TimerArm(key, at, message))
        self._armed.add(key)
        return at

    def disarm(self, key: TimerKey) -> None:
        """Record cancelling ``key`` if it is armed."""
        if key in self._armed:
            self._armed.discard(key)
            self._effects.append(TimerCancel(key))

    def spent(self, key: TimerKey) -> None:
        """``key`` fired (its message was handled): nothing is left to cancel."""
        self._armed.discard(key)

    def take(self) -> list[TimerEffect]:
        """The effects recorded since the last call (the step ends)."""
        out, self._effects = self._effects, []
        return out

    # ----- the deadline ---------------------------------------------------------------------
    def arm_deadline(self) -> None:
        """Cancel the running deadline and arm one for the current decision point, if any."""
        t = self.t
        t.deadline, self.deadline_version = None, None
        if t.status != "playing" or t.recorder is None or t.recorder.state.timer_seat() is None:
            self.disarm("deadline")
            return
        self.deadline_version = t.version
        t.deadline = self.arm("deadline", t.spec.turn_timeout_seconds,
                              DeadlineExpired(t.version))

    def arm_pause(self, seconds: float) -> None:
        """Arm the pause before the next poker hand."""
        self.arm("pause", seconds, NextHand(self.t.hand))

    def arm_reap(self, *, resumed: bool = False) -> None:
        """(Re-)arm the idle timer if the table is idle now, else cancel it (and forget
        ``idle_since``). The time to live counts from ``idle_since``: now, or, when a restored
        table ``resumed``, the time it had been idle since before the restart (so restarts
        never keep an idle table alive)."""
        t = self.t
        if not t.idle():
            self.disarm("reap")
            t.idle_since = None
            return
        now = t.clock.wall()
        if not resumed or t.idle_since is None or t.idle_since > now:
            t.idle_since = now
        ttl = t.spec.abandoned_ttl_seconds if t.abandoned() else t.spec.idle_ttl_seconds
        left = ttl - (now - t.idle_since).total_seconds()
        self.arm("reap", left, Reap(t.version))

    def cancel(self) -> None:
        """Cancel the deadline, pause and idle timers (the game ended, or the table closes)."""
        for key in _GAME_TIMERS:
            self.disarm(key)
        self.t.deadline = self.deadline_version = None
