"""The table manager's moderation half: close a table, kick a seat or a player everywhere, and
the server figures the admin reads (``docs/rest.md``, "Admin").

Mixed into :class:`~.manager.TableManager`; each call goes through the table's own task
(:meth:`~.actor.Table.call`, :class:`~.messages.Close`), never around it.
"""

from __future__ import annotations

import asyncio
import builtins
from typing import Any

from ..protocol import messages as p
from .actor import Table
from .bots import BotConnection
from .departures import KickResult
from .errors import SeatNotFoundError, TableNotFoundError
from .messages import Close


class Moderation:
    """Close, kick and the admin's figures (see the module docstring)."""

    # set by TableManager (annotations only)
    tables: dict[str, Table]
    tasks: dict[str, asyncio.Task[None]]
    closed_count: int
    games_saved_closed: int
    tables_restored: int
    tables_aborted: int

    def list(self, game: str | None = None) -> builtins.list[Table]:
        raise NotImplementedError  # TableManager's

    async def close(self, table_id: str, reason: p.TableClosedReason = "closed") -> bool:
        """Close a table and wait for its task to end; False if there is no such table."""
        table = self.tables.get(table_id)
        task = self.tasks.get(table_id)
        if table is None or task is None:
            return False
        table.post(Close(reason))
        await asyncio.wait({task}, timeout=2.0)
        return True

    async def kick(self, table_id: str, seat: int, reason: str = "kicked") -> KickResult:
        """Remove a seat's holder (told ``table_closed``/``kicked``; mid-game a stand-in bot
        plays the seat until the game ends, see :meth:`~.departures.Departures.kick_now`). Returns what it did
        (``kicked=False`` with why for an empty seat or one already kicked).

        Raises:
            TableNotFoundError: no such table (:class:`TableClosedError`: it closed meanwhile).
            SeatNotFoundError: no such seat.
        """
        table = self.tables.get(table_id)
        if table is None:
            raise TableNotFoundError(f"no live table {table_id!r}")
        if not 0 <= seat < len(table.seats):
            raise SeatNotFoundError(f"no seat {seat} at table {table_id} "
                                    f"(seats 0-{len(table.seats) - 1})")
        result: KickResult = await table.call(lambda t: t.departures.kick_now(seat, reason))
        return result

    async def kick_player(self, player_id: str, reason: str = "kicked") -> builtins.list[str]:
        """Kick every seat ``player_id`` holds at every live table (a person's, an SDK bot's or
        a built-in bot identity's seats alike); returns ``"<table id>:<seat>"`` of each seat
        this call kicked. Tables that close meanwhile are skipped."""
        kicked: builtins.list[str] = []
        for table in self.list():
            held = [s.index for s in table.seats if s.player_id == player_id]
            for seat in held:
                try:
                    result = await self.kick(table.id, seat, reason)
                except TableNotFoundError:  # the table closed meanwhile
                    break
                if result.kicked:
                    kicked.append(f"{table.id}:{seat}")
        return kicked

    def stats(self) -> dict[str, Any]:
        """Server figures for the admin: tables by status, seats, connections, saved games."""
        by_status: dict[str, int] = {}
        for t in self.tables.values():
            by_status[t.status] = by_status.get(t.status, 0) + 1
        return {
            "tables": len(self.tables),
            "tables_by_status": by_status,
            "tables_closed": self.closed_count,
            "seats_taken": sum(sum(1 for s in t.seats if s.taken) for t in self.tables.values()),
            "connections": sum(sum(1 for c in t.connections() if not isinstance(c, BotConnection))
                               for t in self.tables.values()),  # people's sockets, no bots
            "games_saved": self.games_saved_closed + sum(t.flow.games_saved
                                                         for t in self.tables.values()),
            "inbox_backlog": sum(t.inbox.qsize() for t in self.tables.values()),
            "tables_restored": self.tables_restored,
            "tables_aborted": self.tables_aborted,
        }
