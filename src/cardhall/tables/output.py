"""A table's outgoing messages, held until their step is durable (``design.md`` section 5).

Every message a table sends during a step goes to :meth:`Output.send`, which holds it (or
delivers it at once when the table has no log). At the end of the step the table's
durability part (:mod:`.durable`) either hands the held messages to the table log with the
step's entries (:meth:`Output.take` then :meth:`Output.release` once committed) or, when the
step changed nothing durable, releases them at once or behind the steps still waiting
(:meth:`Output.behind`). Commits land in order, so a client sees the steps in order.
"""

from __future__ import annotations

from collections import deque

from .connections import Connection, Outgoing

Delivery = tuple[Connection, Outgoing]
"""A held message: ``(connection, message)``."""


def deliver(items: list[Delivery]) -> None:
    """Send held messages, in order."""
    for conn, msg in items:
        conn.send(msg)


class Output:
    """The messages of the running step and of the steps waiting for their commit.

    Args:
        holding: whether messages are held for a commit (the table has a log).
    """

    def __init__(self, holding: bool) -> None:
        self.holding = holding
        self.fenced_out = False
        """Set once the table stopped because another node took it over: nothing is sent."""
        self._step: list[Delivery] = []
        self._waiting: deque[list[Delivery]] = deque()

    def send(self, conn: Connection, msg: Outgoing) -> None:
        """Send ``msg`` to ``conn`` once this step is durable (at once without a log; never
        once the table was fenced out)."""
        if self.fenced_out:
            return
        if not self.holding:
            conn.send(msg)
        else:
            self._step.append((conn, msg))

    def send_behind(self, conn: Connection, msg: Outgoing) -> None:
        """Send ``msg`` outside any step (a stopped table refusing a request): at once, or
        behind the steps still waiting."""
        self.behind([(conn, msg)])

    def take(self) -> list[Delivery]:
        """The running step's messages (the step ends)."""
        out, self._step = self._step, []
        return out

    def wait(self, batch: list[Delivery]) -> None:
        """``batch`` waits for its step's commit (:meth:`release`)."""
        self._waiting.append(batch)

    def behind(self, out: list[Delivery]) -> None:
        """Deliver ``out`` now, or after the steps still waiting for their commit."""
        if self._waiting:
            self._waiting[-1].extend(out)
        else:
            deliver(out)

    def release(self, batch: list[Delivery]) -> None:
        """Deliver the waiting steps up to and including ``batch`` (commits land in order)."""
        while self._waiting:
            first = self._waiting.popleft()
            deliver(first)
            if first is batch:
                return

    def fence_out(self) -> None:
        """Stop sending for good: every held message is dropped."""
        self.fenced_out = True
        self.holding = False
        self._step = []
        self._waiting.clear()
