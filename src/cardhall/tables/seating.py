"""Seating at a table actor: join, resume, take a seat (``design.md`` section 5).

A part of :class:`~.actor.Table` (held as ``table.seating``); runs only inside the table's
task. ``join`` takes a free seat
(or the one asked for), resumes the player's own seat or any seat by its seat token (the old
socket is told ``table.replaced``), or watches; every answer is one ``joined`` and one full
``state``. One seat per connection per table.

**Sitting out** poker hands (``docs/protocol.md``, ``sit_out``): a seat's holder may sit
out (:attr:`~.seats.Seat.sitting_out`): it keeps the seat and its stack, and the next hands
leave it out exactly as they leave out a seat without the ante's chips (the same seam,
:meth:`~.flow.GameFlow._eligible`); a hand it is playing is played to its end. Coming back in
deals it in from the next hand. When too few seats are in, the table waits (``waiting``) and
deals again once enough are back in. Sitting out is part of the seat's snapshot (restored
with the table) and ends when the seat is freed.
"""

from __future__ import annotations

from ..protocol import messages as p
from .chat import TableChat
from .chips import Chips, rebuy_event
from .connections import Connection
from .fanout import Fanout
from .flow import GameFlow
from .handlog import hand_log
from .seats import Seat
from .standin import RETURNABLE, StandIns
from .state import TableState
from .timers import Timers


