"""What may be posted to a table's inbox (``design.md`` section 5).

Sockets, bots, timers and the manager never touch a table's state: they post one of these
frozen records and the table's actor task handles it. Timer records carry the ``version`` they
were armed at; the actor ignores them once the version has moved on (a move that reached the
inbox first always wins over the timer).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..protocol import messages as p
from .connections import Connection


@dataclass(frozen=True, slots=True)
class ClientRequest:
    """A parsed ``join``/``act``/``leave``/``resync`` from a connection. ``balance``: a
    ``join`` at a poker table carries the player's chip balance read just before (chips;
    :data:`BALANCE_UNKNOWN` if it could not be read; ``None``: not looked up, the seat gets
    the house's ``starting_stack``, as built-in bots do). ``hold``: the
    :class:`~.balances.ChipHold` of the chips handed on in ``balance`` (the table keeps it
    until the commit carrying the buy-in, or releases it at once when the join took none)."""

    conn: Connection
    msg: p.Join | p.Act | p.Leave | p.Resync | p.SitOut
    balance: int | None = None
    hold: Any = None


BALANCE_UNKNOWN = -1
""":attr:`ClientRequest.balance` when the store did not answer."""


@dataclass(frozen=True, slots=True)
class Disconnected:
    """The connection's socket is gone (its seat stays held)."""

    conn: Connection


@dataclass(frozen=True, slots=True)
class DeadlineExpired:
    """The turn deadline armed at ``version`` ran out (ignored unless it is still the running
    deadline: a move re-arms it; seats coming and going outside the hand do not)."""

    version: int


@dataclass(frozen=True, slots=True)
class NextHand:
    """The pause after poker hand number ``hand`` is over (keyed by hand, not version: seats
    may come and go during the pause)."""

    hand: int


@dataclass(frozen=True, slots=True)
class Reap:
    """The idle timer armed at ``version`` ran out: close the table if it is still idle
    (finished, or waiting with no person seated)."""

    version: int


@dataclass(frozen=True, slots=True)
class AbandonExpired:
    """The abandon timer armed as number ``arming`` ran out: no client has been connected to
    the table since it was armed (ignored unless it is still the armed one; see
    :mod:`.abandon`)."""

    arming: int


@dataclass(frozen=True, slots=True)
class Control:
    """Run ``fn(table)`` inside the actor and resolve ``future`` with its result (admin)."""

    fn: Callable[[Any], Any]
    future: asyncio.Future[Any]


@dataclass(frozen=True, slots=True)
class Close:
    """Close the table: tell everyone ``table_closed`` with ``reason`` and stop the actor."""

    reason: p.TableClosedReason


@dataclass(frozen=True, slots=True)
class Fenced:
    """Cluster mode: another node holds the table's lease now (its log refused this node's
    step, or the lease was lost). Stop at once and silently: no message is sent, nothing
    more is logged; the new owner restores the table from the log (``docs/scaling.md``)."""


InboxMessage = (
    ClientRequest | Disconnected | DeadlineExpired | NextHand | Reap | AbandonExpired | Control
    | Close | Fenced
)
