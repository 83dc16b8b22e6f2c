"""Chip balance records shared by the stores: moves, holds and their keys.

A buy-in takes its chips from the balance *before* the seat is taken: one atomic conditional
debit in the database (:meth:`~cardhall.storage.interface.Store.hold_chips`), recorded as a
``hold:<id>`` move (``reason`` ``hold``, delta ``-taken``) in the same transaction. The table
that got the hold *settles* it with the step that took the seat: a ``settle:<id>`` move giving
back what the join did not use (``+0`` when it used everything), written in the same commit as
the snapshot that shows the seat's stack. A hold no table will settle (the join never reached
one, the lookup gave up on the database, the owning process died before the commit) is
*released*: the whole hold comes back under the same ``settle:<id>`` key, so a hold is settled
or released exactly once, never both.

Invariant (per player): ``balance == CHIPS_START + free top-ups + sum(chip_moves.delta)``, and
the balance is never below zero.
"""

from __future__ import annotations

from dataclasses import dataclass

CHIPS_START = 1_000
"""Chips a player's balance holds before its first move (``chip_balances`` has no row yet)."""


@dataclass(frozen=True, slots=True)
class ChipMove:
    """One move of a player's chip balance, written with a table's log step (exactly once:
    a move whose ``key`` was applied before is skipped, so a retried commit or a replayed
    step never moves chips twice).

    Attributes:
        key: unique per move: ``settle:<hold id>``, ``cashout:<seat take id>``.
        player_id: whose balance moves.
        delta: chips, signed (a hold is negative; a settle or cash-out positive or zero).
        reason: ``hold``, ``settle`` or ``cash_out`` (``void``: a released hold that never
            took anything).
        table_id: the table the chips went to or came from.
    """

    key: str
    player_id: str
    delta: int
    reason: str
    table_id: str | None = None


@dataclass(frozen=True, slots=True)
class ChipTake:
    """What :meth:`~cardhall.storage.interface.Store.hold_chips` did.

    Attributes:
        balance: the balance the join was offered (chips, after the free top-up, before the
            debit).
        taken: chips debited for the hold (``0``: none, the balance did not cover the ask).
    """

    balance: int
    taken: int


def hold_key(hold_id: str) -> str:
    """The ``chip_moves`` key of hold ``hold_id``'s debit."""
    return f"hold:{hold_id}"


def settle_key(hold_id: str) -> str:
    """The ``chip_moves`` key of hold ``hold_id``'s settlement (or release)."""
    return f"settle:{hold_id}"


def hold_amount(asked: int | None, balance: int, most: int) -> int:
    """The chips a hold takes from ``balance`` for a join asking ``asked`` (``join.buy_in``;
    ``None``: ``most``, or the whole balance when less) at a table whose ``max_buy_in`` is
    ``most``: that ask when it is positive and covered by both, else ``0``."""
    want = asked if asked is not None else min(most, balance)
    return want if 0 < want <= min(balance, most) else 0