class Seating:
    """Who sits where at one table (see the module docstring).

    Args:
        t: the table's state.
        flow: starts the game once the table is ready.
        fanout: full states and each step's frames.
        chips: buy-ins and rebuys from balances.
        stand_ins: a holder coming back takes the seat back from its stand-in.
        chat: presence goes to everyone else.
        timers: the idle timer.
    """

    def __init__(self, t: TableState, flow: GameFlow, fanout: Fanout, chips: Chips,
                 stand_ins: StandIns, chat: TableChat, timers: Timers) -> None:
        self.t = t
        self.flow = flow
        self.fanout = fanout
        self.chips = chips
        self.stand_ins = stand_ins
        self.chat = chat
        self.timers = timers

    def join(self, conn: Connection, m: p.Join, balance: int | None = None) -> None:
        """Handle ``join`` (``balance``: the player's chip balance at a poker table, see
        :class:`~.messages.ClientRequest`)."""
        own = self.t.seat_of(conn) or self.t.own_seat(conn)  # held by this socket or this person
        left = own is not None and own.stand_in == "left" and own.conn is not conn
        if own is not None and ((m.spectate and not left)  # who left the seat may watch
                                or (m.seat is not None and m.seat != own.index)):
            self.t.error(conn, "table.already_seated",
                        f"you hold seat {own.index} here; leave it first", m)
            return
        if own is None and not self._invited(m):
            self.t.error(conn, "table.invite_required",
                        "this table is private: join with its invite_code", m)
            return
        if m.spectate and own is None and not self.t.spec.watchable:
            self.t.error(conn, "table.not_watchable", "this tournament table cannot be "
                         "watched while its board may be played at another table", m)
            return
        if m.spectate:
            self.t.spectators[conn.id] = conn
            self.t.send(conn, p.Joined(table_id=self.t.id, version=self.t.version, role="spectator",
                               seat=None, rid=m.rid))
            self.t.send(conn, self.fanout.full(conn, None))
            return
        seat = self._resumable(conn, m)
        if own is not None and seat is None and m.seat_token is None:
            seat = own
        elif own is not None and seat is not None and seat is not own:  # another seat's token
            self.t.error(conn, "table.already_seated",
                        f"you hold seat {own.index} here; leave it first", m)
            return
        if seat is not None:
            if m.buy_in is not None and self.t.rules.uses_stacks and seat.bot_kind is None:
                if not self.chips.rebuy(conn, seat, m, balance):
                    return
                self.t.version += 1
                self.flow.fan_events([rebuy_event(seat, m.buy_in, house=False)], None,
                                     timeout=False)
                self._resume(conn, seat, m, said=True)
                return
            self._resume(conn, seat, m)
            return
        if m.seat_token is not None:
            self.t.error(conn, "table.bad_seat_token", "no seat here has this seat token", m)
            return
        if m.seat is not None and m.seat >= len(self.t.seats):
            self.t.error(conn, "table.bad_seat", f"no seat {m.seat} (seats: {len(self.t.seats)})", m)
            return
        if m.seat is not None and self.t.seats[m.seat].taken:
            self.t.error(conn, "table.seat_taken", f"seat {m.seat} is taken", m)
            return
        free = [s for s in self.t.seats if not s.taken and (m.seat is None or s.index == m.seat)]
        if not free:
            self.t.error(conn, "table.no_free_seat", "every seat is taken", m)
            return
        clash = self.chips.own_bot_clash(conn.player)
        if clash is not None:
            self.t.error(conn, "chips.own_bot", f"seat {clash.index} is held by your own bot "
                        "or your bot's owner: they never play each other for chips", m)
            return
        stack: int | None = None
        if self.t.rules.uses_stacks:
            stack = self.chips.buy_in(conn, m, balance)
            if stack is None:
                return
        self.seat_player(free[0], conn, m.rid, client_seed=m.client_seed, stack=stack,
                               funded=balance is not None and balance >= 0)

    def _invited(self, m: p.Join) -> bool:
        """A public table lets anyone in; a private one only a join with its invite code, or
        a resume by seat token."""
        if not self.t.spec.private:
            return True
        if m.seat_token is not None and any(s.token_matches(m.seat_token) for s in self.t.seats):
            return True
        return m.invite_code is not None and m.invite_code == self.t.spec.invite_code

    def _resumable(self, conn: Connection, m: p.Join) -> Seat | None:
        for s in self.t.seats:
            if m.seat is not None and s.index != m.seat:
                continue
            if (s.leaving and s.stand_in not in RETURNABLE) or not s.taken:
                continue
            if m.seat_token is not None:
                if s.token_matches(m.seat_token):
                    return s
            elif s.player_id == conn.player.id and s.bot_kind is None:
                return s
        return None

    def _resume(self, conn: Connection, seat: Seat, m: p.Join, said: bool = False) -> None:
        """Give ``seat`` back to ``conn`` (a resume, or a rebuy: ``said``, a table event is
        queued for everyone, so every page gets the step's state)."""
        took_back = seat.stand_in in RETURNABLE
        stood_from = seat.stand_in_from if took_back else None  # for the hand_log
        if took_back:  # back from a leave or timeouts: the stand-in stops
            self.stand_ins.take_back(seat)
            self.t.version += 1
        old = seat.conn
        if old is not None and old is not conn:
            self.t.send(old, p.Error(code="table.replaced", message=f"seat {seat.index} resumed elsewhere",
                             table_id=self.t.id, version=self.t.version))
        for other in self.t.seats:  # one seat per connection per table
            if other is not seat and other.conn is conn:
                other.conn = None
        seat.conn = conn
        self.t.spectators.pop(conn.id, None)
        self.chat.presence(seat, True)
        if m.client_seed is not None:  # for the games that start from now on
            seat.client_seed = m.client_seed
        if seat.token is None:  # restored: only the hash was kept
            if m.seat_token is not None:
                seat.token = m.seat_token
            else:
                seat.new_token()  # resumed by identity: a fresh token (logged by its hash)
        self.t.send(conn, p.Joined(table_id=self.t.id, version=self.t.version, role="seat",
                                 seat=seat.index, seat_token=seat.token, resumed=True, rid=m.rid))
        if self.t.status == "waiting" and self.flow.start_game_if_ready():
            return  # a poker table paused while nobody was connected deals again
        if took_back or said:
            self.fanout.broadcast()  # every page sees the seat is its holder's again, or the rebuy
        else:
            self.t.send(conn, self.fanout.full(conn, seat.index))
        missed = hand_log(self.t, seat.index, stood_from)
        if missed is not None:  # the page rebuilds the hand's log (tables/handlog.py)
            self.t.send(conn, missed)
        self.timers.arm_reap()

    def seat_player(self, seat: Seat, conn: Connection, rid: str | None = None,
                          bot_kind: str | None = None, client_seed: str | None = None,
                          stack: int | None = None, funded: bool = False) -> None:
        """Give ``seat`` to ``conn``'s player (a person or a built-in bot) with its client seed
        (``join.client_seed``, already validated) and, at a poker table, ``stack`` chips
        (default the house's ``starting_stack``; ``funded``: taken from the player's balance,
        :mod:`.chips`); bumps the version and starts the game once the table is full."""
        for other in self.t.seats:
            if other.conn is conn:
                other.conn = None
        self.t.spectators.pop(conn.id, None)
        if self.t.rules.uses_stacks and stack is None:
            stack = self.t.spec.starting_stack
        is_bot = bot_kind is not None or conn.player.is_bot  # built-in, or a bot identity
        self.t.had_client = self.t.had_client or bot_kind is None
        token = seat.take(conn.player.id, conn.player.name, bot=is_bot,
                          bot_kind=bot_kind, stack=stack, client_seed=client_seed,
                          owner_id=conn.player.owner_id if bot_kind is None else None)
        seat.conn = conn
        if funded and stack:
            self.chips.funded(seat, stack)
        self.t.version += 1
        self.t.send(conn, p.Joined(table_id=self.t.id, version=self.t.version, role="seat", seat=seat.index,
                           seat_token=token, rid=rid))
        started = self.t.status == "waiting" and self.flow.start_game_if_ready()
        if not started:  # between poker hands the pause timer deals the next one
            self.fanout.broadcast()
        self.timers.arm_reap()

    def sit_out(self, conn: Connection, m: p.SitOut) -> None:
        """Handle ``sit_out``: set the connection's seat's :attr:`~.seats.Seat.sitting_out`
        to ``m.sit_out`` and send everyone the new state (a waiting table deals if the seat
        coming back makes enough seats). Refused ``table.not_poker`` (no stacks in this game)
        and ``table.not_seated``."""
        if not self.t.rules.uses_stacks:
            self.t.error(conn, "table.not_poker", f"{self.t.rules.name} deals every seat; "
                        "sit_out is for poker tables", m)
            return
        seat = self.t.seat_of(conn)
        if seat is None:
            self.t.error(conn, "table.not_seated", "this connection holds no seat here", m)
            return
        if seat.sitting_out == m.sit_out:  # nothing changes: the state as it is
            self.t.send(conn, self.fanout.full(conn, seat.index))
            return
        seat.sitting_out = m.sit_out
        self.t.version += 1
        if not m.sit_out and self.t.status == "waiting" and self.flow.start_game_if_ready():
            return
        self.fanout.broadcast()
