"""Poker chips belong to the player: buy-in, rebuy and cash-out at a table actor.

A part of the table core (``table.chips``); runs only inside the table's task, and never
does I/O.

* **Balance.** Each player has a chip balance in the store (``chip_balances``; 1,000 chips
  before its first move). Before a poker ``join`` is posted, the socket side *holds* the chips
  it may take (:mod:`.balances`): one transaction applies the free top-up (a balance below the
  table's ``min_buy_in`` is raised to ``chips_top_up_to``, 1,000 chips, at most once per
  ``chips_top_up_every_seconds``, 10 minutes) and debits the buy-in with an atomic conditional
  ``UPDATE`` (the balance never goes below zero, on any number of nodes). The join arrives
  with the balance it was offered and that :class:`~.balances.ChipHold`.
* **Buy-in** (taking a seat): ``join.buy_in`` chips, from ``min_buy_in`` to ``max_buy_in``
  (default ``max_buy_in``, or the whole balance when that is less), come from the hold to the
  seat's stack. **Rebuy**: a ``join`` with ``buy_in`` on the player's own seat while its
  stack is below the ante (:meth:`~.flow.GameFlow.out_of_chips`) while it is not in a hand
  being played (between hands, or sitting a hand out) adds
  ``buy_in`` chips (the stack at most ``max_buy_in``). **Cash-out**: when the seat is freed
  (leaving between hands, at the end of the hand when mid-hand, kicked, or the table closes
  for good) its whole stack returns to the balance. A shutdown keeps the log and the seats:
  the stacks stay at the table and are restored with it.
* **Exactly once.** A balance move is never written from here: the join's hold is *settled*
  by a :class:`~cardhall.storage.interface.ChipMove` (``settle:<hold id>``: what the join did
  not use comes back; all of it when the join was refused or took nothing) and a cash-out is
  one (``cashout:<take id>``), handed to the table log with the step, so the database applies
  it in the same transaction as the snapshot that shows the seat's new stack
  (``storage/log.py``); the key makes a replayed or retried commit a no-op. A crash before
  that commit: the seat is restored from the older snapshot without the chips, and the hold
  is released whole at the next start (or by the node taking the table over, in its claim);
  a fenced commit (cluster takeover) writes nothing. Hand results move only stacks (in the
  log), never balances.
* **Own bots.** At a table with chip balances an identity and the bot identities it owns
  (``players.owner_id``) never hold seats together: the later ``join`` is refused
  ``chips.own_bot`` (a bot plays on the house's chips, so folding to its owner would mint
  them). Built-in bots are the house's and sit with anyone.
* Built-in bots and bot identities play on the house's ``starting_stack`` (no balance:
  ``GET /api/players/me/chips`` answers ``enabled: false`` for a bot); so
  does a seat taken while the balance cannot be read (a database outage: the seat plays, but
  its stack is never cashed out, so no chips are minted) or by a request that carries no
  balance (tests posting directly).
"""

from __future__ import annotations

from typing import Any

from ..engine import Event
from ..protocol import messages as p
from ..protocol.errors import ErrorCode
from ..storage.interface import ChipMove
from .balances import ChipHold
from .connections import Connection
from .messages import BALANCE_UNKNOWN
from .seats import Seat
from .state import TableState, buy_in_range

__all__ = ["Chips", "buy_in_range", "wanted_buy_in"]


def wanted_buy_in(asked: int | None, balance: int, most: int) -> int:
    """The chips a join takes from a ``balance`` at a table whose ``max_buy_in`` is ``most``:
    ``asked`` (``join.buy_in``), or by default ``most`` or the whole balance when less."""
    return asked if asked is not None else min(most, balance)


