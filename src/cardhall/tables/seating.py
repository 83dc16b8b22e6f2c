"""Seating at a table actor: join, resume, take a seat (``design.md`` section 5).

Mixed into :class:`~.actor.Table`; runs only inside the table's task. ``join`` takes a free seat
(or the one asked for), resumes the player's own seat or any seat by its seat token (the old
socket is told ``table.replaced``), or watches; every answer is one ``joined`` and one full
``state``. One seat per connection per table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..protocol import messages as p
from .handlog import hand_log
from .seats import Seat
from .standin import RETURNABLE

if TYPE_CHECKING:
    from ..protocol.errors import ErrorCode
    from ..protocol.frames import Frame
    from .connections import Connection


class Seating:
    """The seating half of a table (see the module docstring)."""

    if TYPE_CHECKING:  # provided by Table and GameFlow
        id: str
        rules: Any
        spec: Any
        seats: list[Seat]
        spectators: dict[str, Connection]
        version: int
        status: str
        had_client: bool

        def seat_of(self, conn: Connection) -> Seat | None: ...
        def _error(self, conn: Connection, code: ErrorCode, message: str,
                   req: Any = None) -> None: ...
        def state_for(self, conn: Connection, seat: int | None) -> Frame: ...
        async def start_game_if_ready(self) -> bool: ...
        def broadcast_state(self) -> None: ...
        def arm_reap(self, *, resumed: bool = False) -> None: ...
        def send(self, conn: Connection, msg: Any) -> None: ...
        def presence(self, seat: Seat, connected: bool) -> None: ...
        def take_back(self, seat: Seat) -> None: ...
        def buy_in(self, conn: Connection, m: p.Join, balance: int | None) -> int | None: ...
        def rebuy(self, conn: Connection, seat: Seat, m: p.Join, balance: int | None) -> bool: ...
        def funded(self, seat: Seat, chips: int) -> None: ...
        def own_bot_clash(self, player: Any) -> Seat | None: ...

    async def _join(self, conn: Connection, m: p.Join, balance: int | None = None) -> None:
        """Handle ``join`` (``balance``: the player's chip balance at a poker table, see
        :class:`~.messages.ClientRequest`)."""
        own = self.seat_of(conn) or self._own_seat(conn)  # held by this socket or this person
        left = own is not None and own.stand_in == "left" and own.conn is not conn
        if own is not None and ((m.spectate and not left)  # who left the seat may watch
                                or (m.seat is not None and m.seat != own.index)):
            self._error(conn, "table.already_seated",
                        f"you hold seat {own.index} here; leave it first", m)
            return
        if own is None and not self._invited(m):
            self._error(conn, "table.invite_required",
                        "this table is private: join with its invite_code", m)
            return
        if m.spectate:
            self.spectators[conn.id] = conn
            self.send(conn, p.Joined(table_id=self.id, version=self.version, role="spectator",
                               seat=None, rid=m.rid))
            self.send(conn, self.state_for(conn, None))
            return
        seat = self._resumable(conn, m)
        if own is not None and seat is None and m.seat_token is None:
            seat = own
        elif own is not None and seat is not None and seat is not own:  # another seat's token
            self._error(conn, "table.already_seated",
                        f"you hold seat {own.index} here; leave it first", m)
            return
        if seat is not None:
            if m.buy_in is not None and self.rules.uses_stacks and seat.bot_kind is None:
                if not self.rebuy(conn, seat, m, balance):
                    return
                self.version += 1
            await self._resume(conn, seat, m)
            return
        if m.seat_token is not None:
            self._error(conn, "table.bad_seat_token", "no seat here has this seat token", m)
            return
        if m.seat is not None and m.seat >= len(self.seats):
            self._error(conn, "table.bad_seat", f"no seat {m.seat} (seats: {len(self.seats)})", m)
            return
        if m.seat is not None and self.seats[m.seat].taken:
            self._error(conn, "table.seat_taken", f"seat {m.seat} is taken", m)
            return
        free = [s for s in self.seats if not s.taken and (m.seat is None or s.index == m.seat)]
        if not free:
            self._error(conn, "table.no_free_seat", "every seat is taken", m)
            return
        clash = self.own_bot_clash(conn.player)
        if clash is not None:
            self._error(conn, "chips.own_bot", f"seat {clash.index} is held by your own bot "
                        "or your bot's owner: they never play each other for chips", m)
            return
        stack: int | None = None
        if self.rules.uses_stacks:
            stack = self.buy_in(conn, m, balance)
            if stack is None:
                return
        await self.seat_player(free[0], conn, m.rid, client_seed=m.client_seed, stack=stack,
                               funded=balance is not None and balance >= 0)

    def _invited(self, m: p.Join) -> bool:
        """A public table lets anyone in; a private one only a join with its invite code, or
        a resume by seat token."""
        if not self.spec.private:
            return True
        if m.seat_token is not None and any(s.token_matches(m.seat_token) for s in self.seats):
            return True
        return m.invite_code is not None and m.invite_code == self.spec.invite_code

    def _own_seat(self, conn: Connection) -> Seat | None:
        """The seat this connection's person holds here (resumable), if any: one a stand-in
        plays because its holder left or timed out counts (the holder takes it back)."""
        return next((s for s in self.seats if s.taken and s.bot_kind is None
                     and (not s.leaving or s.stand_in in RETURNABLE)
                     and s.player_id == conn.player.id), None)

    def _resumable(self, conn: Connection, m: p.Join) -> Seat | None:
        for s in self.seats:
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

    async def _resume(self, conn: Connection, seat: Seat, m: p.Join) -> None:
        took_back = seat.stand_in in RETURNABLE
        stood_from = seat.stand_in_from if took_back else None  # for the hand_log
        if took_back:  # back from a leave or timeouts: the stand-in stops
            self.take_back(seat)
            self.version += 1
        old = seat.conn
        if old is not None and old is not conn:
            self.send(old, p.Error(code="table.replaced", message=f"seat {seat.index} resumed elsewhere",
                             table_id=self.id, version=self.version))
        for other in self.seats:  # one seat per connection per table
            if other is not seat and other.conn is conn:
                other.conn = None
        seat.conn = conn
        self.spectators.pop(conn.id, None)
        self.presence(seat, True)
        if m.client_seed is not None:  # for the games that start from now on
            seat.client_seed = m.client_seed
        if seat.token is None:  # restored: only the hash was kept
            if m.seat_token is not None:
                seat.token = m.seat_token
            else:
                seat.new_token()  # resumed by identity: a fresh token (logged by its hash)
        self.send(conn, p.Joined(table_id=self.id, version=self.version, role="seat",
                                 seat=seat.index, seat_token=seat.token, resumed=True, rid=m.rid))
        if self.status == "waiting" and await self.start_game_if_ready():
            return  # a poker table paused while nobody was connected deals again
        if took_back:
            self.broadcast_state()  # every page sees the seat is its holder's again
        else:
            self.send(conn, self.state_for(conn, seat.index))
        missed = hand_log(self, seat.index, stood_from)  # type: ignore[arg-type]
        if missed is not None:  # the page rebuilds the hand's log (tables/handlog.py)
            self.send(conn, missed)
        self.arm_reap()

    async def seat_player(self, seat: Seat, conn: Connection, rid: str | None = None,
                          bot_kind: str | None = None, client_seed: str | None = None,
                          stack: int | None = None, funded: bool = False) -> None:
        """Give ``seat`` to ``conn``'s player (a person or a built-in bot) with its client seed
        (``join.client_seed``, already validated) and, at a poker table, ``stack`` chips
        (default the house's ``starting_stack``; ``funded``: taken from the player's balance,
        :mod:`.chips`); bumps the version and starts the game once the table is full."""
        for other in self.seats:
            if other.conn is conn:
                other.conn = None
        self.spectators.pop(conn.id, None)
        if self.rules.uses_stacks and stack is None:
            stack = self.spec.starting_stack
        is_bot = bot_kind is not None or conn.player.is_bot  # built-in, or a bot identity
        self.had_client = self.had_client or bot_kind is None
        token = seat.take(conn.player.id, conn.player.name, bot=is_bot,
                          bot_kind=bot_kind, stack=stack, client_seed=client_seed,
                          owner_id=conn.player.owner_id if bot_kind is None else None)
        seat.conn = conn
        if funded and stack:
            self.funded(seat, stack)
        self.version += 1
        self.send(conn, p.Joined(table_id=self.id, version=self.version, role="seat", seat=seat.index,
                           seat_token=token, rid=rid))
        started = self.status == "waiting" and await self.start_game_if_ready()
        if not started:  # between poker hands the pause timer deals the next one
            self.broadcast_state()
        self.arm_reap()

