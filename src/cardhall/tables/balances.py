"""The socket side's chip holds, before a poker ``join`` reaches its table.

A person's ``join`` taking, resuming or rebuying a seat at a poker table first *holds* the
chips it may take (:meth:`Balances.lookup`): one transaction of the store
(:meth:`~cardhall.storage.interface.Store.hold_chips`) applies the free top-up and debits the
buy-in from the balance with an atomic conditional ``UPDATE`` (never below zero), recording a
``hold:<id>`` move (``storage/chips.py``). The join reaches the table with the balance it was
offered and a :class:`ChipHold`; the table *settles* the hold in the commit of the step that
handled the join, giving back what it did not use (:mod:`.chips`). So two joins of one player,
at two tables of one server or of two cluster nodes, can never buy in the same chips: the
second debit finds the first one's balance.

* A join that never reaches a table's handling (the table closed, the request was dropped)
  has its hold *released* (:meth:`ChipHold.release`): the whole debit comes back, keyed, on a
  task. So does a hold whose transaction failed or passed :data:`BALANCE_READ_SECONDS` (it
  may still land: the release then takes its key first or gives it back).
* A process that dies with holds not settled: a single process releases every such hold at
  its next start, before restoring its tables; in cluster mode the node taking a table over
  releases that table's holds in the transaction of its claim (the old owner's later commits
  are fenced; a hold is only taken while the holding node's epoch is the table's).
* **Outages.** While the table log is degraded (:attr:`~cardhall.storage.log.TableLog.healthy`
  false: the database fails or is late) no hold is tried: the join goes on at once with
  :data:`~.messages.BALANCE_UNKNOWN` (house chips, never cashed out). Otherwise a hold that
  fails or takes over :data:`BALANCE_READ_SECONDS` gives the same.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from typing import Any

from ..protocol import messages as p
from ..storage.chips import settle_key
from ..storage.interface import ChipMove
from .connections import Connection
from .messages import BALANCE_UNKNOWN, ClientRequest

log = logging.getLogger(__name__)

BALANCE_READ_SECONDS = 1.0
"""The most a join waits for its chip hold (then: house chips, ``tables/chips.py``)."""

RELEASE_TRIES = 5
"""Attempts of a hold's release (doubling waits from 0.1 s) before it is left to the next
start or takeover (module docstring)."""


def needs_balance(table: Any, msg: Any, conn_is_bot: bool = False) -> bool:
    """A person's ``join`` that may take chips at a poker table: taking a seat, resuming one
    by identity, or a rebuy (a resume by seat token without ``buy_in`` takes none; bot
    identities play on house chips)."""
    return (isinstance(msg, p.Join) and not msg.spectate and table.rules.uses_stacks
            and not conn_is_bot and not (msg.seat_token is not None and msg.buy_in is None))


class ChipHold:
    """Chips of one player debited for one join (see the module docstring).

    Attributes:
        player_id: whose balance.
        hold_id: the hold's id (its moves' keys: ``hold:<id>``, ``settle:<id>``).
        amount: chips debited (``> 0``).
        table_id: the table the join went to.
    """

    __slots__ = ("_desk", "amount", "hold_id", "player_id", "table_id")

    def __init__(self, desk: Balances, player_id: str, hold_id: str, amount: int,
                 table_id: str) -> None:
        self._desk: Balances | None = desk
        self.player_id, self.hold_id, self.amount, self.table_id = (player_id, hold_id,
                                                                    amount, table_id)

    def settle(self, used: int) -> ChipMove:
        """The move that settles the hold with the step that handled its join: ``amount -
        used`` chips back (``0 <= used <= amount``). After it, :meth:`release` does nothing."""
        assert 0 <= used <= self.amount
        self._desk = None
        return ChipMove(settle_key(self.hold_id), self.player_id, self.amount - used, "settle",
                        self.table_id)

    def release(self) -> None:
        """The join's table will never settle the hold: give the whole debit back (on a task;
        idempotent; any task, any time)."""
        desk, self._desk = self._desk, None
        if desk is not None:
            desk.release(self.player_id, self.hold_id)


class Balances:
    """Per-process chip holds of poker joins (see the module docstring).

    Args:
        settings: ``chips_top_up_to`` and ``chips_top_up_every_seconds``.
        store: answers :meth:`~cardhall.storage.interface.Store.hold_chips` and
            :meth:`~cardhall.storage.interface.Store.release_hold`.
        log: the table log (its health says whether the database is known to fail), or
            ``None``.
        sleep: how to wait between a release's attempts (tests pass a fake).
    """

    def __init__(self, settings: Any, store: Any, log: Any = None,
                 sleep: Any = asyncio.sleep) -> None:
        self.settings, self.store, self.log, self._sleep = settings, store, log, sleep
        self._releases: set[asyncio.Task[None]] = set()

    async def lookup(self, table: Any, conn: Connection, msg: p.Join) -> ClientRequest:
        """The inbox record of ``msg``: the balance it was offered and its hold (none when
        nothing was debited), or :data:`BALANCE_UNKNOWN` when the store did not answer."""
        player = conn.player.id
        if self.log is not None and not self.log.healthy:  # an outage: do not wait for it
            log.debug("chips of %s not held: the table log is degraded", player)
            return ClientRequest(conn, msg, BALANCE_UNKNOWN)
        least, most = table.buy_in_range()
        hold_id = uuid.uuid4().hex
        try:
            took = await asyncio.wait_for(self.store.hold_chips(
                player, hold_id, asked=msg.buy_in, most=most, table_id=table.id,
                epoch=table.durable.lease_epoch, top_up_below=least,
                top_up_to=self.settings.chips_top_up_to,
                top_up_every_seconds=self.settings.chips_top_up_every_seconds),
                BALANCE_READ_SECONDS)
        except asyncio.CancelledError:
            self.release(player, hold_id)
            raise
        except Exception as exc:  # the database: the seat plays on house chips (chips.py)
            log.warning("chips of %s not held: %s", player, exc)
            self.release(player, hold_id)
            return ClientRequest(conn, msg, BALANCE_UNKNOWN)
        if took is None:  # the table was taken over: its new owner answers a retry
            return ClientRequest(conn, msg, BALANCE_UNKNOWN)
        hold = ChipHold(self, player, hold_id, took.taken, table.id) if took.taken else None
        return ClientRequest(conn, msg, took.balance, hold)

    def release(self, player_id: str, hold_id: str) -> None:
        """Release hold ``hold_id`` on a task (:meth:`~cardhall.storage.interface.Store.
        release_hold`, retried :data:`RELEASE_TRIES` times)."""
        task = asyncio.get_running_loop().create_task(self._release(player_id, hold_id))
        self._releases.add(task)
        task.add_done_callback(self._releases.discard)

    async def _release(self, player_id: str, hold_id: str) -> None:
        wait = 0.1
        for attempt in range(RELEASE_TRIES):
            try:
                await self.store.release_hold(player_id, hold_id)
                return
            except Exception as exc:
                log.warning("hold %s of %s not released yet (%s)", hold_id, player_id, exc)
                if attempt + 1 < RELEASE_TRIES:
                    await self._sleep(wait)
                    wait *= 2
        log.error("hold %s of %s left to the next start or takeover", hold_id, player_id)

    async def drain(self, timeout: float = 2.0) -> None:
        """Wait (at most ``timeout`` seconds) for the releases under way."""
        if self._releases:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.gather(*self._releases,
                                                      return_exceptions=True), timeout)