class Chips:
    """The chip moves of one table (see the module docstring; ``table.chips``).

    Args:
        t: the table's state (seats, rules, whether its messages wait for a log).
        store: applies a move at once when the table has no log (unit tests over a memory
            store); else moves go to the log with their step (:meth:`step_moves`).
    """

    def __init__(self, t: TableState, store: Any) -> None:
        self.t = t
        self.store = store
        self._chips: list[ChipMove] = []
        """Balance moves of the running step (handed to the log at its end)."""
        self._hold: ChipHold | None = None
        """The hold of the join being handled (:meth:`begin_join`)."""
        self._hold_used = 0
        """Chips of :attr:`_hold` the join put on a stack so far."""
        self.chip_balances = True
        """Seats buy in from balances here (``CARDHALL_CHIP_BALANCES``; set by the manager)."""

    def begin_join(self, hold: ChipHold | None) -> None:
        """A ``join`` with ``hold`` (or none) is handled now; :meth:`end_join` settles it."""
        self._hold, self._hold_used = hold, 0

    def end_join(self) -> None:
        """The join is handled: its hold is settled with this step (what it did not use
        comes back)."""
        hold, self._hold = self._hold, None
        if hold is not None:
            self._add(hold.settle(self._hold_used))

    def _take(self, chips: int) -> bool:
        """Put ``chips`` of the join's hold on a stack; ``False`` if the hold lacks them."""
        if self._hold is None or self._hold.amount - self._hold_used < chips:
            return False
        self._hold_used += chips
        return True

    def own_bot_clash(self, player: Any) -> Seat | None:
        """A seat whose holder is ``player``'s owner or a bot identity ``player`` owns, at a
        table with chip balances (then the join is refused ``chips.own_bot``)."""
        if not (self.chip_balances and self.t.rules.uses_stacks):
            return None
        return next((s for s in self.t.seats if s.taken and s.bot_kind is None and (
            (player.owner_id is not None and s.player_id == player.owner_id)
            or (s.owner_id is not None and s.owner_id == player.id))), None)

    def buy_in(self, conn: Connection, m: p.Join, balance: int | None) -> int | None:
        """The chips a new seat's stack starts with, or ``None`` after answering an error
        (``chips.unavailable``, ``chips.bad_buy_in``, ``chips.insufficient``)."""
        if balance is None or balance == BALANCE_UNKNOWN:  # house chips, never cashed out
            return int(self.t.spec.starting_stack or 0)
        least, most = self.t.buy_in_range()
        want = wanted_buy_in(m.buy_in, balance, most)
        if m.buy_in is None and want < least:  # the default: the balance is too small
            self.t.error(conn, "chips.insufficient", f"your balance is {balance} chips; this "
                        f"table's buy-in is at least {least}", m)
            return None
        if not least <= want <= most:
            self.t.error(conn, "chips.bad_buy_in", f"buy_in must be {least} to {most} chips "
                        f"here, got {want}", m)
            return None
        if want > balance or not self._take(want):
            self.t.error(conn, "chips.insufficient", f"your balance is {balance} chips; this "
                        f"table's buy-in is at least {least}", m)
            return None
        return want

    def funded(self, seat: Seat, chips: int) -> None:
        """The seat was just taken with ``chips`` from its holder's hold (:meth:`buy_in`)."""
        assert seat.player_id is not None and seat.take_id is not None
        seat.funded = True

    def rebuy(self, conn: Connection, seat: Seat, m: p.Join, balance: int | None) -> bool:
        """Add ``m.buy_in`` chips to the holder's own seat; ``False`` after answering an
        error (``chips.no_rebuy``, ``chips.insufficient``, ``chips.unavailable``)."""
        assert m.buy_in is not None
        _, most = self.t.buy_in_range()
        stack = seat.stack or 0
        if (not seat.funded or balance is None or seat.player_id != conn.player.id
                or not self.t.out_of_chips(seat.index) or self._mid_hand(seat)
                or stack + m.buy_in > most):  # the balance read is the sender's own
            self.t.error(conn, "chips.no_rebuy", f"no rebuy of {m.buy_in} now: the stack is "
                        f"{stack} chips (a rebuy while below the ante, between hands, up to "
                        f"{most})", m)
            return False
        if balance == BALANCE_UNKNOWN or balance < m.buy_in or not self._take(m.buy_in):
            code: ErrorCode = "chips.unavailable" if balance == BALANCE_UNKNOWN \
                else "chips.insufficient"
            self.t.error(conn, code, f"no rebuy of {m.buy_in}: balance {balance} chips", m)
            return False
        seat.rebuys += 1
        seat.stack = stack + m.buy_in
        return True

    def _mid_hand(self, seat: Seat) -> bool:
        """Whether ``seat`` is dealt into a hand being played now (between hands the last
        hand's seat map stays, so :meth:`in_hand` alone does not say)."""
        return self.t.status == "playing" and self.t.in_hand(seat.index)

    def cash_out(self, seat: Seat) -> None:
        """Return a funded seat's whole stack to its holder's balance (call before freeing)."""
        if seat.funded and seat.player_id is not None and seat.stack:
            self._move(seat, f"cashout:{seat.take_id}", seat.stack, "cash_out")
        seat.funded = False

    def _move(self, seat: Seat, key: str, delta: int, reason: str) -> None:
        assert seat.player_id is not None
        self._add(ChipMove(key, seat.player_id, delta, reason, self.t.id))

    def _add(self, move: ChipMove) -> None:
        if not self.t.out.holding and hasattr(self.store, "apply_chips"):
            self.store.apply_chips([move])  # no log (unit tests over a memory store)
        else:
            self._chips.append(move)

    def step_moves(self) -> list[ChipMove]:
        """The step's balance moves (taken: each goes to the log once)."""
        out, self._chips = self._chips, []
        return out


def rebuy_event(seat: Seat, chips: int, *, house: bool) -> Event:
    """The public ``rebuy`` table event (``protocol/games.py``: ``Rebuy``) of ``seat`` whose
    stack just grew by ``chips`` (its new stack is read from the seat); ``house``: a built-in
    bot's refill (:meth:`~.flow.GameFlow._top_up_builtin_bots`), else the holder's rebuy."""
    return Event("rebuy", {"seat": seat.index, "chips": chips, "stack": seat.stack or 0,
                           "house": house})
