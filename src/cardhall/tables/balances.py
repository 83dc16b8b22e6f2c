"""The socket side's chip balance lookups, before a poker ``join`` reaches its table.

A person's ``join`` taking, resuming or rebuying a seat at a poker table carries the player's
chip balance (:class:`~.messages.ClientRequest`, :mod:`.chips`). :class:`Balances` reads it
with the free top-up, and keeps two things per process:

* **One lookup at a time per player.** Two joins of the same player (two tables, two tabs)
  read their balance one after the other, never side by side.
* **Holds.** The chips a lookup hands to a join are *held* (a :class:`ChipHold`) until the
  table log's commit carrying the buy-in's :class:`~cardhall.storage.interface.ChipMove` has
  landed (or the join took nothing: refused, a plain resume, house chips). A lookup hands on
  the balance read *less everything held*, the held total taken *before* the read: a commit
  landing during the read is then at worst subtracted twice (a short-lived, too-low
  balance), never not at all. So two joins at two tables cannot both buy in the same chips.

  Across cluster nodes nothing is shared: two nodes may each hand the whole balance to a
  join of the same player at the same moment, and both buy-ins are applied (the balance may
  go below zero; ``docs/scaling.md``).
* **Outages.** While the table log is degraded (:attr:`~cardhall.storage.log.TableLog.healthy`
  false: the database fails or is late) no read is tried: the join goes on at once with
  :data:`~.messages.BALANCE_UNKNOWN` (house chips, never cashed out). Otherwise a read that
  fails or takes over :data:`BALANCE_READ_SECONDS` gives the same.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from ..protocol import messages as p
from .chips import wanted_buy_in
from .connections import Connection
from .messages import BALANCE_UNKNOWN, ClientRequest

log = logging.getLogger(__name__)

BALANCE_READ_SECONDS = 1.0
"""The most a join waits for the player's chip balance (then: house chips, ``tables/chips.py``)."""


def needs_balance(table: Any, msg: Any, conn_is_bot: bool = False) -> bool:
    """A person's ``join`` taking or resuming a seat at a poker table (it carries the chip
    balance; bot identities play on house chips)."""
    return (isinstance(msg, p.Join) and not msg.spectate and table.rules.uses_stacks
            and not conn_is_bot)


class ChipHold:
    """Chips of one player reserved for one join's buy-in (see the module docstring).

    Attributes:
        player_id: whose balance.
        amount: chips held (``>= 0``).
    """

    __slots__ = ("_desk", "amount", "player_id")

    def __init__(self, desk: Balances, player_id: str, amount: int) -> None:
        self._desk: Balances | None = desk
        self.player_id = player_id
        self.amount = amount

    def release(self) -> None:
        """Stop holding the chips (idempotent; any task, any time)."""
        desk, self._desk = self._desk, None
        if desk is not None:
            desk._release(self)


class Balances:
    """Per-process balance lookups with holds (see the module docstring).

    Args:
        settings: ``chips_top_up_to`` and ``chips_top_up_every_seconds``.
        store: answers :meth:`~cardhall.storage.interface.Store.chip_balance`.
        log: the table log (its health says whether the database is known to fail), or
            ``None``.
    """

    def __init__(self, settings: Any, store: Any, log: Any = None) -> None:
        self.settings, self.store, self.log = settings, store, log
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}
        """player id -> (its lookup lock, lookups using it)."""
        self._held: dict[str, int] = {}
        """player id -> chips held for its joins (absent: none)."""

    def held(self, player_id: str) -> int:
        """Chips held for ``player_id``'s joins now."""
        return self._held.get(player_id, 0)

    def _release(self, hold: ChipHold) -> None:
        left = self._held.get(hold.player_id, 0) - hold.amount
        if left > 0:
            self._held[hold.player_id] = left
        else:
            self._held.pop(hold.player_id, None)

    async def lookup(self, table: Any, conn: Connection, msg: p.Join) -> ClientRequest:
        """The inbox record of ``msg``: with the balance read now (less what is held), and
        a hold of what the join may take, unless the balance is unknown."""
        player = conn.player.id
        lock, users = self._locks.get(player) or (asyncio.Lock(), 0)
        self._locks[player] = (lock, users + 1)
        try:
            async with lock:
                return await self._lookup(table, conn, msg)
        finally:
            lock, users = self._locks[player]
            if users <= 1:
                del self._locks[player]
            else:
                self._locks[player] = (lock, users - 1)

    async def _lookup(self, table: Any, conn: Connection, msg: p.Join) -> ClientRequest:
        player = conn.player.id
        if self.log is not None and not self.log.healthy:  # an outage: do not wait for it
            log.debug("chip balance of %s not read: the table log is degraded", player)
            return ClientRequest(conn, msg, BALANCE_UNKNOWN)
        least, most = table.buy_in_range()
        held = self.held(player)  # before the read: see the module docstring
        try:
            read = await asyncio.wait_for(self.store.chip_balance(
                player, top_up_below=least, top_up_to=self.settings.chips_top_up_to,
                top_up_every_seconds=self.settings.chips_top_up_every_seconds),
                BALANCE_READ_SECONDS)
        except Exception as exc:  # the database: the seat plays on house chips (chips.py)
            log.warning("chip balance of %s unreadable: %s", player, exc)
            return ClientRequest(conn, msg, BALANCE_UNKNOWN)
        balance = max(0, read - held)
        hold = ChipHold(self, player, min(balance, wanted_buy_in(msg.buy_in, balance, most)))
        if hold.amount:  # releases may have landed during the read: add to what is left
            self._held[player] = self._held.get(player, 0) + hold.amount
        return ClientRequest(conn, msg, balance, hold)
