"""Sitting out poker hands at a table actor (``docs/protocol.md``, ``sit_out``).

Mixed into :class:`~.actor.Table`; runs only inside the table's task. A seat's holder may sit
out (:attr:`~.seats.Seat.sitting_out`): it keeps the seat and its stack, and the next hands
leave it out exactly as they leave out a seat without the ante's chips (the same seam,
:meth:`~.flow.GameFlow._eligible`); a hand it is playing is played to its end. Coming back in
deals it in from the next hand. When too few seats are in, the table waits (``waiting``) and
deals again once enough are back in. Sitting out is part of the seat's snapshot (restored
with the table) and ends when the seat is freed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..protocol import messages as p
    from ..protocol.errors import ErrorCode
    from ..protocol.frames import Frame
    from .connections import Connection
    from .seats import Seat


class SittingOut:
    """The sit-out half of a table (see the module docstring)."""

    if TYPE_CHECKING:  # provided by Table and GameFlow
        rules: Any
        status: str
        version: int

        def seat_of(self, conn: Connection) -> Seat | None: ...
        def _error(self, conn: Connection, code: ErrorCode, message: str,
                   req: Any = None) -> None: ...
        def state_for(self, conn: Connection, seat: int | None) -> Frame: ...
        def send(self, conn: Connection, msg: Any) -> None: ...
        def broadcast_state(self) -> None: ...
        async def start_game_if_ready(self) -> bool: ...

    async def _sit_out(self, conn: Connection, m: p.SitOut) -> None:
        """Handle ``sit_out``: set the connection's seat's :attr:`~.seats.Seat.sitting_out`
        to ``m.sit_out`` and send everyone the new state (a waiting table deals if the seat
        coming back makes enough seats). Refused ``table.not_poker`` (no stacks in this game)
        and ``table.not_seated``."""
        if not self.rules.uses_stacks:
            self._error(conn, "table.not_poker", f"{self.rules.name} deals every seat; "
                        "sit_out is for poker tables", m)
            return
        seat = self.seat_of(conn)
        if seat is None:
            self._error(conn, "table.not_seated", "this connection holds no seat here", m)
            return
        if seat.sitting_out == m.sit_out:  # nothing changes: the state as it is
            self.send(conn, self.state_for(conn, seat.index))
            return
        seat.sitting_out = m.sit_out
        self.version += 1
        if not m.sit_out and self.status == "waiting" and await self.start_game_if_ready():
            return
        self.broadcast_state()
